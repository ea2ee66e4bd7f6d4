// Search across every pass: a text or /regex/ over every snapshot (not only
// the rows drawn), answering "which pass introduced gpu.barrier" and "which
// pass removed %17": the passes whose before and after texts hold a
// different number of matching lines, each one click away.
//
// The index decodes every snapshot once, in the background, the first time
// it is needed. It keeps what the report stores: a full text as its lines, a
// line delta as its inserted lines plus the base lines it dropped. So the
// matching-line count of a delta snapshot is count(base) - count(dropped) +
// count(inserted): one query reads each stored line once, and a 1,000-pass
// trace of 10k-line IRs is never expanded into 1,000 full copies.
'use strict';
(function (V) {
  if (!V) return;
  var S = V.S;
  // ---------- index ----------
  var ent = [];        // key -> { lines } | { b, g, drop }
  var done = 0;        // keys indexed so far (keys are dense, bases come first)
  var building = null; // Promise while a build runs
  var mat = new Map(); // small LRU: key -> full lines
  function lines(k) {
    var m = mat.get(k);
    if (m) { mat.delete(k); mat.set(k, m); return m; }
    var e = ent[k];
    if (e.lines) return e.lines;
    var base = lines(e.b), out = [], i = 0;
    e.g.forEach(function (g) {
      for (var n = 0; n < g[0]; n++) out.push(base[i++]);
      i += g[1];
      for (var j = 0; j < g[2].length; j++) out.push(g[2][j]);
    });
    while (i < base.length) out.push(base[i++]);
    mat.set(k, out);
    if (mat.size > 16) mat.delete(mat.keys().next().value);
    return out;
  }
  function add(k, raw) {
    var sn = S.snaps.get(k);
    if (sn.base < 0) { ent[k] = { lines: raw.split('\n') }; return; }
    var g = JSON.parse(raw), base = lines(sn.base), drop = [], i = 0;
    g.forEach(function (x) { i += x[0]; for (var n = 0; n < x[1]; n++) drop.push(base[i++]); });
    ent[k] = { b: sn.base, g: g, drop: drop };
  }
  // Builds (or extends, when a live run brought more snapshots) the index,
  // in slices of ~30 ms so the page stays responsive. Snapshots are decoded
  // synchronously (inflate.js): a DecompressionStream per snapshot cost ~1 ms each.
  function payloadText(k) {
    var sn = S.snaps.get(k);
    if (sn.z !== undefined) return sn.z;
    var e = document.getElementById('z' + k);
    if (!e) throw new Error('snapshot ' + k + ' is missing from this report');
    return e.textContent;
  }
  var parsed = new Promise(function (ok) {
    if (document.readyState !== 'loading') ok(); else document.addEventListener('DOMContentLoaded', ok);
  });
  function build(onProgress) {
    if (building) return building;
    if (done >= S.snaps.size) return Promise.resolve();
    building = parsed.then(function () {
      return new Promise(function (ok, fail) {
        function slice() {
          try {
            var t = Date.now(), n = S.snaps.size;
            while (done < n && Date.now() - t < 30) { add(done, LTInflate.gunzipBase64(payloadText(done))); done++; }
            if (done < n) { if (onProgress) onProgress(done, n); setTimeout(slice, 0); return; }
            building = null; ok();
          } catch (e) { building = null; fail(e); }
        }
        slice();
      });
    });
    return building;
  }
  // Inserted lines of a delta entry, in order.
  function eachInserted(e, f) { e.g.forEach(function (x) { x[2].forEach(f); }); }
  // Every line any snapshot introduced (full texts and inserted lines): the
  // vocabulary of the trace, used for the function list.
  function eachNewLine(f) {
    for (var k = 0; k < done; k++) { var e = ent[k]; if (e.lines) e.lines.forEach(f); else eachInserted(e, f); }
  }
  // The edit from snapshot `from` to `k` as [[dropped lines], [inserted lines]]
  // hunks, when `k` is stored as a delta against `from`; else null.
  function hunks(from, k) {
    var e = ent[k];
    if (!e || e.lines || e.b !== from) return null;
    var out = [], d = 0;
    e.g.forEach(function (x) { out.push([e.drop.slice(d, d + x[1]), x[2]]); d += x[1]; });
    return out;
  }
  V.index = { build: build, lines: lines, eachNewLine: eachNewLine, counts: function (t) { return counts(t); }, hunks: hunks,
    ready: function () { return done >= S.snaps.size; } };

  // ---------- query ----------
  function matcher(q, re) {
    if (re) { var rx = new RegExp(q, re === true ? '' : re.replace(/[gy]/g, '')); return function (l) { return rx.test(l); }; }
    return function (l) { return l.indexOf(q) >= 0; };
  }
  function counts(test) {
    var c = new Int32Array(done);
    for (var k = 0; k < done; k++) {
      var e = ent[k], n = 0, j;
      if (e.lines) { for (j = 0; j < e.lines.length; j++) if (test(e.lines[j])) n++; }
      else {
        n = c[e.b];
        for (j = 0; j < e.drop.length; j++) if (test(e.drop[j])) n--;
        for (var g = 0; g < e.g.length; g++) for (j = 0; j < e.g[g][2].length; j++) if (test(e.g[g][2][j])) n++;
      }
      c[k] = n;
    }
    return c;
  }
  // The passes where the number of matching lines changes, in pass order.
  function search(q, re) {
    var test = matcher(q, re), c = counts(test), hits = [], present = 0;
    S.order.forEach(function (r) {
      var b = r.b >= 0 ? c[r.b] : 0, a = r.f >= 0 && r.s !== 'failed' ? c[r.f] : b;
      if (b || a) present++;
      if (a !== b) hits.push({ r: r, before: b, after: a });
    });
    return { hits: hits, present: present, test: test };
  }
  // Once pass i is drawn, marks and scrolls to its first changed row that
  // matches (the viewer's own row highlight).
  function reveal(i, test) {
    var tries = 0;
    (function wait() {
      var v = S.view;
      if (S.cur !== i) return;
      if (!v || document.documentElement.dataset.rendered !== String(i)) { if (++tries < 300) requestAnimationFrame(wait); return; }
      for (var ri = 0; ri < v.rows.length; ri++) {
        var row = v.rows[ri];
        if (row.k === 'e' || !((row.l >= 0 && test(v.A.lines[row.l])) || (row.r >= 0 && test(v.B.lines[row.r])))) continue;
        var di = v.disp.indexOf(ri);
        if (di < 0) continue;
        v.hl = ri; v.list.draw(); v.list.scrollToRow(di);
        return;
      }
    })();
  }
  V.search = function (q, re) { return build().then(function () { return search(q, re); }); };

  // ---------- UI ----------
  var bar = document.getElementById('ftools'), panel = document.getElementById('fpanel');
  var form = document.createElement('form'); form.className = 'ft-search'; form.setAttribute('role', 'search');
  var input = document.createElement('input'); input.type = 'search'; input.id = 'ft-q';
  input.placeholder = 'Search every pass (text, or /regex/i)'; input.setAttribute('aria-label', 'Search every pass');
  var go = document.createElement('button'); go.type = 'submit'; go.textContent = 'Find';
  form.appendChild(input); form.appendChild(go); bar.insertBefore(form, bar.firstChild);
  // Start decoding as the user heads for the box, not on load: a report that
  // is never searched never pays the index's memory.
  form.addEventListener('mouseenter', function () { build(); });
  input.addEventListener('focus', function () { build(); });
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    // /regex/ or /regex/flags (i, m, s, u); anything else is plain text.
    var q = input.value, m = /^\/(.+)\/([imsu]*)$/.exec(q), re = m ? m[2] || true : false;
    if (m) q = m[1];
    if (!q) { panel.hidden = true; return; }
    try { if (re) matcher(q, re); } catch (err) { show(null, 'Bad regular expression: ' + err.message, null, 'error'); return; }
    show(null, 'Searching…');
    build(function (n, all) { show(null, 'Reading snapshots… ' + n + ' / ' + all); })
      .then(function () { var res = search(q, re); show(res, null, input.value); },
        function (err) { show(null, 'Search failed: ' + err.message, null, 'error'); });
  });
  function show(res, msg, q, state) {
    panel.hidden = false; panel.textContent = '';
    panel.dataset.kind = 'search';
    var head = document.createElement('div'); head.className = 'fp-head';
    var close = V.button('×', function () { panel.hidden = true; }, 'Close'); close.className = 'fp-close';
    head.appendChild(close);
    panel.appendChild(head);
    if (!res) { V.note(head, msg, 'fp-msg'); panel.dataset.state = state || 'busy'; return; }
    var h = res.hits;
    V.note(head, h.length ? h.length + (h.length === 1 ? ' pass changes' : ' passes change') + ' the lines matching ' + q +
      ' (' + res.present + ' passes hold a match)' : res.present ? 'Every pass keeps the lines matching ' + q + ' as they are (' + res.present + ' passes hold a match)'
      : 'No snapshot has a line matching ' + q, 'fp-msg');
    var list = document.createElement('div'); list.className = 'fp-list';
    var MAX = 500;
    h.slice(0, MAX).forEach(function (x) {
      var verb = x.before === 0 ? 'introduced' : x.after === 0 ? 'removed' : x.after > x.before ? 'more' : 'fewer';
      var b = V.button('', function () { V.select(x.r.i); reveal(x.r.i, res.test); }, V.prettyPhase(x.r.p));
      b.className = 'fp-row ' + verb; b.dataset.index = x.r.i; b.dataset.verb = verb;
      var what = verb === 'introduced' ? 'introduced (' + x.after + ')' : verb === 'removed' ? 'removed (' + x.before + ')'
        : x.before + ' → ' + x.after + ' lines';
      b.textContent = V.pad(x.r.i) + '. ' + x.r.n + (x.r.an ? ' on ' + x.r.an : '') + ' — ' + what;
      list.appendChild(b);
    });
    if (h.length > MAX) V.note(list, 'and ' + (h.length - MAX) + ' more', 'fp-msg');
    panel.appendChild(list);
    panel.dataset.state = 'done';
  }
})(window.LTViewer);
