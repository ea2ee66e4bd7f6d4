// Filter by function or anchor: LLVM functions and loops (the records'
// anchors), MLIR func.func/gpu.func/llvm.func @x and Triton tt.func kernels
// (their headers, found in any snapshot). Picking one keeps in the pass list
// only the passes that ran on it (anchor) or changed its text, and jumps to
// the first of those that changed it.
'use strict';
(function (V) {
  if (!V) return;
  var S = V.S;
  var HEADER = /^\s*(?:(?:[\w$-]+\.)?func\b|define\b)[^@]*@("(?:[^"\\]|\\.)*"|[\w.$-]+)/;
  function headerName(line) {
    var m = line.length < 4000 && HEADER.exec(line);
    return m ? m[1].replace(/^"|"$/g, '') : null;
  }
  // Names an anchor stands for. LLVM imports and the plugin write
  // "function f12", "loop %body in function f12" (the loop and its function),
  // "scc (f1, f2)" and "[module]"; MLIR aggregated passes "func.func x2000 (...)".
  function anchorNames(an) {
    if (!an || /^\[?module\]?$|^builtin\.module$| x\d+/.test(an)) return [];
    var m = / in function (.+)$/.exec(an);
    if (m) return [an, m[1]];
    if ((m = /^function (.+)$/.exec(an))) return [m[1]];
    if ((m = /^(?:scc )?\((.*)\)$/.exec(an))) return m[1].split(/,\s*/);
    return [an];
  }
  // Where function `name` is in snapshot `k`: [first, last] line of its header
  // to the closing brace at the header's indentation, or null when absent.
  // Ranges, not texts, are kept: 1,000 copies of a 10k-line function would
  // be most of the page's memory.
  var regions = new Map(); // name + '\0' + key -> range
  function range(name, k) {
    var id = name + '\u0000' + k;
    if (regions.has(id)) return regions.get(id);
    var ls = V.index.lines(k), out = null;
    for (var i = 0; i < ls.length; i++) {
      if (ls[i].indexOf(name) < 0 || headerName(ls[i]) !== name) continue;
      var ind = /^\s*/.exec(ls[i])[0], end = i;
      if (/\{\s*$/.test(ls[i])) while (end + 1 < ls.length && ls[++end] !== ind + '}');
      out = [i, end];
      break;
    }
    regions.set(id, out);
    return out;
  }
  // Whether function `name` reads the same in snapshots a and b (absent = '').
  function same(name, a, b) {
    if (a === b) return true;
    var ra = a < 0 ? null : range(name, a), rb = b < 0 ? null : range(name, b);
    if (!ra || !rb) return !ra && !rb;
    if (ra[1] - ra[0] !== rb[1] - rb[0]) return false;
    var la = V.index.lines(a), lb = V.index.lines(b);
    for (var i = 0; i <= ra[1] - ra[0]; i++) if (la[ra[0] + i] !== lb[rb[0] + i]) return false;
    return true;
  }
  var pick = null, keep = null; // selected name; Set of record indices shown
  function compute(name) {
    var set = new Set();
    S.order.forEach(function (r) {
      if (anchorNames(r.an).indexOf(name) >= 0) { set.add(r.i); return; }
      if (!r.c || r.s === 'failed') return;
      if (!same(name, r.b, r.f)) set.add(r.i);
    });
    return set;
  }
  function changedIt(r, name) {
    if (!r.c || r.s === 'failed' || r.s === 'skipped') return false;
    if (r.f < 0 || r.b < 0) return true;
    return !same(name, r.b, r.f) || (!range(name, r.b) && anchorNames(r.an).indexOf(name) >= 0);
  }
  V.plug({ visible: function (r) { return !keep || keep.has(r.i); } });

  // ---------- UI ----------
  var sel = document.createElement('select'); sel.id = 'ft-fn'; sel.setAttribute('aria-label', 'Filter by function or anchor');
  sel.title = 'Show only the passes that ran on or changed one function, loop or kernel';
  document.getElementById('ftools').appendChild(sel);
  var known = 0;
  function options() {
    var names = new Set();
    S.order.forEach(function (r) { anchorNames(r.an).forEach(function (n) { names.add(n); }); });
    if (V.index.ready()) V.index.eachNewLine(function (l) { if (l.indexOf('@') >= 0) { var n = headerName(l); if (n) names.add(n); } });
    if (names.size === known) return;
    known = names.size;
    var list = Array.from(names).sort(function (a, b) { return a.localeCompare(b, undefined, { numeric: true }); });
    sel.textContent = '';
    var all = document.createElement('option'); all.value = ''; all.textContent = 'All functions (' + list.length + ')';
    sel.appendChild(all);
    list.forEach(function (n) { var o = document.createElement('option'); o.value = o.textContent = n; sel.appendChild(o); });
    sel.value = pick || '';
  }
  var timer = null;
  V.plug({ refresh: function () { clearTimeout(timer); timer = setTimeout(options, 50); } });
  // The header names live in the snapshots: read them when the list is opened.
  function withIndex() { if (!V.index.ready()) V.index.build().then(options); }
  sel.addEventListener('focus', withIndex);
  sel.addEventListener('mousedown', withIndex);
  sel.addEventListener('change', function () { choose(sel.value); });
  function choose(name) {
    pick = name || null;
    sel.value = name || '';
    if (!pick) { keep = null; V.rebuild(); return Promise.resolve(); }
    return V.index.build().then(function () {
      if (pick !== name) return;
      keep = compute(name);
      var first = S.order.find(function (r) { return keep.has(r.i) && changedIt(r, name); }) ||
        S.order.find(function (r) { return keep.has(r.i); });
      V.rebuild();
      if (first) V.select(first.i);
      else V.toast('No pass ran on or changed ' + name);
    });
  }
  V.filterAnchor = choose;
})(window.LTViewer);
