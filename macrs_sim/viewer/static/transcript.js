/* A dialogue as a transcript: acts, grounded items, accept/reject marks, the fallback
 * list, and per-turn internals (explain + LLM and tool calls) in a collapsed <details>. */
(function () {
"use strict";

var el = MV.el;

function callsByTurn(calls) {
  var byTurn = {};
  (calls || []).forEach(function (c) {
    var key = c.turn === null || c.turn === undefined ? "none" : String(c.turn);
    (byTurn[key] = byTurn[key] || []).push(c);
  });
  return byTurn;
}

function callTotals(calls) {
  var t = {n: calls.length, tokens: 0, latency: 0, failed: 0, cached: 0};
  calls.forEach(function (c) {
    t.tokens += (c.prompt_tokens || 0) + (c.completion_tokens || 0);
    t.latency += c.latency_s || 0;
    if (c.ok === false) t.failed += 1;
    if (c.cached) t.cached += 1;
  });
  return t;
}

MV.describeCalls = function (calls) {
  var t = callTotals(calls);
  var text = t.n + " LLM call" + (t.n === 1 ? "" : "s") + ", " + t.tokens + " tokens, " +
    t.latency.toFixed(2) + " s";
  if (t.cached) text += ", " + t.cached + " cached";
  if (t.failed) text += ", " + t.failed + " failed";
  return text;
};

MV.callsTable = function (calls) {
  var head = ["role", "turn", "model", "prompt tok", "completion tok", "latency s", "cached", "ok"];
  return el("table", {class: "grid calls"},
    el("thead", null, el("tr", null, head.map(function (h) { return el("th", null, h); }))),
    el("tbody", null, calls.map(function (c) {
      return el("tr", {class: c.ok === false ? "failed" : null},
        el("td", null, MV.fmt(c.role)), el("td", null, MV.fmt(c.turn)),
        el("td", null, MV.fmt(c.model)), el("td", {class: "num"}, MV.fmt(c.prompt_tokens)),
        el("td", {class: "num"}, MV.fmt(c.completion_tokens)),
        el("td", {class: "num"}, MV.fmt(c.latency_s, 3)),
        el("td", null, c.cached ? "cached" : ""),
        el("td", null, c.ok === false ? "failed: " + MV.fmt(c.error) : "ok"));
    })));
};

MV.describeTools = function (tools) {
  var failed = tools.filter(function (c) { return c.ok === false; }).length;
  return tools.length + " tool call" + (tools.length === 1 ? "" : "s") +
    (failed ? " (" + failed + " failed)" : "");
};

function shortJson(value) {
  var text = JSON.stringify(value === undefined ? null : value);
  return text.length > 160 ? text.slice(0, 159) + "…" : text;
}

MV.toolCallsTable = function (tools) {
  var head = ["tool", "input", "output chars", "latency s", "ok"];
  return el("table", {class: "grid tool-calls"},
    el("thead", null, el("tr", null, head.map(function (h) { return el("th", null, h); }))),
    el("tbody", null, tools.map(function (c) {
      return el("tr", {class: c.ok === false ? "failed" : null},
        el("td", null, MV.fmt(c.tool)), el("td", null, el("code", null, shortJson(c.input))),
        el("td", {class: "num"}, MV.fmt(c.output_chars)),
        el("td", {class: "num"}, MV.fmt(c.latency_s, 3)),
        el("td", null, c.ok === false ? "failed: " + MV.fmt(c.error) : "ok"));
    })));
};

function callSections(calls, tools) {
  return [
    calls.length ? el("section", {class: "explain-part", "data-key": "llm_calls"},
      el("h5", null, "LLM calls"), MV.callsTable(calls)) : null,
    tools.length ? el("section", {class: "explain-part", "data-key": "tool_calls"},
      el("h5", null, "Tool calls"), MV.toolCallsTable(tools)) : null];
}

/* LLM calls, then tool calls when there are any (alone when there are no LLM calls). */
MV.describeAllCalls = function (calls, tools) {
  if (!tools.length) return MV.describeCalls(calls);
  return (calls.length ? MV.describeCalls(calls) + "; " : "") + MV.describeTools(tools);
};
var describeBoth = MV.describeAllCalls;

/* One item as said, then its grounding: catalog title, id, match method and score. */
MV.itemLine = function (ref, d, rank) {
  var id = ref.item_id;
  var catalogTitle = id && d.catalog_titles ? d.catalog_titles[id] : null;
  var isTarget = id && id === d.target_id;
  return el("li", {class: "item" + (isTarget ? " target" : "")},
    rank ? el("span", {class: "rank"}, rank + ". ") : null,
    el("span", {class: "said"}, MV.fmt(ref.title)),
    el("span", {class: "grounding"}, " → ",
      id ? [catalogTitle ? catalogTitle + " " : "", el("code", null, id)]
        : el("span", {class: "none"}, "not in the catalog"),
      " ", MV.badge(ref.method || "none", "method"),
      typeof ref.score === "number" ? " " + ref.score.toFixed(2) : ""),
    isTarget ? el("span", {class: "target-mark"}, " ★ target") : null);
};

/* Behaviour checks a turn failed (export's "checks"), as badges titled with their meaning. */
var CHECK_TITLES = {
  echo: "echo: repeats the other side's previous turn",
  refusal: "refusal: the model declined to answer",
  repeat: "repeat: says again what this side said before",
  empty: "empty reply",
  truncated: "truncated: cut off mid-sentence",
  instruction_echo: "instruction echo: copies the simulator's prompt",
  profile_dump: "profile dump: states most of the target profile at once",
  off_profile: "off-profile: a genre or era the target does not have"
};

/* A run of another domain than films names its own words for a check (export's
   run "check_titles": off-profile in its attributes). */
function checkTitle(d, name) {
  var run = (MV.index && MV.index.runs && MV.index.runs[d.run]) || {};
  var own = run.check_titles || {};
  return own[name] || CHECK_TITLES[name] || String(name);
}

function checkBadges(d, turn, side) {
  var found = (d.checks || []).filter(function (c) { return c.turn === turn && c.side === side; });
  if (!found.length) return null;
  return (found[0].checks || []).map(function (name) {
    return el("span", {class: "badge check", title: checkTitle(d, name)},
      "⚠ " + String(name).replace(/_/g, " "));
  });
}

function userBubble(turn, label, showMark, checks) {
  var mark = null;
  if (turn.accepted) mark = el("span", {class: "mark accepted"}, "✓ accepted");
  else if (showMark) mark = el("span", {class: "mark rejected"}, "✗ rejected");
  var notes = [];
  if (turn.leak_retries) notes.push(turn.leak_retries + " leaking generation(s) thrown away");
  if (turn.redacted) notes.push("target name redacted");
  return el("div", {class: "msg user"},
    el("div", {class: "who"}, label, " ", mark, " ", checks || null),
    el("p", {class: "text"}, MV.fmt(turn.text)),
    notes.length ? el("p", {class: "note"}, notes.join("; ")) : null);
}

function systemBubble(sys, d, turnNo) {
  var explain = MV.isPlainObject(sys.explain) ? sys.explain : {};
  var reported = typeof explain.reported_act === "string" ? explain.reported_act : null;
  var items = sys.items || [];
  return el("div", {class: "msg system"},
    el("div", {class: "who"}, "System ", MV.badge(sys.act, "act"), " ", checkBadges(d, turnNo, "system"),
      reported && reported !== sys.act ? el("span", {class: "note"}, " (system said: " + reported + ")") : null),
    el("p", {class: "text"}, MV.fmt(sys.text)),
    items.length ? el("ul", {class: "items"}, items.map(function (r) { return MV.itemLine(r, d); })) : null);
}

function internals(sys, calls, tools, open) {
  var explain = sys.explain || {};
  var parts = MV.renderExplain(explain, {act: sys.act});
  var body = el("div", {class: "internals-body"},
    parts.length ? parts : el("p", {class: "none"}, "No internals recorded for this turn."),
    callSections(calls, tools));
  return el("details", {class: "internals", open: open || null},
    el("summary", null, "Internals — " + describeBoth(calls, tools)), body);
}

function exchange(ex, d, byTurn, toolsByTurn) {
  var sys = ex.system || {};
  var user = ex.user || {};
  var recommended = sys.act === "recommend" || (sys.items || []).length > 0;
  var calls = byTurn[String(ex.turn)] || [];
  var tools = toolsByTurn[String(ex.turn)] || [];
  delete byTurn[String(ex.turn)];
  delete toolsByTurn[String(ex.turn)];
  var success = d.success_turn === ex.turn && d.status === "success";
  return el("div", {class: "turn" + (success ? " success" : ""), "data-turn": ex.turn},
    el("div", {class: "turn-head"}, "Turn " + ex.turn, success ? " — target accepted" : ""),
    systemBubble(sys, d, ex.turn),
    userBubble(user, "User", recommended, checkBadges(d, ex.turn, "user")),
    internals(sys, calls, tools, false));
}

function finalList(d) {
  var list = d.final_list || [];
  if (!list.length && d.status !== "failure") return null;  // a success or error needs none
  return el("div", {class: "final-list"},
    el("h4", null, "Fallback list (" + list.length + " item" + (list.length === 1 ? "" : "s") + ")",
      d.final_rank ? el("span", {class: "mark accepted"}, " target at rank " + d.final_rank) : null),
    list.length ? el("ol", {class: "items"}, list.map(function (r) { return MV.itemLine(r, d); }))
      : el("p", {class: "none"}, "No fallback list was given."));
}

function leftover(byTurn) {
  var calls = [];
  Object.keys(byTurn).sort().forEach(function (k) { calls = calls.concat(byTurn[k]); });
  return calls;
}

function leftoverCalls(byTurn, toolsByTurn) {
  var calls = leftover(byTurn), tools = leftover(toolsByTurn);
  if (!calls.length && !tools.length) return null;
  return el("details", {class: "internals after"},
    el("summary", null, "After the last turn (fallback list, reflections) — " + describeBoth(calls, tools)),
    el("div", {class: "internals-body"}, callSections(calls, tools)));
}

/* The whole transcript of dialogue d. */
MV.renderTranscript = function (d) {
  var byTurn = callsByTurn(d.calls), toolsByTurn = callsByTurn(d.tool_calls);
  return el("div", {class: "transcript"},
    d.opening ? userBubble(d.opening, "User (opening)", false, checkBadges(d, 0, "user")) : null,
    (d.exchanges || []).map(function (ex) { return exchange(ex, d, byTurn, toolsByTurn); }),
    d.error ? el("div", {class: "error-box"}, el("b", null, "Error: "), el("pre", null, String(d.error))) : null,
    finalList(d),
    leftoverCalls(byTurn, toolsByTurn));
};
})();
