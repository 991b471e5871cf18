/* A system's internals (SystemTurn.explain): any nested value as key/value lists, with
 * tidier layouts for known keys (MACRS's, RecMind's tree, ToolRec's loop). A known key in an unexpected shape falls back
 * to the generic layout, so other systems' explain dicts always render. */
(function () {
"use strict";

var MAX_DEPTH = 8;

MV.isPlainObject = function (v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
};

MV.renderValue = function (value, depth) {
  var el = MV.el;
  depth = depth || 0;
  if (value === null || value === undefined) return el("span", {class: "none"}, "—");
  if (typeof value !== "object") return el("span", {class: "val"}, String(value));
  if (depth > MAX_DEPTH) return el("pre", {class: "json"}, JSON.stringify(value, null, 1));
  if (Array.isArray(value)) {
    if (!value.length) return el("span", {class: "none"}, "(none)");
    return el("ol", {class: "vals"}, value.map(function (v) {
      return el("li", null, MV.renderValue(v, depth + 1));
    }));
  }
  var keys = Object.keys(value);
  if (!keys.length) return el("span", {class: "none"}, "(none)");
  return el("dl", {class: "kv"}, keys.map(function (k) {
    return [el("dt", null, k), el("dd", null, MV.renderValue(value[k], depth + 1))];
  }));
};

function renderCandidates(cands, ctx) {
  var el = MV.el;
  if (!MV.isPlainObject(cands)) return null;
  var rows = Object.keys(cands).map(function (act) {
    var c = cands[act];
    var text = MV.isPlainObject(c) ? c.text : c;
    var item = MV.isPlainObject(c) ? c.item_title : null;
    var chosen = act === ctx.chosen;
    return el("tr", {class: chosen ? "chosen" : null},
      el("td", null, MV.badge(act, "act"), chosen ? el("span", {class: "chosen-mark"}, " ✔ chosen") : null),
      el("td", {class: "text"}, MV.renderValue(text, 1)),
      el("td", null, item ? MV.renderValue(item, 1) : ""));
  });
  return el("table", {class: "grid candidates"},
    el("thead", null, el("tr", null, el("th", null, "Act"), el("th", null, "Candidate reply"),
      el("th", null, "Item"))),
    el("tbody", null, rows));
}

function renderPlanner(plan) {
  var el = MV.el;
  if (!MV.isPlainObject(plan)) return null;
  var steps = Object.keys(plan).filter(function (k) { return /^step\d+$/.test(k); }).sort();
  var rest = {};
  Object.keys(plan).forEach(function (k) {
    if (steps.indexOf(k) < 0 && k !== "choice") rest[k] = plan[k];
  });
  return el("div", {class: "planner"},
    steps.length ? el("ol", {class: "steps"}, steps.map(function (k) {
      return el("li", null, MV.renderValue(plan[k], 1));
    })) : null,
    "choice" in plan ? el("p", null, "Choice: ", MV.badge(plan.choice, "act")) : null,
    Object.keys(rest).length ? MV.renderValue(rest, 1) : null);
}

function renderProfile(profile) {
  var el = MV.el;
  if (!MV.isPlainObject(profile)) return null;
  var demand = profile.current_demand;
  var pairs = Array.isArray(demand) && demand.every(function (d) {
    return MV.isPlainObject(d) && "attribute" in d;
  });
  var rest = {};
  Object.keys(profile).forEach(function (k) { if (!(pairs && k === "current_demand")) rest[k] = profile[k]; });
  return el("div", null,
    pairs ? el("div", null, el("h5", null, "current demand"),
      demand.length ? el("ul", {class: "demand"}, demand.map(function (d) {
        return el("li", null, el("b", null, MV.fmt(d.attribute)), ": ", MV.fmt(d.value));
      })) : el("span", {class: "none"}, "(none)")) : null,
    Object.keys(rest).length ? MV.renderValue(rest, 1) : null);
}

function shorten(text, n) {
  text = String(text);
  return text.length > n ? text.slice(0, n - 1) + "…" : text;
}

/* RecMind's reasoning tree (agents/recmind/tree.py): nodes linked by parent, a status each
 * (kept, pruned, unexplored, backtracked, alternative, finish), ToT votes, Self-Inspiring
 * path numbers, and the final path drawn in bold. */
function renderTree(tree) {
  var el = MV.el;
  if (!MV.isPlainObject(tree) || !Array.isArray(tree.nodes)) return null;
  var onPath = {};
  (tree.final_path || []).forEach(function (id) { onPath[id] = true; });
  var children = {};
  var roots = [];
  tree.nodes.forEach(function (n) {
    if (n.parent === null || n.parent === undefined) roots.push(n);
    else (children[n.parent] = children[n.parent] || []).push(n);
  });
  function node(n) {
    var action = n.action + (n.argument ? "[" + n.argument + "]" : "");
    var label = el("div", {class: "tree-label"},
      el("span", {class: "node-id"}, "#" + n.id), " ",
      MV.badge(n.status, "node"),
      n.votes !== null && n.votes !== undefined ? el("span", {class: "votes"}, " " + n.votes + " vote" + (n.votes === 1 ? "" : "s")) : null,
      n.path > 1 ? el("span", {class: "votes"}, " path " + n.path) : null, " ",
      el("span", {class: "thought", title: n.thought}, shorten(n.thought, 140)), " → ",
      el("code", {class: n.ok === false ? "failed" : null}, shorten(action, 100)));
    var obs = n.observation === null || n.observation === undefined ? null :
      el("details", {class: "observation"}, el("summary", null, shorten(n.observation, 120)),
        el("pre", null, n.observation));
    var kids = children[n.id];
    return el("li", {class: "tree-node" + (onPath[n.id] ? " final" : ""), "data-node": n.id,
      "data-status": n.status}, label, obs,
      kids ? el("ul", {class: "tree"}, kids.map(node)) : null);
  }
  var path = (tree.final_path || []).map(function (id) { return "#" + id; }).join(" → ");
  return el("div", {class: "reasoning-tree"},
    el("p", {class: "tree-summary"}, "Planner ", el("b", null, tree.planner), ": ",
      tree.steps_used + " of " + tree.step_limit + " steps",
      tree.hit_step_limit ? el("span", {class: "limit"}, " (step limit hit)") : null,
      path ? "; final path " + path : ""),
    el("ul", {class: "tree"}, roots.map(node)),
    tree.answer ? el("p", {class: "tree-answer"}, el("b", null, "Answer: "), tree.answer) : null);
}

/* ToolRec's surrogate-user loop (agents/toolrec/loop.py): one row per round. */
function renderLoop(loop) {
  var el = MV.el;
  if (!MV.isPlainObject(loop) || !Array.isArray(loop.rounds)) return null;
  var rows = loop.rounds.map(function (r) {
    var added = Array.isArray(r.items) ? r.items.length : "";
    var refused = Array.isArray(r.invalid) ? r.invalid.length : "";
    return el("tr", {class: r.error ? "failed" : null},
      el("td", null, String(r.round !== undefined ? r.round : "")),
      el("td", {class: "text", title: r.thought || ""}, shorten(r.thought || "", 120)),
      el("td", null, el("code", null, String(r.action || ""))),
      el("td", null, String(added)), el("td", null, String(refused)),
      el("td", null, String(r.candidates !== undefined ? r.candidates : "")),
      el("td", null, r.error ? shorten(r.error, 80) : ""));
  });
  return el("div", {class: "toolrec-loop"},
    el("table", {class: "grid"},
      el("thead", null, el("tr", null, ["Round", "Thought", "Action", "Items", "Refused", "List", "Error"]
        .map(function (h) { return el("th", null, h); }))),
      el("tbody", null, rows)),
    loop.stop ? el("p", null, "Stopped: ", el("b", null, String(loop.stop))) : null);
}

var KNOWN = [
  ["candidates", "Candidate replies", renderCandidates],
  ["planner", "Planner reasoning", renderPlanner],
  ["profile", "User profile", renderProfile],
  ["tree", "Reasoning tree", renderTree],
  ["loop", "Surrogate-user loop", renderLoop],
  ["suggestions", "Strategy suggestions", null],
  ["experiences", "Experiences", null],
  ["strategy_reflection", "Strategy reflection", null]
];
// Shown in the turn's header instead.
var SKIPPED = {reported_act: true};

/* ctx: {act: the recorded act, chosen: the act the planner chose, when known}. */
MV.renderExplain = function (explain, ctx) {
  var el = MV.el;
  if (!MV.isPlainObject(explain)) return [MV.renderValue(explain, 0)];
  var sections = [];
  var known = {};
  ctx = ctx || {};
  if (MV.isPlainObject(explain.planner) && explain.planner.choice) ctx.chosen = explain.planner.choice;
  else if (!ctx.chosen) ctx.chosen = ctx.act;
  KNOWN.forEach(function (spec) {
    known[spec[0]] = true;
    if (!(spec[0] in explain)) return;
    var body = spec[2] ? spec[2](explain[spec[0]], ctx) : null;
    sections.push(el("section", {class: "explain-part", "data-key": spec[0]},
      el("h5", null, spec[1]), body || MV.renderValue(explain[spec[0]], 1)));
  });
  Object.keys(explain).forEach(function (k) {
    if (known[k] || SKIPPED[k]) return;
    sections.push(el("section", {class: "explain-part", "data-key": k},
      el("h5", null, k), MV.renderValue(explain[k], 1)));
  });
  return sections;
};
})();
