// Source locations. Clicking a line number of an IR line that carries a
// location (MLIR loc("f.py":22:0) or loc(#locN), LLVM !dbg !N, the PTX .loc
// above an instruction) shows the source line, which the report embedded
// when it was written (meta.src: file -> line -> text) if the file was
// readable then. "Hide locations" removes location noise (loc(...), #locN
// alias lines, !dbg attachments and !DILocation lines, PTX .loc/.file lines)
// from the view, and recounts every pass whose texts carry any.
'use strict';
(function (V) {
  if (!V) return;
  var S = V.S, src = V.meta.src || {};
  var hide = false;
  var NOISE_LINE = /^\s*(?:#loc\d*\s*=\s*loc\(|!\d+\s*=\s*(?:distinct\s+)?!DILocation\(|\.loc\s|\.file\s)/;
  // Removes every ` loc(...)` (balanced, quotes respected) and `, !dbg !N`.
  function stripLine(l) {
    if (l.indexOf('loc(') < 0 && l.indexOf('!dbg') < 0) return l;
    var out = '', i = 0;
    for (;;) {
      var at = l.indexOf('loc(', i);
      if (at < 0 || (at > 0 && /[\w.#]/.test(l[at - 1]))) { if (at < 0) break; out += l.slice(i, at + 4); i = at + 4; continue; }
      var j = at + 4, depth = 1, q = false;
      for (; j < l.length && depth; j++) {
        var c = l[j];
        if (q) { if (c === '\\') j++; else if (c === '"') q = false; }
        else if (c === '"') q = true; else if (c === '(') depth++; else if (c === ')') depth--;
      }
      out += l.slice(i, at).replace(/\s+$/, '');
      i = j;
    }
    out += l.slice(i);
    return out.replace(/,\s*!dbg\s+!\d+/g, '');
  }
  function strip(p) {
    var out = [];
    for (var i = 0; i < p.length; i++) if (!NOISE_LINE.test(p[i])) out.push(stripLine(p[i]));
    return out;
  }
  V.plug({ view: function (p) { return hide ? strip(p) : p; } });

  // Counts with locations hidden, for every pass that changed the text. The
  // report stores most after-texts as a line delta against the before-text,
  // so only the edited lines are stripped and diffed, hunk by hunk; other
  // passes diff their whole stripped texts.
  var recounted = null; // Map record index -> { c, a, d } without locations
  function diffCount(a, b, n) {
    LTDiff.lines(a, b).forEach(function (op) { if (op[0] !== 'e') { n.d += op[2]; n.a += op[4]; } });
  }
  function recount() {
    if (recounted) return Promise.resolve();
    return V.index.build().then(function () {
      var m = new Map();
      S.order.forEach(function (r) {
        if (r.s !== 'completed' || !r.c || r.b < 0 || r.f < 0) return;
        var n = { a: 0, d: 0 }, h = V.index.hunks(r.b, r.f);
        if (h) h.forEach(function (x) { diffCount(strip(x[0]), strip(x[1]), n); });
        else diffCount(strip(V.index.lines(r.b)), strip(V.index.lines(r.f)), n);
        if (n.a !== r.a || n.d !== r.d) m.set(r.i, { c: n.a + n.d > 0, a: n.a, d: n.d });
      });
      recounted = m;
    });
  }
  function apply() {
    S.recs.forEach(function (r) {
      var x = recounted && recounted.get(r.i);
      if (!x) return;
      if (!r.orig) r.orig = { c: r.c, a: r.a, d: r.d };
      var v = hide ? x : r.orig;
      r.c = v.c; r.a = v.a; r.d = v.d;
    });
    V.rebuild();
  }
  var box = document.createElement('label'); box.className = 'ft-hideloc';
  box.title = 'Hide loc(...), #loc aliases, !dbg and .loc lines from the view and the counts';
  var cb = document.createElement('input'); cb.type = 'checkbox'; cb.id = 'ft-hideloc'; cb.checked = hide;
  box.appendChild(cb); box.appendChild(document.createTextNode(' Hide locations'));
  document.getElementById('ftools').appendChild(box);
  function set(on) {
    hide = on; cb.checked = on;
    // Set once the view and counts follow (tests wait on it).
    return (on ? recount() : Promise.resolve()).then(apply).then(function () {
      document.documentElement.dataset.hideLoc = on ? '1' : '0';
    });
  }
  cb.addEventListener('change', function () { set(cb.checked); });
  V.setHideLocations = set;

  // ---------- the source line of a clicked IR line ----------
  // Resolves the clicked line's location to [file, line] using the snapshot
  // it came from (aliases, metadata and .file lines live there too).
  function resolve(line, all, at) {
    var m = /loc\("((?:[^"\\]|\\.)*)":(\d+)(?::\d+)?/.exec(line);
    if (m) return [m[1], m[2]];
    m = /loc\((#loc\d*)\)\s*$/.exec(line) || /loc\((#loc\d*)\)/.exec(line);
    if (m) { var def = find(all, new RegExp('^' + m[1] + '\\s*=\\s*loc\\(')); return def ? resolve(def.replace(/^#loc\d*\s*=\s*/, ''), all) : null; }
    m = /!dbg\s+(!\d+)/.exec(line);
    // A function-level LLVM dump has no metadata: look in other snapshots.
    if (m) return md(all, m[1]) ? llvm(m[1], all) : { dbg: m[1] };
    for (var i = at; i >= 0 && i > at - 200; i--) {
      var p = /^\s*\.loc\s+(\d+)\s+(\d+)/.exec(all[i]);
      if (p) { var f = find(all, new RegExp('^\\s*\\.file\\s+' + p[1] + '\\s+"')); return f ? [/"((?:[^"\\]|\\.)*)"/.exec(f)[1], p[2]] : null; }
      if (i < at && /^\s*(?:\}|\.entry|\.func)/.test(all[i])) break;
    }
    return null;
  }
  function find(all, re) { for (var i = 0; i < all.length; i++) if (re.test(all[i])) return all[i]; return null; }
  function md(all, id) { return find(all, new RegExp('^' + id + '\\s*=')); }
  function llvm(id, all) {
    var loc = md(all, id), ln = loc && /line:\s*(\d+)/.exec(loc);
    if (!ln) return null;
    var cur = loc;
    for (var hop = 0; cur && hop < 32; hop++) {
      var f = /file:\s*(!\d+)/.exec(cur);
      if (f) {
        var d = md(all, f[1]), name = d && /filename:\s*"((?:[^"\\]|\\.)*)"/.exec(d);
        return name ? [name[1], ln[1]] : null;
      }
      var s = /scope:\s*(!\d+)/.exec(cur);
      cur = s && md(all, s[1]);
    }
    return null;
  }
  // The module-level snapshots of an LLVM trace hold the metadata that its
  // function-level ones refer to (one numbering per module): the nearest
  // snapshot defining `id`, later ones first.
  function elsewhere(id, key) {
    return V.index.build().then(function () {
      var n = V.S.snaps.size, re = new RegExp('^' + id + '\\s*=');
      for (var d = 1; d < Math.max(key + 1, n - key); d++)
        for (var k = key + d, t = 0; t < 2; t++, k = key - d) {
          if (k < 0 || k >= n) continue;
          var ls = V.index.lines(k);
          if (ls.some(function (l) { return l.charCodeAt(0) === 33 && re.test(l); })) return llvm(id, ls);
        }
      return null;
    });
  }
  var pane = document.getElementById('pane');
  pane.addEventListener('click', function (e) {
    var ln = e.target.closest('.ln[data-line]'); if (!ln) return;
    var r = S.recs.get(S.cur); if (!r) return;
    var key = ln.dataset.side === 'r' ? r.f : r.b, at = +ln.dataset.line;
    V.pieces(key).then(function (p) {
      var all = p || [], i = at;
      // Hidden locations: line `at` of the view is the at-th line that is not noise.
      if (hide) for (var n = -1, k = 0; k < all.length; k++) if (!NOISE_LINE.test(all[k]) && ++n === at) { i = k; break; }
      if (all[i] === undefined) return;
      var hit = resolve(all[i], all, i);
      if (hit && hit.dbg) return elsewhere(hit.dbg, key).then(srcBox);
      srcBox(hit);
    });
  });
  function srcBox(hit) {
    var old = document.getElementById('ft-src'); if (old) old.remove();
    if (!hit) return;
    var el = document.createElement('div'); el.id = 'ft-src'; el.className = 'ft-src';
    var text = src[hit[0]] && src[hit[0]][hit[1]];
    var where = document.createElement('span'); where.className = 'ft-src-at'; where.textContent = hit[0] + ':' + hit[1];
    var code = document.createElement('code');
    code.textContent = text !== undefined ? text : '(source not readable when the report was written)';
    if (text === undefined) code.className = 'missing';
    var close = V.button('×', function () { el.remove(); }, 'Close');
    el.appendChild(where); el.appendChild(code); el.appendChild(close);
    var body = pane.querySelector('.sec-body');
    (body || pane).insertBefore(el, body ? body.firstChild : null);
  }
  V.plug({ select: function () { var old = document.getElementById('ft-src'); if (old) old.remove(); } });
})(window.LTViewer);
