// lowertrace viewer: line and intraline diffs, computed on demand in the page.
// Bounded everywhere: common prefix/suffix are trimmed, large ranges are split
// on lines unique to both sides (patience anchors), and Myers stops after a
// fixed edit cost, leaving the remainder as one replace block. So F7 on a
// 20k-line IR never allocates an m*n table.
'use strict';
var LTDiff = (function () {
  var MYERS_MAX_D = 800;

  // Myers' greedy search over a[a0,a1) and b[b0,b1), marking changed lines in
  // ma/mb. Returns false (marks untouched) when more than maxD edits are needed.
  function myers(a, a0, a1, b, b0, b1, ma, mb, maxD) {
    var n = a1 - a0, m = b1 - b0, max = Math.min(n + m, maxD), off = max + 1;
    var v = new Int32Array(2 * max + 3), trace = [];
    for (var d = 0; d <= max; d++) {
      trace.push(v.slice(off - d - 1, off + d + 2));
      for (var k = -d; k <= d; k += 2) {
        var x = (k === -d || (k !== d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1] : v[off + k - 1] + 1;
        var y = x - k;
        while (x < n && y < m && a[a0 + x] === b[b0 + y]) { x++; y++; }
        v[off + k] = x;
        if (x >= n && y >= m) { backtrack(trace, d, n, m, a0, b0, ma, mb); return true; }
      }
    }
    return false;
  }
  function backtrack(trace, D, x, y, a0, b0, ma, mb) {
    for (var d = D; d > 0; d--) {
      var t = trace[d], base = d + 1; // t[i] is v[k] for k = i - base
      var k = x - y;
      var prevK = (k === -d || (k !== d && t[base + k - 1] < t[base + k + 1])) ? k + 1 : k - 1;
      var px = t[base + prevK], py = px - prevK;
      while (x > px && y > py) { x--; y--; }
      if (prevK === k + 1) mb[b0 + py] = 1; else ma[a0 + px] = 1;
      x = px; y = py;
    }
  }

  function solve(a, a0, a1, b, b0, b1, ma, mb) {
    while (a0 < a1 && b0 < b1 && a[a0] === b[b0]) { a0++; b0++; }
    while (a0 < a1 && b0 < b1 && a[a1 - 1] === b[b1 - 1]) { a1--; b1--; }
    if (a0 === a1 || b0 === b1) {
      for (var i = a0; i < a1; i++) ma[i] = 1;
      for (var j = b0; j < b1; j++) mb[j] = 1;
      return;
    }
    if (a1 - a0 + b1 - b0 > 400) {
      var anchors = uniqueAnchors(a, a0, a1, b, b0, b1);
      if (anchors.length) {
        var pa = a0, pb = b0;
        for (var q = 0; q < anchors.length; q++) {
          solve(a, pa, anchors[q][0], b, pb, anchors[q][1], ma, mb);
          pa = anchors[q][0] + 1; pb = anchors[q][1] + 1;
        }
        solve(a, pa, a1, b, pb, b1, ma, mb);
        return;
      }
    }
    if (!myers(a, a0, a1, b, b0, b1, ma, mb, MYERS_MAX_D)) {
      for (var i2 = a0; i2 < a1; i2++) ma[i2] = 1;
      for (var j2 = b0; j2 < b1; j2++) mb[j2] = 1;
    }
  }

  // Lines occurring exactly once in each range, as (ai, bj) pairs forming the
  // longest increasing run in b (patience sorting), so anchors never cross.
  function uniqueAnchors(a, a0, a1, b, b0, b1) {
    var ca = new Map(), cb = new Map(), i, j;
    for (i = a0; i < a1; i++) { var e = ca.get(a[i]); ca.set(a[i], e === undefined ? i : -1); }
    for (j = b0; j < b1; j++) { var f = cb.get(b[j]); cb.set(b[j], f === undefined ? j : -1); }
    var pairs = [];
    for (i = a0; i < a1; i++) {
      var ia = ca.get(a[i]); if (ia !== i) continue;
      var jb = cb.get(a[i]); if (jb === undefined || jb < 0) continue;
      pairs.push([i, jb]);
    }
    if (!pairs.length) return pairs;
    var tails = [], prev = new Int32Array(pairs.length);
    for (var p = 0; p < pairs.length; p++) {
      var lo = 0, hi = tails.length;
      while (lo < hi) { var mid = (lo + hi) >> 1; if (pairs[tails[mid]][1] < pairs[p][1]) lo = mid + 1; else hi = mid; }
      prev[p] = lo > 0 ? tails[lo - 1] : -1;
      tails[lo] = p;
    }
    var out = [], t = tails[tails.length - 1];
    while (t >= 0) { out.push(pairs[t]); t = prev[t]; }
    return out.reverse();
  }

  function intern(a, b) {
    var ids = new Map(), A = new Int32Array(a.length), B = new Int32Array(b.length);
    function id(s) { var v = ids.get(s); if (v === undefined) { v = ids.size; ids.set(s, v); } return v; }
    for (var i = 0; i < a.length; i++) A[i] = id(a[i]);
    for (var j = 0; j < b.length; j++) B[j] = id(b[j]);
    return [A, B];
  }

  // Ops [kind, aPos, aLen, bPos, bLen], kind 'e' | 'c' (a change: aLen deletes then bLen inserts).
  function lines(a, b) {
    var AB = intern(a, b), ma = new Uint8Array(a.length), mb = new Uint8Array(b.length);
    solve(AB[0], 0, a.length, AB[1], 0, b.length, ma, mb);
    var ops = [], i = 0, j = 0;
    while (i < a.length || j < b.length) {
      if (i < a.length && j < b.length && !ma[i] && !mb[j]) {
        var s = i, t = j;
        while (i < a.length && j < b.length && !ma[i] && !mb[j]) { i++; j++; }
        ops.push(['e', s, i - s, t, j - t]);
      } else {
        var s2 = i, t2 = j;
        while (i < a.length && ma[i]) i++;
        while (j < b.length && mb[j]) j++;
        if (i === s2 && j === t2) { i++; j++; } // unreachable with consistent marks; never loop
        ops.push(['c', s2, i - s2, t2, j - t2]);
      }
    }
    return ops;
  }

  var TOKEN = /\s+|[A-Za-z0-9_]+|[^\sA-Za-z0-9_]/g;
  function tokens(s) { var out = [], m; TOKEN.lastIndex = 0; while ((m = TOKEN.exec(s))) out.push(m.index); out.push(s.length); return out; }

  // SSA renumbering: a line pair that is equal once value, block and alias
  // names are replaced by their order of first use in the line (MLIR %0
  // %arg1 %c0_i32 ^bb3 #loc12 #blocked1, LLVM %5 #0, PTX %r12 %rd3) is
  // noise, not change. Known blind spot: swapping two names within one line
  // (`%3, %4` -> `%4, %3`) also looks like renumbering.
  var SSA = /%[A-Za-z_$.][\w$.\-]*|%\d+|\^bb\d+|#[A-Za-z_]+\d+|#\d+\b/g;
  function canonSSA(s) {
    var seen = new Map();
    return s.replace(SSA, function (m) {
      var v = seen.get(m);
      if (v === undefined) {
        var kind = m.charAt(0) === '#' ? m.replace(/\d+$/, '') : m.charAt(0) === '^' ? '^bb' : '%';
        v = kind + '\u0000' + seen.size;
        seen.set(m, v);
      }
      return v;
    });
  }
  function renumberedOnly(x, y) { return x !== y && canonSSA(x) === canonSSA(y); }

  // Changed character spans of a line pair, on word granularity.
  function intraline(x, y) {
    var ws = x !== y && x.replace(/\s+/g, '') === y.replace(/\s+/g, '');
    var rn = !ws && renumberedOnly(x, y);
    var px = tokens(x), py = tokens(y);
    var tx = [], ty = [], i;
    for (i = 0; i + 1 < px.length; i++) tx.push(x.slice(px[i], px[i + 1]));
    for (i = 0; i + 1 < py.length; i++) ty.push(y.slice(py[i], py[i + 1]));
    var ma = new Uint8Array(tx.length), mb = new Uint8Array(ty.length);
    if (tx.length + ty.length > 4000) { // absurd lines: prefix/suffix only
      solveTrimOnly(tx, ty, ma, mb);
    } else {
      var AB = intern(tx, ty);
      solve(AB[0], 0, tx.length, AB[1], 0, ty.length, ma, mb);
    }
    return { a: spans(px, ma), b: spans(py, mb), ws: ws, rn: rn };
  }
  function solveTrimOnly(a, b, ma, mb) {
    var s = 0, ea = a.length, eb = b.length;
    while (s < ea && s < eb && a[s] === b[s]) s++;
    while (ea > s && eb > s && a[ea - 1] === b[eb - 1]) { ea--; eb--; }
    for (var i = s; i < ea; i++) ma[i] = 1;
    for (var j = s; j < eb; j++) mb[j] = 1;
  }
  function spans(pos, marks) {
    var out = [];
    for (var i = 0; i < marks.length; i++) {
      if (!marks[i]) continue;
      var st = pos[i]; while (i + 1 < marks.length && marks[i + 1]) i++;
      out.push([st, pos[i + 1] - st]);
    }
    return out;
  }

  return { lines: lines, intraline: intraline, renumberedOnly: renumberedOnly, canonSSA: canonSSA };
})();
