// The witness page's script: draws the happens-before cycle over the
// lanes (an SVG path per step, from event to event) and runs the
// step-through (buttons, slider, arrow keys): events after the current
// step fade, the current one is outlined and its source line marked.
(function () {
  "use strict";
  var cycle = JSON.parse(document.getElementById("cycle").textContent || "[]");
  var lanes = document.getElementById("lanes");
  var svg = document.getElementById("edges");
  var events = Array.prototype.slice.call(document.querySelectorAll("#lanes .event"));
  var byIndex = {};
  events.forEach(function (e) { byIndex[e.dataset.index] = e; });
  var NS = "http://www.w3.org/2000/svg";
  var step = events.length - 1;

  function center(e) {
    var r = e.getBoundingClientRect(), o = lanes.getBoundingClientRect();
    return { x: r.left - o.left + r.width / 2, y: r.top - o.top + r.height / 2, w: r.width, h: r.height };
  }

  // draw lays the cycle out again (on load and when the layout changes).
  function draw() {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute("width", lanes.scrollWidth);
    svg.setAttribute("height", lanes.scrollHeight);
    var defs = document.createElementNS(NS, "defs");
    defs.innerHTML = '<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#b00020"/></marker>';
    svg.appendChild(defs);
    cycle.forEach(function (c, i) {
      var a = byIndex[c.from], b = byIndex[c.to];
      if (!a || !b || a.classList.contains("dim") || b.classList.contains("dim")) return;
      var p = center(a), q = center(b), d;
      if (Math.abs(p.x - q.x) < 1) {
        // same lane: bulge to the right of the boxes
        var x = p.x + p.w / 2, bend = x + 30 + 8 * (i % 3);
        d = "M" + x + "," + p.y + " C" + bend + "," + p.y + " " + bend + "," + q.y + " " + x + "," + q.y;
      } else {
        var sx = p.x + (q.x > p.x ? p.w / 2 : -p.w / 2), tx = q.x + (q.x > p.x ? -q.w / 2 : q.w / 2);
        var mx = (sx + tx) / 2;
        d = "M" + sx + "," + p.y + " C" + mx + "," + p.y + " " + mx + "," + q.y + " " + tx + "," + q.y;
      }
      var path = document.createElementNS(NS, "path");
      path.setAttribute("d", d);
      path.setAttribute("class", "edge rel-" + (c.rel === "↔" ? "id" : c.rel));
      path.setAttribute("data-from", c.from);
      path.setAttribute("data-to", c.to);
      path.setAttribute("data-rel", c.rel);
      if (c.rel !== "↔") path.setAttribute("marker-end", "url(#arrow)");
      var title = document.createElementNS(NS, "title");
      title.textContent = "#" + c.from + " -" + c.rel + "-> #" + c.to + ": " + c.why;
      path.appendChild(title);
      svg.appendChild(path);
      var label = document.createElementNS(NS, "text");
      var box = path.getBBox();
      label.setAttribute("x", box.x + box.width / 2 + 4);
      label.setAttribute("y", box.y + box.height / 2 + 4);
      label.setAttribute("class", "edge-label");
      label.setAttribute("data-from", c.from);
      label.setAttribute("data-to", c.to);
      label.textContent = (i + 1) + " " + c.rel;
      svg.appendChild(label);
    });
    show(step, false);
  }

  // show makes step k current: later events and the steps of the cycle
  // that reach them fade.
  function show(k, scroll) {
    step = Math.max(0, Math.min(events.length - 1, k));
    events.forEach(function (e) {
      var i = +e.dataset.index;
      e.classList.toggle("future", i > step);
      e.classList.toggle("current", i === step && step < events.length - 1);
    });
    Array.prototype.forEach.call(svg.querySelectorAll("[data-from]"), function (p) {
      p.classList.toggle("future", +p.dataset.from > step || +p.dataset.to > step);
    });
    var cur = byIndex[step];
    Array.prototype.forEach.call(document.querySelectorAll(".line.current"), function (l) { l.classList.remove("current"); });
    if (cur && cur.dataset.line !== "0") {
      var line = document.getElementById("L" + cur.dataset.line);
      if (line) {
        line.classList.add("current");
        if (scroll) line.scrollIntoView({ block: "center" });
      }
    }
    if (cur && scroll) cur.scrollIntoView({ block: "center" });
    var slider = document.getElementById("step");
    slider.max = events.length - 1;
    slider.value = step;
    document.getElementById("stepinfo").textContent = "event " + step + " of " + (events.length - 1) + (cur ? ": " + cur.title : "");
  }

  function on(id, f) { document.getElementById(id).addEventListener("click", f); }
  on("first", function () { show(0, true); });
  on("prev", function () { show(step - 1, true); });
  on("next", function () { show(step + 1, true); });
  on("last", function () { show(events.length - 1, true); });
  var timer = null;
  on("play", function () {
    if (timer) { clearInterval(timer); timer = null; return; }
    if (step >= events.length - 1) show(0, true);
    timer = setInterval(function () {
      if (step >= events.length - 1) { clearInterval(timer); timer = null; return; }
      show(step + 1, true);
    }, 500);
  });
  document.getElementById("step").addEventListener("input", function (ev) { show(+ev.target.value, true); });
  var only = document.getElementById("cycleonly");
  var gutters = Array.prototype.slice.call(document.querySelectorAll("#lanes .gutter:not(.head)"));
  if (only) only.addEventListener("change", function (ev) {
    // Hide the events off the cycle and close up the rows they leave.
    var row = 2;
    events.forEach(function (e, i) {
      var hide = ev.target.checked && !e.classList.contains("on-cycle");
      e.classList.toggle("dim", hide);
      gutters[i].classList.toggle("dim", hide);
      if (!hide) {
        e.style.gridRow = gutters[i].style.gridRow = String(row++);
      }
    });
    draw();
  });
  events.forEach(function (e) {
    e.addEventListener("click", function () { show(+e.dataset.index, false); });
  });
  document.addEventListener("keydown", function (ev) {
    var k = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: events.length - 1 }[ev.key];
    if (k !== undefined) { ev.preventDefault(); show(k, true); }
  });
  window.addEventListener("resize", draw);
  // "#step=K" in the address opens the page at step K (a link to a
  // moment of the computation).
  var at = /step=(\d+)/.exec(location.hash);
  if (at) step = Math.min(+at[1], events.length - 1);
  draw();
  document.body.setAttribute("data-drawn", String(svg.querySelectorAll("path.edge").length));
})();
