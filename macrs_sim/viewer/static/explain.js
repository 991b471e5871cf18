/* A system's internals (SystemTurn.explain): any nested value as key/value lists, with
 * tidier layouts for MACRS's known keys. A known key in an unexpected shape falls back
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

var KNOWN = [
  ["candidates", "Candidate replies", renderCandidates],
  ["planner", "Planner reasoning", renderPlanner],
  ["profile", "User profile", renderProfile],
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
