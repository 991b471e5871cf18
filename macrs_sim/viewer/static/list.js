/* The dialogue list: filters (system, outcome, popularity, turns, errors, search), column
 * sort and pages of PAGE_SIZE rows; state lives in the URL (#/list?system=...&page=2). */
(function () {
"use strict";

var el = MV.el;
var PAGE_SIZE = 100;
var FILTERS = ["system", "status", "bucket", "turns", "errors", "q"];
var COLUMNS = [
  ["dialogue_id", "Dialogue"], ["system", "System"], ["sample_id", "Sample"],
  ["status", "Outcome"], ["bucket", "Popularity"], ["turns", "Turns"], ["acts", "Acts"],
  ["final_rank", "List rank"], ["leaks", "Leaks"], ["error", "Errors"]
];
MV.PAGE_SIZE = PAGE_SIZE;

MV.listState = function (params) {
  var state = {sort: params.get("sort") || "", dir: params.get("dir") === "desc" ? "desc" : "asc",
    page: Math.max(1, parseInt(params.get("page") || "1", 10) || 1)};
  FILTERS.forEach(function (f) { state[f] = params.get(f) || ""; });
  return state;
};

function stateHash(state) {
  var params = new URLSearchParams();
  FILTERS.concat(["sort", "dir"]).forEach(function (k) { if (state[k]) params.set(k, state[k]); });
  if (state.page > 1) params.set("page", String(state.page));
  var text = params.toString();
  return "#/list" + (text ? "?" + text : "");
}

function hasErrors(r) {
  return r.status === "error" || !!r.error || r.failed_calls > 0;
}

MV.filterRows = function (state) {
  var q = state.q.toLowerCase();
  var rows = MV.rows.filter(function (r) {
    if (state.system && r.system !== state.system) return false;
    if (state.status && r.status !== state.status) return false;
    if (state.bucket && (r.bucket || "") !== state.bucket) return false;
    if (state.turns && String(r.turns) !== state.turns) return false;
    if (state.errors && !hasErrors(r)) return false;
    if (q && (r.dialogue_id + " " + r.sample_id + " " + (r.error || "")).toLowerCase().indexOf(q) < 0) return false;
    return true;
  });
  if (state.sort) {
    var key = state.sort;
    var sign = state.dir === "desc" ? -1 : 1;
    rows.sort(function (a, b) {
      var x = key === "acts" ? a.acts.join(" ") : a[key];
      var y = key === "acts" ? b.acts.join(" ") : b[key];
      if (x === y) return a.position - b.position;
      if (x === null || x === undefined) return 1;  // blanks last either way
      if (y === null || y === undefined) return -1;
      return (x < y ? -1 : 1) * sign;
    });
  }
  return rows;
};

function fillSelect(select, values, current, label) {
  MV.clear(select);
  select.appendChild(el("option", {value: ""}, "all " + label));
  values.forEach(function (v) {
    select.appendChild(el("option", {value: v, selected: v === current}, v));
  });
  select.value = current;
}

function actsCell(acts) {
  return el("td", {class: "acts"}, acts.map(function (a) {
    return el("span", {class: "act-dot act-" + MV.slug(a), title: a}, a.slice(0, 3));
  }));
}

function errorsCell(r) {
  var parts = [];
  if (r.error) parts.push(el("span", {class: "err-text", title: r.error}, r.error));
  if (r.failed_calls) parts.push(el("span", {class: "note"}, " " + r.failed_calls + " failed call(s)"));
  return el("td", {class: "errors"}, parts);
}

function rowElement(r) {
  return el("tr", {"data-key": r.key},
    el("td", null, el("a", {href: MV.dialogueHref(r), class: "open-dialogue"}, r.dialogue_id)),
    el("td", null, r.system),
    el("td", null, el("a", {href: MV.sampleHref(r.sample_id), title: "all systems on this sample"}, r.sample_id)),
    el("td", null, MV.badge(r.status, "status")),
    el("td", null, MV.fmt(r.bucket)),
    el("td", {class: "num"}, MV.fmt(r.turns)),
    actsCell(r.acts),
    el("td", {class: "num"}, MV.fmt(r.final_rank)),
    el("td", {class: "num"}, r.leaks ? r.leaks : ""),
    errorsCell(r));
}

function header(state) {
  return el("tr", null, COLUMNS.map(function (c) {
    var active = state.sort === c[0];
    var next = Object.assign({}, state, {sort: c[0], dir: active && state.dir === "asc" ? "desc" : "asc", page: 1});
    var arrow = active ? (state.dir === "asc" ? " ▲" : " ▼") : "";
    return el("th", {"data-sort": c[0]}, el("a", {href: stateHash(next)}, c[1] + arrow));
  }));
}

function turnsValues() {
  var seen = {};
  MV.rows.forEach(function (r) { seen[r.turns] = true; });
  return Object.keys(seen).map(Number).sort(function (a, b) { return a - b; }).map(String);
}

function bindFilters(state) {
  var form = document.getElementById("filters");
  fillSelect(form.elements.system, MV.index.systems, state.system, "systems");
  fillSelect(form.elements.status, MV.index.statuses, state.status, "outcomes");
  fillSelect(form.elements.bucket, MV.index.buckets, state.bucket, "popularity buckets");
  fillSelect(form.elements.turns, turnsValues(), state.turns, "turn counts");
  form.elements.errors.checked = !!state.errors;
  form.elements.q.value = state.q;
  form.onchange = form.onsubmit = function (event) {
    if (event) event.preventDefault();
    var next = {sort: state.sort, dir: state.dir, page: 1};
    FILTERS.forEach(function (f) { next[f] = form.elements[f].value; });
    next.errors = form.elements.errors.checked ? "1" : "";
    location.hash = stateHash(next);
  };
}

MV.showList = function (params) {
  var state = MV.listState(params);
  var rows = MV.filterRows(state);
  var pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  state.page = Math.min(state.page, pages);
  var shown = rows.slice((state.page - 1) * PAGE_SIZE, state.page * PAGE_SIZE);
  bindFilters(state);
  var table = document.getElementById("dialogue-table");
  MV.clear(table.tHead).appendChild(header(state));
  MV.append(MV.clear(table.tBodies[0]), shown.map(rowElement));
  document.getElementById("list-count").textContent =
    rows.length + " of " + MV.rows.length + " dialogues";
  document.getElementById("page-info").textContent = "page " + state.page + " of " + pages;
  var prev = document.getElementById("page-prev");
  var next = document.getElementById("page-next");
  prev.setAttribute("href", stateHash(Object.assign({}, state, {page: state.page - 1})));
  next.setAttribute("href", stateHash(Object.assign({}, state, {page: state.page + 1})));
  prev.hidden = state.page <= 1;
  next.hidden = state.page >= pages;
};
})();
