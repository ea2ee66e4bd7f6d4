// gunzip in plain JS (RFC 1951/1952), synchronous. The viewer decodes the
// one pass it shows through DecompressionStream, but a stream costs about a
// millisecond to set up: decoding all 4,240 snapshots of a 15,000-pass LLVM
// report that way took 3.7 s, for 1.8 MB of compressed data. The search index
// decodes everything at once, so it uses this instead.
'use strict';
var LTInflate = (function () {
  var LBASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
  var LEXT = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
  var DBASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
    4097, 6145, 8193, 12289, 16385, 24577];
  var DEXT = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
  var ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
  var FAST = 9; // codes up to this many bits are decoded by one table look-up

  // Canonical Huffman code from code lengths: counts and symbols for the
  // bit-by-bit decoder, plus a table indexed by the next FAST input bits
  // (bit-reversed, as deflate sends codes MSB first) giving symbol << 4 | length.
  function tree(lens, n) {
    var count = new Int16Array(16), offs = new Int16Array(16), sym = new Int16Array(n), fast = new Int32Array(1 << FAST);
    for (var i = 0; i < n; i++) count[lens[i]]++;
    count[0] = 0;
    for (i = 1; i < 16; i++) offs[i] = offs[i - 1] + count[i - 1];
    for (i = 0; i < n; i++) if (lens[i]) sym[offs[lens[i]]++] = i;
    var code = 0, k = 0;
    for (var len = 1; len <= FAST; len++) {
      for (var c = 0; c < count[len]; c++, code++, k++) {
        var rev = 0;
        for (var b = 0; b < len; b++) rev |= ((code >> b) & 1) << (len - 1 - b);
        for (var f = rev; f < (1 << FAST); f += 1 << len) fast[f] = (sym[k] << 4) | len;
      }
      code <<= 1;
    }
    return { count: count, sym: sym, fast: fast };
  }
  var fixedL, fixedD;
  function fixed() {
    var l = new Uint8Array(288), i;
    for (i = 0; i < 144; i++) l[i] = 8;
    for (; i < 256; i++) l[i] = 9;
    for (; i < 280; i++) l[i] = 7;
    for (; i < 288; i++) l[i] = 8;
    fixedL = tree(l, 288);
    var d = new Uint8Array(30); d.fill(5); fixedD = tree(d, 30);
  }

  function inflate(s, p, out) {
    var bb = 0, bc = 0, o = 0;
    function need(n) { while (bc < n) { if (p >= s.length) throw new Error('truncated deflate data'); bb |= s[p++] << bc; bc += 8; } }
    function bits(n) { need(n); var v = bb & ((1 << n) - 1); bb >>>= n; bc -= n; return v; }
    function decode(h) {
      // Fast path: peek FAST bits (fewer at the very end of the input).
      while (bc < FAST && p < s.length) { bb |= s[p++] << bc; bc += 8; }
      var e = h.fast[bb & ((1 << FAST) - 1)];
      if (e && (e & 15) <= bc) { bb >>>= e & 15; bc -= e & 15; return e >> 4; }
      var code = 0, first = 0, index = 0;
      for (var len = 1; len < 16; len++) {
        code |= bits(1);
        var cnt = h.count[len];
        if (code - cnt < first) return h.sym[index + (code - first)];
        index += cnt; first += cnt; first <<= 1; code <<= 1;
      }
      throw new Error('bad Huffman code');
    }
    var last;
    do {
      last = bits(1);
      var type = bits(2);
      if (type === 0) {
        bb >>>= bc & 7; bc -= bc & 7;
        p -= bc >> 3; bb = 0; bc = 0;
        var len = s[p] | (s[p + 1] << 8); p += 4;
        out.set(s.subarray(p, p + len), o); p += len; o += len;
        continue;
      }
      var L, D;
      if (type === 1) { if (!fixedL) fixed(); L = fixedL; D = fixedD; }
      else if (type === 2) {
        var hl = bits(5) + 257, hd = bits(5) + 1, hc = bits(4) + 4, cl = new Uint8Array(19), i;
        for (i = 0; i < hc; i++) cl[ORDER[i]] = bits(3);
        var ct = tree(cl, 19), lens = new Uint8Array(hl + hd);
        for (i = 0; i < hl + hd;) {
          var sym = decode(ct);
          if (sym < 16) { lens[i++] = sym; continue; }
          var rep = 0, val = 0;
          if (sym === 16) { if (!i) throw new Error('bad lengths'); val = lens[i - 1]; rep = 3 + bits(2); }
          else if (sym === 17) rep = 3 + bits(3); else rep = 11 + bits(7);
          while (rep--) lens[i++] = val;
        }
        L = tree(lens.subarray(0, hl), hl); D = tree(lens.subarray(hl), hd);
      } else throw new Error('bad block type');
      for (;;) {
        var c = decode(L);
        if (c < 256) { out[o++] = c; continue; }
        if (c === 256) break;
        c -= 257;
        var n = LBASE[c] + bits(LEXT[c]), dc = decode(D), dist = DBASE[dc] + bits(DEXT[dc]);
        for (var from = o - dist; n--;) out[o++] = out[from++];
      }
    } while (!last);
    return o;
  }

  // base64 of a gzip member -> its text (invalid UTF-8 replaced, as the viewer's decoder does).
  var dec = typeof TextDecoder !== 'undefined' ? new TextDecoder() : null;
  function gunzipBase64(b64) {
    var bin = atob(b64), u = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) u[i] = bin.charCodeAt(i);
    if (u[0] !== 31 || u[1] !== 139 || u[2] !== 8) throw new Error('not gzip data');
    var flg = u[3], p = 10;
    if (flg & 4) p += 2 + (u[p] | (u[p + 1] << 8));
    if (flg & 8) while (u[p++]);
    if (flg & 16) while (u[p++]);
    if (flg & 2) p += 2;
    var n = (u[u.length - 4] | (u[u.length - 3] << 8) | (u[u.length - 2] << 16) | (u[u.length - 1] << 24)) >>> 0;
    var out = new Uint8Array(n);
    var got = inflate(u, p, out);
    if (got !== n) throw new Error('gzip size mismatch');
    return dec.decode(out);
  }
  return { gunzipBase64: gunzipBase64 };
})();
