/* The router: #/list?..., #/d/RUN/ID, #/s/SAMPLE, #/results; one view shown at a time. */
(function () {
"use strict";

var VIEWS = ["list", "dialogue", "sample", "results"];

function show(name) {
  VIEWS.forEach(function (v) {
    document.getElementById("view-" + v).hidden = v !== name;
    var link = document.getElementById("nav-" + v);
    if (link) link.classList.toggle("active", v === name);
  });
}

function route() {
  var hash = location.hash.replace(/^#\/?/, "");
  var query = hash.indexOf("?") >= 0 ? hash.slice(hash.indexOf("?") + 1) : "";
  var parts = (query ? hash.slice(0, hash.indexOf("?")) : hash).split("/");
  if (parts[0] === "d" && parts.length >= 3) {
    show("dialogue");
    MV.showDialogue(parts[1], decodeURIComponent(parts.slice(2).join("/")));
  } else if (parts[0] === "s" && parts.length >= 2) {
    show("sample");
    MV.showSample(decodeURIComponent(parts.slice(1).join("/")));
  } else if (parts[0] === "results") {
    show("results");
  } else {
    show("list");
    MV.lastList = location.hash || "#/list";  // "all dialogues" links return to this page
    MV.showList(new URLSearchParams(query));
  }
  window.scrollTo(0, 0);
}

function start() {
  if (!MV.index) {
    var box = document.getElementById("load-error");
    box.textContent = "data/index.js did not load: the site folder is incomplete; build it again " +
      "with macrs-sim view.";
    box.hidden = false;
    return;
  }
  window.addEventListener("hashchange", route);
  route();
  MV.readyAt = performance.now();  // read by benchmarks/bench_viewer.py
  document.body.setAttribute("data-ready", "1");
}

start();
})();
