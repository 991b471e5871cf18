/* macrs-sim viewer: namespace, safe DOM building, data loading.
 *
 * Every piece of run data reaches the page as a text node (el() never parses HTML),
 * so model output such as "<script>" is shown as text, never run.
 * Data files are scripts calling MV.indexLoaded / MV.chunkLoaded (file:// forbids fetch()).
 */
"use strict";

var MV = window.MV || {};
window.MV = MV;

MV.chunks = {};
MV.pendingChunks = {};

/* el("a", {href: "#/x", class: "c"}, "text", childNode, [more]) -> element */
MV.el = function (tag, attrs) {
  var node = document.createElement(tag);
  var key;
  for (key in attrs || {}) {
    var value = attrs[key];
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.slice(0, 2) === "on") node.addEventListener(key.slice(2), value);
    else if (key === "title") node.setAttribute(key, MV.shown(String(value)));  // a tooltip shows data
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (var i = 2; i < arguments.length; i++) MV.append(node, arguments[i]);
  return node;
};

MV.append = function (node, child) {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    child.forEach(function (c) { MV.append(node, c); });
  } else if (typeof child === "object" && child.nodeType) {
    node.appendChild(child);
  } else {
    node.appendChild(document.createTextNode(MV.shown(String(child))));
  }
};

// Bidi controls from a model or a server would reverse the text after them, and control
// characters (ESC ...) hide: shown as marks instead, as the report does (textsafe's
// page_text: line breaks kept, CR LF as LF; C0 controls as control pictures, ␛; DEL as ␡;
// C1, bidi and line separators as ⟨U+XXXX⟩).
MV.HIDDEN = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u2028\u2029]/g;
MV.shown = function (text) {
  return text.replace(/\r\n?/g, "\n").replace(MV.HIDDEN, function (c) {
    var code = c.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return "\u2421";
    var hex = code.toString(16).toUpperCase();
    return "\u27e8U+" + ("000" + hex).slice(-4) + "\u27e9";
  });
};

MV.clear = function (node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
};

MV.fmt = function (value, digits) {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "number" && digits !== undefined) return value.toFixed(digits);
  return String(value);
};

/* A CSS-safe class suffix for names from the data (acts, statuses). */
MV.slug = function (text) {
  return String(text || "none").toLowerCase().replace(/[^a-z0-9_-]+/g, "-");
};

MV.badge = function (text, kind) {
  return MV.el("span", {class: "badge " + kind + "-" + MV.slug(text)}, MV.fmt(text));
};

MV.indexLoaded = function (index) {
  MV.index = index;
  var cols = index.columns;
  MV.rows = index.rows.map(function (values, position) {
    var row = {position: position};
    cols.forEach(function (c, i) { row[c] = values[i]; });
    row.key = row.run + "/" + row.dialogue_id;
    return row;
  });
  MV.rowByKey = {};
  MV.rows.forEach(function (r) { MV.rowByKey[r.key] = r; });
};

MV.chunkLoaded = function (n, payload) {
  MV.chunks[n] = payload;
  var pending = MV.pendingChunks[n];
  if (pending) pending.resolve(payload);
};

MV.chunkSrc = function (n) {
  var name = String(n);
  while (name.length < 5) name = "0" + name;
  return MV.index.chunk_dir + "/c" + name + ".js";
};

/* Load chunk n with a <script> tag; a Promise of its payload. */
MV.loadChunk = function (n) {
  if (MV.chunks[n]) return Promise.resolve(MV.chunks[n]);
  if (MV.pendingChunks[n]) return MV.pendingChunks[n].promise;
  var pending = {};
  pending.promise = new Promise(function (resolve, reject) {
    pending.resolve = resolve;
    var script = MV.el("script", {src: MV.chunkSrc(n)});
    script.addEventListener("error", function () {
      delete MV.pendingChunks[n];
      reject(new Error("could not load " + MV.chunkSrc(n) + " (is the site complete?)"));
    });
    document.head.appendChild(script);
  });
  MV.pendingChunks[n] = pending;
  return pending.promise;
};

/* The full record of a dialogue from its list row. */
MV.loadDialogue = function (row) {
  return MV.loadChunk(row.chunk).then(function (chunk) {
    var found = chunk.dialogues.filter(function (d) {
      return d.run === row.run && d.dialogue_id === row.dialogue_id;
    })[0];
    if (!found) throw new Error("dialogue " + row.dialogue_id + " is not in its chunk");
    return found;
  });
};

MV.dialogueHref = function (row) {
  return "#/d/" + row.run + "/" + encodeURIComponent(row.dialogue_id);
};

MV.sampleHref = function (sampleId) {
  return "#/s/" + encodeURIComponent(sampleId);
};
