// Where compile time went: per phase, the passes by total wall time (live
// capture records it; imports have none, and then this shows nothing), each
// beside what it changed: runs, runs that changed the IR, lines added and
// removed. Nested passes are listed too; their time is part of their parent's.
'use strict';
(function (V) {
  if (!V) return;
  var S = V.S;
  var btn = V.button('⏱ Time', function () { toggle(); }, 'Where compile time went: passes by wall time');
  btn.id = 'ft-time'; btn.hidden = true;
  document.getElementById('ftools').appendChild(btn);
  var panel = document.getElementById('fpanel');
  // Imports carry no times (or zeros, from importers that predate absent times).
  function timed() { return S.order.some(function (r) { return typeof r.ms === 'number' && r.ms > 0; }); }
  V.plug({ refresh: function () { btn.hidden = !timed(); } });
  function fmt(ms) { return ms < 10 ? ms.toFixed(2) : ms < 1000 ? ms.toFixed(1) : Math.round(ms).toString(); }
  function toggle() {
    if (!panel.hidden && panel.dataset.kind === 'time') { panel.hidden = true; return; }
    panel.hidden = false; panel.textContent = ''; panel.dataset.kind = 'time';
    var head = document.createElement('div'); head.className = 'fp-head';
    var close = V.button('×', function () { panel.hidden = true; }, 'Close'); close.className = 'fp-close';
    head.appendChild(close); panel.appendChild(head);
    V.note(head, 'Wall time per pass, by phase (top-level passes add up to the phase total)', 'fp-msg');
    S.phases.forEach(function (p) {
      var by = new Map(), total = 0;
      S.order.forEach(function (r) {
        if (r.p !== p || typeof r.ms !== 'number' || r.ms < 0) return;
        if (r.dp === 0) total += r.ms;
        var g = by.get(r.n);
        if (!g) by.set(r.n, g = { n: r.n, ms: 0, runs: 0, changed: 0, a: 0, d: 0, top: true, slow: r });
        g.ms += r.ms; g.runs++; g.top = g.top && r.dp === 0;
        if (r.c) { g.changed++; g.a += r.a || 0; g.d += r.d || 0; }
        if (r.ms > g.slow.ms) g.slow = r;
      });
      if (!by.size) return;
      var rows = Array.from(by.values()).sort(function (a, b) { return b.ms - a.ms; });
      var t = document.createElement('table'); t.className = 'fp-time'; t.dataset.phase = p;
      var cap = document.createElement('caption'); cap.textContent = V.prettyPhase(p) + ': ' + fmt(total) + ' ms';
      t.appendChild(cap);
      var hr = t.insertRow();
      ['Pass', 'ms', '%', 'runs', 'changed', '+', '−'].forEach(function (h) { var th = document.createElement('th'); th.textContent = h; hr.appendChild(th); });
      rows.forEach(function (g) {
        var tr = t.insertRow(); tr.dataset.index = g.slow.i; tr.dataset.name = g.n; tr.tabIndex = 0;
        tr.title = 'Open its slowest run (#' + g.slow.i + ')';
        var pct = total > 0 && g.top ? (100 * g.ms / total).toFixed(1) : '';
        [g.n, fmt(g.ms), pct, g.runs, g.changed, '+' + g.a, '−' + g.d].forEach(function (v, i) {
          var td = tr.insertCell(); td.textContent = String(v);
          if (i === 0) td.style.paddingLeft = g.top ? '' : '1.5em';
        });
        var bar = document.createElement('span'); bar.className = 'fp-bar';
        bar.style.width = (total > 0 ? Math.min(100, 100 * g.ms / total) : 0) + '%';
        tr.cells[0].appendChild(bar);
      });
      panel.appendChild(t);
    });
  }
  panel.addEventListener('click', function (e) {
    var tr = e.target.closest('table.fp-time tr[data-index]'); if (tr) V.select(+tr.dataset.index);
  });
  panel.addEventListener('keydown', function (e) {
    var tr = e.target.closest && e.target.closest('table.fp-time tr[data-index]');
    if (tr && e.key === 'Enter') V.select(+tr.dataset.index);
  });
})(window.LTViewer);
