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

  // SSA renumbering, as src/diff/ssa.cpp decides it (keep the two in step:
  // the sidebar's counts come from there, the rows from here). A line's
  // names are MLIR %0 %arg1 %c0_i32 %0#1 ^bb3, aliases #loc12 #map #0, LLVM
  // %5 %"a b", PTX %r12 (not %tid.x and other special registers); text in
  // "..." is literal. Its canonical form numbers each name by first
  // appearance in the line, per sigil.
  function isName(c) { return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 36 || c === 46 || c === 95 || c === 45; }
  function isAlias(c) { return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c === 45; }
  function isDigit(ch) { return ch >= '0' && ch <= '9'; }
  var PTX_SPECIAL = /^(tid|ntid|ctaid|nctaid|laneid|warpid|nwarpid|smid|nsmid|gridid|clock|clock64|globaltimer|lanemask)([._]|$)/;
  function scan(s) {
    var out = '', names = [], seen = { '%': [], '^': [], '#': [] }, i = 0, n = s.length, j, name;
    function num(sig, nm) { var l = seen[sig], k = l.indexOf(nm); if (k < 0) { l.push(nm); k = l.length - 1; } return k; }
    while (i < n) {
      var c = s[i];
      if (c === '"') {
        j = i + 1;
        while (j < n && s[j] !== '"') j += (s[j] === '\\' && j + 1 < n) ? 2 : 1;
        j = Math.min(j + 1, n); out += s.slice(i, j); i = j; continue;
      }
      if ((c === '%' || c === '^') && i + 1 < n) {
        j = i + 1;
        if (c === '%' && s[j] === '"') { j++; while (j < n && s[j] !== '"') j++; j = Math.min(j + 1, n); }
        else {
          while (j < n && isName(s.charCodeAt(j))) j++;
          if (c === '%' && j + 1 < n && s[j] === '#' && isDigit(s[j + 1])) { j++; while (j < n && isDigit(s[j])) j++; }
        }
        name = s.slice(i + 1, j);
        if (name && !(c === '%' && PTX_SPECIAL.test(name))) {
          names.push(c + name); out += c + '\u0001' + num(c, name) + '\u0002'; i = j; continue;
        }
      }
      if (c === '#' && i + 1 < n) {
        j = i + 1;
        while (j < n && isAlias(s.charCodeAt(j))) j++;
        if (j > i + 1 && (j === n || s[j] !== '.')) {
          name = s.slice(i + 1, j); names.push('#' + name); out += '#\u0001' + num('#', name) + '\u0002'; i = j; continue;
        }
      }
      out += c; i++;
    }
    return { canon: out, names: names };
  }
  function strip(s) { return s.replace(/[ \t\r\v\f]/g, ''); }
  // The key two lines must share to be lined up as a possible renumbering.
  function canonSSA(s) { return strip(scan(s).canon); }
  function renumberedOnly(x, y) { return x !== y && strip(x) !== strip(y) && canonSSA(x) === canonSSA(y); }

  // The function a header line opens ("" if none): names are per function.
  // MLIR `*.func ... @f(`, LLVM `define ... @f(`, PTX `.entry f(` / `.func (r) f(`.
  function functionOf(line) {
    var at = 0; while (line.charCodeAt(at) === 32 || line.charCodeAt(at) === 9) at++;
    var c = line.charAt(at), m;
    if (c !== '.' && line.indexOf('@', at) < 0) return '';
    var t = line.slice(at);
    if ((m = /^define\b[^@]*(@"[^"]*"?|@[\w$.\-]*)/.exec(t))) return m[1];
    if ((m = /^[\w$.\-]*\.func (?:[^@]*?)(@"[^"]*"?|@[\w$.\-]*)/.exec(t))) return m[1];
    if (c === '.' && (m = /(?:^|[ \t])\.(?:entry|func) +(?:\([^)]*\) *)?([^( \t]+)/.exec(t))) return m[1];
    return '';
  }
  // The names of a line, in order, as scan() finds them (one regex: string
  // literals are skipped whole).
  var NAMES = /"(?:[^"\\]|\\.)*"?|%"[^"]*"?|%[\w$.\-]+(?:#\d+)?|\^[\w$.\-]+|#[\w$\-]+(?![\w$\-.])/g;
  function namesOf(line, out) {
    NAMES.lastIndex = 0;
    for (var m; (m = NAMES.exec(line));) {
      var t = m[0];
      if (t.charAt(0) === '"' || (t.charAt(0) === '%' && PTX_SPECIAL.test(t.slice(1)))) continue;
      out.push(t);
    }
    return out;
  }
  // One side: where each name of interest is defined, as src/diff/ssa.cpp
  // does: a value at its first appearance; a block label or alias at the
  // line it starts, else its first appearance. Only the names of candidate
  // lines are looked up, in one pass that stops when all are found.
  function Side(lines) {
    var scope = new Array(lines.length), sc = '', defs = new Map(), wanted = new Set(), left = 0, unseen = 0;
    for (var i = 0; i < lines.length; i++) { var f = functionOf(lines[i]); if (f) sc = f; scope[i] = sc; }
    function key(i, name) { return (name.charAt(0) === '#' ? '' : scope[i]) + '\u0001' + name; }
    return {
      names: function (i) { return namesOf(lines[i], []); },
      key: key,
      want: function (i) {
        namesOf(lines[i], []).forEach(function (n) { var k = key(i, n); wanted.add(n); if (!defs.has(k)) { defs.set(k, null); left++; unseen++; } });
      },
      locate: function () {
        var buf = [];
        for (var i = 0; i < lines.length && left > 0; i++) {
          if (!unseen) { // every wanted name met: only a label or alias starting a line can still define one
            var at = 0; while (lines[i].charCodeAt(at) === 32 || lines[i].charCodeAt(at) === 9) at++;
            var c0 = lines[i].charAt(at); if (c0 !== '^' && c0 !== '#') continue;
          }
          buf.length = 0; namesOf(lines[i], buf);
          for (var k = 0; k < buf.length; k++) {
            if (!wanted.has(buf[k])) continue;
            var kk = key(i, buf[k]), d = defs.get(kk);
            if (d === undefined || (d && d[2])) continue;
            var starts = k === 0 && buf[k].charAt(0) !== '%' && lines[i].replace(/^[ \t]+/, '').startsWith(buf[k]);
            if (d === null) unseen--;
            if (d === null || starts) {
              d = [i, k, buf[k].charAt(0) === '%' || starts]; defs.set(kk, d);
              if (d[2]) left--;
            }
          }
        }
      },
      def: function (k) { return defs.get(k) || null; }
    };
  }

  // The line with every name erased: an op whose operands changed keeps it.
  function shape(s) { return canonSSA(s).replace(/\u0001[^\u0002]*\u0002/g, '\u0001\u0002'); }
  // Pairs the changed lines left unpaired between two paired ones when they
  // have the same shape (a rewired op): a real change, but it says which new
  // value an old one became, so uses of its result can still be renumbering.
  function pairSameShape(a, b, rows, pa, pb) {
    var ua = [], ub = [];
    function flush() {
      if (ua.length && ub.length) {
        lines(ua.map(function (i) { return shape(a[i]); }), ub.map(function (j) { return shape(b[j]); })).forEach(function (op) {
          if (op[0] !== 'e') return;
          for (var t = 0; t < op[2]; t++) { pa[ua[op[1] + t]] = ub[op[3] + t]; pb[ub[op[3] + t]] = ua[op[1] + t]; }
        });
      }
      ua = []; ub = [];
    }
    rows.forEach(function (row) {
      if (row.k !== 'c' || (row.l >= 0 && pa[row.l] >= 0) || (row.r >= 0 && pb[row.r] >= 0)) { flush(); return; }
      if (row.l >= 0) ua.push(row.l);
      if (row.r >= 0) ub.push(row.r);
    });
    flush();
  }

  // Marks each row pairing two different lines with nz: 'w' whitespace only,
  // 'r' renumbering (the line is its counterpart under the renaming that
  // the whole snapshot implies: each name maps to the name at the same place
  // in the line paired with its first appearance, both ways), 'x' real.
  // Rows: {k: 'e'|'c', l, r} with l/r line indices or -1.
  function markNoise(a, b, rows) {
    var pa = new Int32Array(a.length).fill(-1), pb = new Int32Array(b.length).fill(-1), cand = [];
    rows.forEach(function (row) {
      row.nz = undefined;
      if (row.l < 0 || row.r < 0) return;
      if (row.k === 'e') { pa[row.l] = row.r; pb[row.r] = row.l; return; }
      var x = a[row.l], y = b[row.r];
      if (x === y) return;
      if (canonSSA(x) !== canonSSA(y)) return;
      pa[row.l] = row.r; pb[row.r] = row.l;
      if (strip(x) === strip(y)) row.nz = 'w'; else cand.push(row);
    });
    if (!cand.length) return;
    pairSameShape(a, b, rows, pa, pb);
    var A = Side(a), B = Side(b);
    cand.forEach(function (row) { A.want(row.l); B.want(row.r); });
    A.locate(); B.locate();
    function image(from, to, pair, key, want) {
      var d = from.def(key); if (!d) return false;
      var p = pair[d[0]]; if (p < 0) return false;
      var there = to.names(p);
      return d[1] < there.length && to.key(p, there[d[1]]) === want;
    }
    cand.forEach(function (row) {
      var na = A.names(row.l), nb = B.names(row.r), ok = na.length === nb.length;
      for (var k = 0; ok && k < na.length; k++) {
        var ka = A.key(row.l, na[k]), kb = B.key(row.r, nb[k]);
        ok = na[k].charAt(0) === nb[k].charAt(0) && image(A, B, pa, ka, kb) && image(B, A, pb, kb, ka);
      }
      row.nz = ok ? 'r' : 'x';
    });
  }

  // Changed character spans of a line pair, on word granularity.
  function intraline(x, y) {
    var ws = x !== y && x.replace(/\s+/g, '') === y.replace(/\s+/g, '');
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
    return { a: spans(px, ma), b: spans(py, mb), ws: ws };
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

  return { lines: lines, intraline: intraline, renumberedOnly: renumberedOnly, canonSSA: canonSSA, markNoise: markNoise, functionOf: functionOf };
})();
