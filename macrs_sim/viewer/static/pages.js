/* The dialogue page (#/d/RUN/ID) and the side-by-side page of one sample across systems
 * (#/s/SAMPLE, the paper's Figure 7 case study for any sample). */
(function () {
"use strict";

var el = MV.el;

function fact(label, value) {
  return el("span", {class: "fact"}, el("span", {class: "label"}, label + ": "), value);
}

function targetText(d) {
  return [d.target_title ? d.target_title + " " : "", el("code", null, MV.fmt(d.target_id))];
}

function dialogueHeader(d, row) {
  var run = MV.index.runs[d.run] || {};
  return el("div", {class: "dialogue-head"},
    el("h2", null, d.system, " · ", d.sample_id, " ", MV.badge(d.status, "status")),
    el("div", {class: "facts"},
      fact("dialogue", el("code", null, d.dialogue_id)),
      MV.index.runs.length > 1 ? fact("run", MV.fmt(run.name)) : null,
      fact("target", targetText(d)),
      fact("popularity", MV.fmt(d.bucket)),
      fact("exchanges", (d.exchanges || []).length + " of max " + MV.fmt(d.max_turns)),
      fact("turns counted", MV.fmt(d.turns_taken)),
      d.success_turn ? fact("success at turn", String(d.success_turn)) : null,
      d.leaks ? fact("leaks", String(d.leaks)) : null,
      fact("calls", MV.describeAllCalls(d.calls || [], d.tool_calls || []))),
    el("p", {class: "links"},
      el("a", {href: MV.lastList || "#/list", class: "back"}, "← all dialogues"), " · ",
      el("a", {href: MV.sampleHref(row.sample_id), class: "compare-link"},
        "this sample with every system, side by side")));
}

function failure(target, err) {
  MV.clear(target).appendChild(el("p", {class: "error-box"}, String(err && err.message || err)));
}

MV.showDialogue = function (runIndex, dialogueId) {
  var target = MV.clear(document.getElementById("view-dialogue"));
  var row = MV.rowByKey[runIndex + "/" + dialogueId];
  if (!row) return failure(target, "No dialogue " + dialogueId + " in run " + runIndex + ".");
  target.appendChild(el("p", {class: "loading"}, "Loading " + dialogueId + " …"));
  MV.loadDialogue(row).then(function (d) {
    MV.clear(target).appendChild(el("article", {class: "dialogue", "data-dialogue": d.dialogue_id},
      dialogueHeader(d, row), MV.renderTranscript(d)));
  }).catch(function (err) { failure(target, err); });
};

function sampleHeader(sample, sampleId) {
  if (!sample) return el("h2", null, "Sample ", sampleId);
  var history = (sample.history || []).map(function (id, i) {
    var title = (sample.history_titles || [])[i];
    return el("li", null, title ? title + " " : "", el("code", null, id));
  });
  return el("div", {class: "sample-head"},
    el("h2", null, "Sample ", sampleId, " — every system on the same user"),
    el("div", {class: "facts"},
      fact("target", [sample.target_title ? sample.target_title + " " : "", el("code", null, MV.fmt(sample.target_id))]),
      fact("popularity", MV.fmt(sample.bucket)),
      fact("user", MV.fmt(sample.user_id))),
    sample.target_profile && sample.target_profile.length ?
      el("p", {class: "note"}, "Target profile: " + sample.target_profile.join("; ")) : null,
    el("details", {class: "history"}, el("summary", null, "Browsing history (" + history.length + ")"),
      el("ol", null, history)),
    el("p", {class: "links"}, el("a", {href: MV.lastList || "#/list", class: "back"}, "← all dialogues")));
}

function column(d) {
  var row = MV.rowByKey[d.run + "/" + d.dialogue_id];
  return el("div", {class: "column", "data-system": d.system},
    el("h3", null, el("a", {href: MV.dialogueHref(row)}, d.system), " ", MV.badge(d.status, "status")),
    el("p", {class: "note"}, "turns " + MV.fmt(d.turns_taken) +
      (d.final_rank ? ", target at list rank " + d.final_rank : "")),
    MV.renderTranscript(d));
}

MV.showSample = function (sampleId) {
  var target = MV.clear(document.getElementById("view-sample"));
  var order = MV.index.systems;
  // Columns in the scenario's system order, whatever order the dialogues finished in.
  var rows = MV.rows.filter(function (r) { return r.sample_id === sampleId; }).sort(function (a, b) {
    return (order.indexOf(a.system) - order.indexOf(b.system)) || (a.run - b.run) || (a.position - b.position);
  });
  if (!rows.length) return failure(target, "No dialogues with sample " + sampleId + ".");
  var chunks = rows.map(function (r) { return r.chunk; }).filter(function (c, i, all) { return all.indexOf(c) === i; });
  target.appendChild(el("p", {class: "loading"}, "Loading sample " + sampleId + " …"));
  Promise.all(chunks.map(MV.loadChunk)).then(function () {
    return Promise.all(rows.map(MV.loadDialogue));
  }).then(function (dialogues) {
    var chunk = MV.chunks[rows[0].chunk];
    var sample = chunk.samples[rows[0].run + "|" + sampleId];
    MV.clear(target).appendChild(el("article", {class: "side-by-side"},
      sampleHeader(sample, sampleId),
      el("div", {class: "columns"}, dialogues.map(column))));
  }).catch(function (err) { failure(target, err); });
};
})();
