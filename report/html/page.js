// The page's player and heat map. The data (ids of the diagram's
// elements, the replayed witnesses and tests, the coverage levels) is the
// JSON in #data, written by setbot (package report/html).
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("data").textContent);
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function mark(ids, cls, on) {
    ids.forEach(function (id) {
      var e = document.getElementById(id);
      if (e) e.classList.toggle(cls, on);
    });
  }
  document.querySelectorAll("section.model").forEach(function (sec) {
    var m = data.models[+sec.dataset.model];
    var player = sec.querySelector(".player");
    if (!player) return; // no diagram: nothing to play on
    var cur = null, at = 0, lit = { active: [], fired: [], expected: [] };
    var toggle = sec.querySelector(".heat-toggle");
    if (toggle) {
      Object.keys(m.heat).forEach(function (id) {
        var e = document.getElementById(id);
        if (e) e.classList.add("heat-" + m.heat[id]);
      });
      toggle.addEventListener("change", function () {
        sec.querySelector(".diagram").classList.toggle("heat", toggle.checked);
      });
    }
    function states(list) {
      return (list || []).map(function (s) { return m.stateEl[s]; }).filter(Boolean);
    }
    function show(i) {
      var p = m.plays[cur], f = p.frames[i];
      at = i;
      mark(lit.active, "active", false); mark(lit.fired, "fired", false); mark(lit.expected, "expected", false);
      lit.active = states(f.active);
      lit.expected = states(f.expected);
      lit.fired = [];
      (f.fired || []).forEach(function (micro) {
        micro.forEach(function (t) { lit.fired = lit.fired.concat(m.transEl[t] || []); });
      });
      mark(lit.active, "active", true); mark(lit.fired, "fired", true); mark(lit.expected, "expected", true);
      player.querySelectorAll(".frames li").forEach(function (li, k) { li.classList.toggle("current", k === i); });
      player.querySelector(".where").textContent = "step " + i + " of " + (p.frames.length - 1);
      var box = player.querySelector(".frame");
      box.textContent = "";
      var t = el("table"), rows = [
        ["event", f.event || "(start)"],
        ["configuration", (f.active || []).join(", ")],
        ["fired (per microstep)", (f.fired || []).map(function (x) { return x.join(" + "); }).join(" ; ") || "none"],
        ["outputs", (f.outputs || []).join(", ") || "none"]
      ];
      if (f.expected) rows.push(["the test expected", f.expected.join(", ")]);
      if (f.discarded) rows.push(["discarded", f.discarded]);
      Object.keys(f.vars || {}).sort().forEach(function (v) { rows.push(["variable " + v, f.vars[v]]); });
      rows.forEach(function (r) {
        var tr = el("tr");
        tr.appendChild(el("th", r[0]));
        tr.appendChild(el("td", r[1], r[0] === "the test expected" ? "mismatch" : ""));
        t.appendChild(tr);
      });
      box.appendChild(t);
      player.querySelector(".prev").disabled = i === 0;
      player.querySelector(".next").disabled = i === p.frames.length - 1;
    }
    function open(k) {
      cur = k;
      var p = m.plays[k], ol = player.querySelector(".frames");
      player.hidden = false;
      sec.querySelector(".stage").scrollIntoView({ block: "nearest" });
      player.querySelector(".play-name").textContent = p.name + (p.note ? " — " + p.note : "");
      ol.textContent = "";
      p.frames.forEach(function (f, i) {
        var li = el("li", i === 0 ? "start" : i + ". " + f.event);
        li.addEventListener("click", function () { show(i); });
        ol.appendChild(li);
      });
      show(0);
    }
    sec.querySelectorAll("button.play").forEach(function (b) {
      b.addEventListener("click", function () { open(+b.dataset.play); });
    });
    player.querySelector(".prev").addEventListener("click", function () { if (at > 0) show(at - 1); });
    player.querySelector(".next").addEventListener("click", function () {
      if (cur !== null && at < m.plays[cur].frames.length - 1) show(at + 1);
    });
  });
})();
