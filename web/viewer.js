// lowertrace viewer: reads the run's records and snapshots from the page (or,
// while a run is live, from report_data/NNNNNN.js chunk files it loads in
// order), and renders only the selected pass. Long listings are virtualised:
// only the rows in view (plus a margin) are in the DOM.
//
// Every name, message and IR line reaches the DOM as text: either through
// textContent or through esc() before innerHTML. Nothing from the data is
// ever evaluated.
'use strict';
(function () {
  var H = 18; // row height in px, equal to --row in viewer.css
  var CONTEXT = 3, EXPAND_STEP = 20;
  var $ = function (id) { return document.getElementById(id); };
  var metaEl = $('lt-meta');
  var meta = metaEl ? JSON.parse(metaEl.textContent) : { run: {}, recs: [], snaps: [] };
  var S = {
    recs: new Map(), snaps: new Map(), order: [], phases: [], phase: null, cur: null,
    filter: 'all', collapsed: new Set(), align: null, view: null, tok: 0, dirty: false
  };
  window.__lt = S; // for tests and the curious: read-only use
  // Features in their own files (web/links.js, search.js, anchors.js, ...;
  // concatenated after this one, see html_page.cpp) plug in
  // through LTViewer.plug({ refresh, select, initial, visible, view, labels }).
  var plugs = [];
  function hook(name, arg, dflt) {
    for (var n = 0; n < plugs.length; n++) if (plugs[n][name]) { var v = plugs[n][name](arg); if (v !== undefined) return v; }
    return dflt;
  }
  function emit(name, arg) { plugs.forEach(function (p) { if (p[name]) p[name](arg); }); }
  function plugVisible(r) { return plugs.every(function (p) { return !p.visible || p.visible(r); }); }
  function view(p) { return plugs.reduce(function (q, f) { return f.view && q ? f.view(q) : q; }, p); }

  // ---------- data ----------
  function ingest(recs, snaps) {
    // Records and snapshots are final when they arrive, so one seen before
    // (a chunk loaded again) changes nothing and redraws nothing.
    var fresh = false;
    (snaps || []).forEach(function (s) {
      if (!S.snaps.has(s[0])) { S.snaps.set(s[0], { base: s[1], z: s[2] }); fresh = true; }
    });
    (recs || []).forEach(function (r) { if (!S.recs.has(r.i)) { S.recs.set(r.i, r); fresh = true; } });
    if (fresh && !S.dirty) { S.dirty = true; setTimeout(refresh, 0); }
  }
  window.__ltChunk = function (c) { ingest(c.recs, c.snaps); };
  window.__ltBeat = function (n) { S.beat = n; };  // report_data/beat.js, while live
  // Test hook: the full text of a snapshot, as the copy buttons produce it.
  window.__ltText = function (key) { return pieces(key).then(function (p) { return p ? p.join('\n') : null; }); };

  function b64bytes(s) {
    var bin = atob(s), u = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) u[i] = bin.charCodeAt(i);
    return u;
  }
  function gunzip(s) {
    var stream = new Blob([b64bytes(s)]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).arrayBuffer().then(utf8);
  }
  // IR is bytes. Each byte that is not valid UTF-8 becomes U+DC80..U+DCFF (a
  // lone surrogate, which valid text never decodes to), so a change of such
  // a byte stays a visible change; esc() shows it as \xNN.
  var strictUtf8 = new TextDecoder('utf-8', { fatal: true });
  function utf8(buf) {
    var u = new Uint8Array(buf);
    try { return strictUtf8.decode(u); } catch (e) { /* below */ }
    var out = '', i = 0, run = 0, loose = new TextDecoder('utf-8');
    function seqLen(i) {
      var c = u[i], n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
      if (c >= 0xf5 || !n || i + n > u.length) return 0;
      var c1 = u[i + 1];
      if ((c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 > 0x9f) || (c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 > 0x8f)) return 0;
      for (var k = 1; k < n; k++) if ((u[i + k] & 0xc0) !== 0x80) return 0;
      return n;
    }
    while (i < u.length) {
      if (u[i] < 0x80) { i++; continue; }
      var n = seqLen(i);
      if (n) { i += n; continue; }
      out += loose.decode(u.subarray(run, i)) + String.fromCharCode(0xdc00 + u[i]);
      run = ++i;
    }
    return out + loose.decode(u.subarray(run));
  }
  var cache = new Map(); // snapshot key -> Promise of its '\n'-split pieces
  function pieces(key) {
    if (key === undefined || key < 0) return Promise.resolve(null);
    var p = cache.get(key);
    if (p) { cache.delete(key); cache.set(key, p); return p; }
    var sn = S.snaps.get(key);
    if (!sn) return Promise.reject(new Error('snapshot ' + key + ' is missing from this report'));
    p = payload(key, sn).then(gunzip).then(function (raw) {
      if (sn.base < 0) return raw.split('\n');
      return pieces(sn.base).then(function (base) { return applyDelta(base, JSON.parse(raw)); });
    });
    cache.set(key, p);
    if (cache.size > 64) cache.delete(cache.keys().next().value);
    return p;
  }
  // A live chunk carries its payloads; the final page has them in elements
  // after the viewer, which may still be parsing when the first pass is drawn.
  var parsed = new Promise(function (ok) {
    if (document.readyState !== 'loading') ok(); else document.addEventListener('DOMContentLoaded', ok);
  });
  function payload(key, sn) {
    if (sn.z !== undefined) return Promise.resolve(sn.z);
    // Not before parsing ends: an element being parsed may hold part of its text.
    return parsed.then(function () {
      var e = $('z' + key);
      if (!e) throw new Error('snapshot ' + key + ' is missing from this report');
      return e.textContent;
    });
  }
  function applyDelta(base, groups) {
    var out = [], i = 0;
    groups.forEach(function (g) {
      for (var k = 0; k < g[0]; k++) out.push(base[i++]);
      i += g[1];
      for (var j = 0; j < g[2].length; j++) out.push(g[2][j]);
    });
    while (i < base.length) out.push(base[i++]);
    return out;
  }
  // Pieces -> displayed lines and whether the text ended with '\n'.
  function asLines(p) {
    if (!p) return { lines: [], nl: false, text: '' };
    var nl = p.length > 1 && p[p.length - 1] === '';
    return { lines: nl ? p.slice(0, -1) : p, nl: nl, text: p.join('\n') };
  }

  // ---------- model ----------
  function kind(r) {
    if (r.s === 'failed') return 'failed';
    if (r.s === 'skipped') return 'skipped';
    if (r.s === 'codegen') return 'codegen';
    if (r.nb) return 'nobefore';  // an imported one-sided dump: unknown is not a change
    return r.c ? 'changed' : 'noop';
  }
  function rebuildOrder() {
    var all = Array.from(S.recs.values()).sort(function (a, b) { return a.i - b.i; });
    var phases = [];
    all.forEach(function (r) { if (phases.indexOf(r.p) < 0) phases.push(r.p); });
    S.phases = phases;
    S.order = [];
    phases.forEach(function (p) { all.forEach(function (r) { if (r.p === p) S.order.push(r); }); });
  }
  function hiddenByParent(r) {
    var seen = 0;
    for (var p = S.recs.get(r.pi); p && seen < 1000; p = S.recs.get(p.pi), seen++)
      if (S.collapsed.has(p.i)) return true;
    return false;
  }
  function visible(r) {
    return (S.filter === 'all' || kind(r) === S.filter) && !hiddenByParent(r) && plugVisible(r);
  }
  function pad(i) { return i < 10 ? '0' + i : String(i); }
  // Tab labels: "ttgir" -> "TritonGPU IR", "run2_llir" -> "Run 2: LLVM IR",
  // "unscoped" (passes outside any phase) -> "Passes".
  var PHASE_WORDS = { pipeline: 'Pipeline', codegen: 'Codegen', unscoped: 'Passes', gpu: 'GPU', cpu: 'CPU' };
  function prettyPhase(p) {
    var s = p.split('_').map(function (w, i, all) {
      var m = /^(phase|run)(\d+)$/.exec(w), last = i === all.length - 1;
      if (m) return (m[1] === 'run' ? 'Run ' : 'Phase ') + m[2] + (last ? '' : ':');
      var name = PHASE_WORDS[w.toLowerCase()] || LANG_NAMES[w.toLowerCase()];
      if (name) return name + (w === 'pipeline' && !last ? ':' : '');
      return w;
    }).join(' ');
    return s.charAt(0).toUpperCase() + s.slice(1);
  }
  function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many); }
  // Real changed lines and noise (renumbering, whitespace) pairs of a record,
  // from the report (src/report/html_data.cpp: diff::classify).
  function realAdd(r) { return r.a - (r.z || 0); }
  function realDel(r) { return r.d - (r.z || 0); }
  var LANG_NAMES = { mlir: 'MLIR', llvm: 'LLVM IR', 'llvm-ir': 'LLVM IR', ll: 'LLVM IR', mir: 'MIR',
    ptx: 'PTX', asm: 'Assembly', s: 'Assembly', 'c++': 'C++', cpp: 'C++', c: 'C', cuda: 'CUDA', cu: 'CUDA',
    hip: 'HIP', metal: 'Metal', tir: 'TIR', ttir: 'Triton IR', ttgir: 'TritonGPU IR', spirv: 'SPIR-V',
    amdgcn: 'AMDGCN', llir: 'LLVM IR' };
  function langName(l) { return LANG_NAMES[(l || '').toLowerCase()] || (l || 'source'); }

  // ---------- chrome: header, tabs, summary, sidebar ----------
  function refresh() {
    S.dirty = false;
    rebuildOrder();
    var run = meta.run || {};
    $('hdr-count').textContent = S.recs.size + (S.recs.size === 1 ? ' pass' : ' passes') + ' recorded';
    var bits = [];
    if (run.input) bits.push('Traced: ' + run.input);
    if (run.tool) bits.push(run.tool);
    if (run.run_id) bits.push(run.run_id);
    $('hdr-input').textContent = bits.join(' · ');
    $('hdr-input').title = bits.join('\n');
    document.title = 'lowertrace: ' + (run.script || run.input || 'report');
    $('hdr-live').hidden = !meta.live;
    if (S.liveEnded) $('hdr-live').textContent = 'run finished: reload for the final report';
    else if (S.liveDead) $('hdr-live').textContent = 'run stopped: the compiler was killed or crashed (no sign of life since ' + S.liveDead + ')';
    outcome(run);
    var start = null;
    if (S.cur === null && S.order.length) { var want = hook('initial'); start = S.recs.has(want) ? S.recs.get(want) : firstOfInterest(); }
    if (start) S.phase = start.p;
    if (!S.phase || S.phases.indexOf(S.phase) < 0) S.phase = S.phases[0] || null;
    buildTabs(); buildSummary(); buildSidebar();
    if (start) select(start.i);
    else if (!S.order.length) { $('pane').textContent = ''; note($('pane'), meta.live ? 'Waiting for the first pass…' : 'No passes were recorded.'); }
    emit('refresh');
  }
  // Where a reader starts: the first failure, else the first change, else
  // the first pass.
  function firstOfInterest() {
    var all = Array.from(S.recs.values()).sort(function (a, b) { return a.i - b.i; });
    return all.find(function (r) { return r.s === 'failed' && !all.some(function (c) { return c.pi === r.i && c.s === 'failed'; }); }) ||
      all.find(function (r) { return kind(r) === 'changed'; }) || S.order[0];
  }
  // The run's outcome, at the top: status, the error it ended with, the
  // failing pass (one click away), and the exit status where the front end
  // recorded one.
  function outcome(run) {
    var el = $('run-error'), all = Array.from(S.recs.values());
    var failed = all.filter(function (r) { return r.s === 'failed'; }).sort(function (a, b) { return a.i - b.i; });
    var innermost = failed.find(function (r) { return !failed.some(function (c) { return c.pi === r.i; }); });
    var bad = failed.length > 0 || !!meta.error || (run.exit !== undefined && run.exit !== 0);
    el.hidden = false; el.textContent = ''; el.className = bad ? 'bad' : 'ok';
    var changed = all.filter(function (r) { return kind(r) === 'changed'; }).length;
    var head = document.createElement('strong');
    head.textContent = meta.live && !S.liveEnded ? '… Running' : bad ? '✘ Failed' : '✔ Completed';
    el.appendChild(head);
    var bits = [plural(all.length, 'pass', 'passes'), changed + ' changed'];
    if (failed.length) bits.push(plural(failed.length, 'failed', 'failed'));
    if (run.exit !== undefined) bits.push('exit status ' + run.exit);
    el.appendChild(document.createTextNode(' · ' + bits.join(' · ')));
    if (innermost) {
      el.appendChild(document.createTextNode(' · '));
      var go = button('#' + pad(innermost.i) + ' ' + innermost.n + ' failed', function () { select(innermost.i); });
      go.className = 'go-fail'; go.title = 'Show the failed pass';
      el.appendChild(go);
      var first = (innermost.e || '').split('\n')[0];
      if (first) el.appendChild(document.createTextNode(': ' + first));
    }
    if (meta.error) el.appendChild(document.createTextNode(' · run ended with: ' + meta.error));
  }
  function note(parent, text, cls) {
    var p = document.createElement('div'); p.className = cls || 'msg'; p.textContent = text; parent.appendChild(p); return p;
  }
  function button(text, onclick, title) {
    var b = document.createElement('button'); b.type = 'button'; b.textContent = text;
    if (title) b.title = title;
    b.addEventListener('click', onclick);
    return b;
  }
  // Rebuilding a bar replaces its buttons: the one that had focus (Enter on
  // a tab or badge) gets it back, so the keyboard user stays where they were.
  function keepFocus(container, attr, build) {
    var f = document.activeElement, had = f && container.contains(f) ? f.getAttribute(attr) : null;
    build();
    if (had !== null) { var again = container.querySelector('[' + attr + '="' + had + '"]'); if (again) again.focus(); }
  }
  function buildTabs() { keepFocus($('tabs'), 'data-phase', buildTabsNow); }
  function buildSummary() { keepFocus($('summary'), 'data-filter', buildSummaryNow); }
  function buildTabsNow() {
    var tabs = $('tabs'); tabs.textContent = '';
    S.phases.forEach(function (p) {
      var b = button(prettyPhase(p), function () { showPhase(p, true); });
      b.className = 'tab' + (p === S.phase ? ' active' : '');
      b.dataset.phase = p; b.setAttribute('role', 'tab'); b.setAttribute('aria-selected', p === S.phase ? 'true' : 'false');
      tabs.appendChild(b);
    });
  }
  function buildSummaryNow() {
    var sum = $('summary'); sum.textContent = '';
    var recs = S.order.filter(function (r) { return r.p === S.phase; });
    var n = { changed: 0, noop: 0, codegen: 0, failed: 0, skipped: 0, nobefore: 0 };
    recs.forEach(function (r) { n[kind(r)]++; });
    var items = [['all', plural(recs.length, 'pass', 'passes')], ['changed', n.changed + ' changed'], ['noop', n.noop + ' no-op']];
    if (n.codegen) items.push(['codegen', n.codegen + ' codegen']);
    if (n.failed) items.push(['failed', '✘ ' + n.failed + ' failed']);
    if (n.skipped) items.push(['skipped', '— ' + n.skipped + ' skipped']);
    if (n.nobefore) items.push(['nobefore', n.nobefore + ' without before-text']);
    items.forEach(function (it) {
      var b = button(it[1], function () { setFilter(S.filter === it[0] ? 'all' : it[0]); });
      b.className = 'badge b-' + it[0] + (S.filter === 'all' ? '' : S.filter === it[0] ? ' on' : ' dim');
      b.dataset.filter = it[0]; b.setAttribute('aria-pressed', S.filter === it[0] ? 'true' : 'false');
      sum.appendChild(b);
    });
  }
  function statsOf(r) {
    var k = kind(r), st = document.createElement('span'); st.className = 'st';
    if (k === 'changed') {
      var p = document.createElement('span'); p.className = 'p'; p.textContent = '+' + realAdd(r);
      var m = document.createElement('span'); m.className = 'm'; m.textContent = ' −' + realDel(r);
      st.appendChild(p); st.appendChild(m);
      if (r.z) { var z = document.createElement('span'); z.className = 'z'; z.textContent = ' ≈' + r.z; st.appendChild(z); }
      st.title = plural(realAdd(r), 'line added', 'lines added') + ', ' + plural(realDel(r), 'line removed', 'lines removed') +
        (r.z ? '; ' + plural(r.z, 'line pair', 'line pairs') + ' only renumbered or re-spaced (noise)' : '');
    } else if (k === 'codegen') { st.textContent = langName(r.l); } else if (k === 'failed') { st.innerHTML = '<span class="err">ERROR</span>'; }
    else if (k === 'skipped') st.textContent = '—';
    return st;
  }
  function rowEl(r, parents) {
    var el = document.createElement('div');
    el.className = 'pl' + (r.i === S.cur ? ' active' : '');
    el.dataset.index = r.i; el.dataset.depth = r.dp; el.dataset.parentIndex = r.pi; el.dataset.kind = kind(r);
    el.style.paddingLeft = (6 + 14 * (r.dp || 0)) + 'px';
    var caret = document.createElement('span'); caret.className = 'caret';
    if (parents.has(r.i)) { caret.textContent = S.collapsed.has(r.i) ? '▸' : '▾'; caret.dataset.toggle = r.i; caret.title = 'Collapse/expand nested passes'; }
    var ix = document.createElement('span'); ix.className = 'ix'; ix.textContent = pad(r.i);
    var dot = document.createElement('span'); dot.className = 'dot ' + kind(r);
    var nm = document.createElement('span'); nm.className = 'nm'; nm.textContent = r.n; nm.title = r.n;
    el.setAttribute('role', 'option'); el.tabIndex = r.i === S.cur ? 0 : -1;
    el.setAttribute('aria-selected', r.i === S.cur ? 'true' : 'false');
    if (caret.dataset.toggle) {
      caret.setAttribute('role', 'button'); caret.tabIndex = 0;
      caret.setAttribute('aria-expanded', S.collapsed.has(r.i) ? 'false' : 'true');
      caret.setAttribute('aria-label', (S.collapsed.has(r.i) ? 'Expand' : 'Collapse') + ' the passes nested in ' + r.n);
    }
    // The unit a pass ran on (an LLVM function, loop or SCC; a nested MLIR
    // anchor) when a tab's passes ran on more than one.
    if (S.units && r.an) {
      var un = document.createElement('span'); un.className = 'un'; un.textContent = r.an;
      nm.appendChild(un); nm.title = r.n + ' on ' + r.an;
    }
    el.appendChild(caret); el.appendChild(ix); el.appendChild(dot); el.appendChild(nm); el.appendChild(statsOf(r));
    return el;
  }
  // Up to this many passes in a tab every row is an element (hidden when
  // filtered out). Beyond it (an LLVM trace has one pass per function per
  // pass: tens of thousands) the list is virtual: only the rows that pass the
  // filter are in the model, and only those in view are drawn. Building and
  // laying out 15,000 rows took about a second per tab switch or filter.
  var VIRTUAL_MIN = 2000;
  function buildSidebar() {
    var list = $('sb-list'); list.textContent = '';
    var recs = S.order.filter(function (r) { return r.p === S.phase; });
    var parents = new Set(recs.map(function (r) { return r.pi; }));
    var anchors = new Set(); recs.forEach(function (r) { if (anchors.size < 2) anchors.add(r.an || ''); });
    S.units = anchors.size > 1;
    if (recs.length >= VIRTUAL_MIN) {
      var rows = recs.filter(visible), pos = new Map();
      rows.forEach(function (r, k) { pos.set(r.i, k); });
      var spacer = document.createElement('div'); spacer.className = 'sb-spacer';
      var win = document.createElement('div'); win.className = 'sb-win';
      spacer.appendChild(win); list.appendChild(spacer);
      S.sb = { rows: rows, pos: pos, parents: parents, win: win, h: rowHeight(list, recs[0], parents) };
      spacer.style.height = rows.length * S.sb.h + 'px';
      drawSidebar();
      return;
    }
    S.sb = null;
    var frag = document.createDocumentFragment();
    recs.forEach(function (r) {
      var el = rowEl(r, parents);
      el.hidden = !visible(r);
      frag.appendChild(el);
    });
    list.appendChild(frag);
  }
  function rowHeight(list, r, parents) {
    var el = rowEl(r, parents);
    list.appendChild(el);
    var h = el.offsetHeight;
    el.remove();
    return h > 0 ? h : 22;  // 0 while the sidebar is hidden
  }
  // Draws the rows of a virtual sidebar that are in view, with a margin.
  function drawSidebar() {
    var sb = S.sb; if (!sb) return;
    var list = $('sb-list'), h = sb.h;
    var first = Math.max(0, Math.floor(list.scrollTop / h) - 30);
    var last = Math.min(sb.rows.length, Math.ceil((list.scrollTop + list.clientHeight) / h) + 30);
    sb.win.style.transform = 'translateY(' + first * h + 'px)';
    sb.win.textContent = '';
    var frag = document.createDocumentFragment();
    for (var k = first; k < last; k++) {
      var el = rowEl(sb.rows[k], sb.parents);
      el.style.height = h + 'px';
      frag.appendChild(el);
    }
    sb.win.appendChild(frag);
  }
  var sbQueued = false;
  $('sb-list').addEventListener('scroll', function () {
    if (!S.sb || sbQueued) return;
    sbQueued = true;
    requestAnimationFrame(function () { sbQueued = false; drawSidebar(); });
  });
  $('sb-list').addEventListener('click', function (e) {
    var t = e.target.closest('[data-toggle]');
    if (t) {
      var i = +t.dataset.toggle;
      if (S.collapsed.has(i)) S.collapsed.delete(i); else S.collapsed.add(i);
      buildSidebar(); return;
    }
    var pl = e.target.closest('.pl');
    if (pl) select(+pl.dataset.index);
  });
  function showPhase(p, pickFirst) {
    S.phase = p; buildTabs(); buildSummary(); buildSidebar();
    if (pickFirst) {
      var first = S.order.find(function (r) { return r.p === p && visible(r); }) || S.order.find(function (r) { return r.p === p; });
      if (first) select(first.i);
    }
  }
  function setFilter(f) {
    S.filter = f; buildSummary(); buildSidebar();
    var cur = S.recs.get(S.cur);
    if (!cur || !visible(cur)) {
      var first = S.order.find(function (r) { return r.p === S.phase && visible(r); });
      if (first) select(first.i);
    }
  }
  function select(i) {
    var r = S.recs.get(i); if (!r) return;
    cancelAlign();
    S.cur = i;
    if (r.p !== S.phase) showPhase(r.p, false);
    if (S.sb) {
      // Virtual sidebar: scroll the row into view by arithmetic, then draw.
      var k = S.sb.pos.get(i), list = $('sb-list'), h = S.sb.h;
      if (k !== undefined) {
        if (k * h < list.scrollTop) list.scrollTop = k * h;
        else if ((k + 1) * h > list.scrollTop + list.clientHeight) list.scrollTop = (k + 1) * h - list.clientHeight;
      }
      drawSidebar();
    } else {
      var els = $('sb-list').querySelectorAll('.pl.active');
      for (var n = 0; n < els.length; n++) { els[n].classList.remove('active'); els[n].tabIndex = -1; els[n].setAttribute('aria-selected', 'false'); }
      var el = $('sb-list').querySelector('.pl[data-index="' + i + '"]');
      if (el) { el.classList.add('active'); el.tabIndex = 0; el.setAttribute('aria-selected', 'true'); el.scrollIntoView({ block: 'nearest' }); }
    }
    render(r);
    emit('select', r);
  }
  function step(dir) {
    var seq = S.order.filter(visible);
    if (!seq.length) return;
    var pos = seq.findIndex(function (r) { return r.i === S.cur; });
    var next = pos < 0 ? 0 : Math.max(0, Math.min(seq.length - 1, pos + dir));
    select(seq[next].i);
  }

  // ---------- text rendering ----------
  function esc(s) {
    return s.replace(/[&<>"\u0000\udc80-\udcff]/g, function (c) {
      if (c >= '\udc80') return '<span class="badbyte" title="byte that is not valid UTF-8">\\x' + (c.charCodeAt(0) - 0xdc00).toString(16).toUpperCase() + '</span>';
      return c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '\u2400';
    });
  }
  // Syntax tokens and highlight spans merged into one run of <span>s.
  function hiText(text, lang, spans) {
    var toks = LTSyntax.tokens(text, lang);
    if (!toks.length && !(spans && spans.length)) return esc(text);
    var cuts = [0, text.length];
    toks.forEach(function (t) { cuts.push(t[0], t[1]); });
    (spans || []).forEach(function (s) { cuts.push(s[0], s[0] + s[1]); });
    cuts = Array.from(new Set(cuts)).sort(function (a, b) { return a - b; });
    var out = '', ti = 0, si = 0;
    for (var c = 0; c + 1 < cuts.length; c++) {
      var a = cuts[c], b = cuts[c + 1]; if (a >= text.length) break;
      while (ti < toks.length && toks[ti][1] <= a) ti++;
      while (spans && si < spans.length && spans[si][0] + spans[si][1] <= a) si++;
      var cls = [];
      if (ti < toks.length && toks[ti][0] <= a) cls.push(toks[ti][2]);
      if (spans && si < spans.length && spans[si][0] <= a) cls.push('hl');
      var seg = esc(text.slice(a, b));
      out += cls.length ? '<span class="' + cls.join(' ') + '">' + seg + '</span>' : seg;
    }
    return out;
  }

  // ---------- virtual list ----------
  // One wrapping rule at every size: long lines wrap inside their column
  // (breaking a token only when it is longer than the column), so Before and
  // After are always side by side. Up to WRAP_MAX rows are all in the DOM;
  // beyond that only the rows in view (plus a margin) are, each row's height
  // estimated from its length in monospace characters and corrected once it
  // has been drawn and measured.
  var WRAP_MAX = 400;
  function VList(box, count, rowHtml, rowChars, columns) {
    box.classList.add('vbox', 'wrap');
    var space = document.createElement('div'); space.className = 'vspace';
    var rows = document.createElement('div'); rows.className = 'vrows';
    space.appendChild(rows); box.appendChild(space);
    var heights = null, tops = null, width = -1;
    function perLine() {
      // Characters per visual line of one text column (gutters: ~6em a column).
      var probe = document.createElement('span'); probe.textContent = 'x'.repeat(50);
      probe.style.position = 'absolute'; probe.style.visibility = 'hidden'; probe.style.whiteSpace = 'pre';
      box.appendChild(probe); var cw = probe.getBoundingClientRect().width / 50 || 7; probe.remove();
      var col = (box.clientWidth || 1000) / (columns || 1) - 6 * 12;
      return Math.max(10, Math.floor(col / cw));
    }
    function estimate() {
      var cpl = perLine();
      heights = new Float64Array(self.count);
      for (var i = 0; i < self.count; i++) heights[i] = H * Math.max(1, Math.ceil((rowChars ? rowChars(i) : 0) / cpl));
      retop(0);
    }
    function retop(from) {
      if (!tops || tops.length !== self.count + 1) { tops = new Float64Array(self.count + 1); from = 0; }
      for (var i = from; i < self.count; i++) tops[i + 1] = tops[i] + heights[i];
      space.style.height = tops[self.count] + 'px';
    }
    function rowAt(y) { // last row whose top <= y
      var lo = 0, hi = self.count;
      while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (tops[mid] <= y) lo = mid; else hi = mid - 1; }
      return Math.min(lo, Math.max(0, self.count - 1));
    }
    var self = {
      count: count,
      virtual: function () { return self.count > WRAP_MAX && !S.printing; },
      draw: function () {
        var html = '', a = 0, b = self.count;
        if (!self.virtual()) {
          heights = null; space.style.height = ''; rows.style.top = '';
          box.classList.remove('virtual');
          for (var i = 0; i < self.count; i++) html += rowHtml(i);
          rows.innerHTML = html;
          return;
        }
        box.classList.add('virtual');
        if (!heights || heights.length !== self.count || box.clientWidth !== width) { width = box.clientWidth; estimate(); }
        var top = box.scrollTop, h = box.clientHeight || 800;
        a = Math.max(0, rowAt(top) - 30); b = Math.min(self.count, rowAt(top + h) + 31);
        var anchor = rowAt(top), anchorOff = top - tops[anchor];
        for (var k = a; k < b; k++) html += rowHtml(k);
        rows.innerHTML = html;
        rows.style.top = tops[a] + 'px';
        // Measure what was drawn; keep the first row in view where it was.
        var changed = false, kids = rows.children;
        for (var c = 0; c < kids.length && a + c < b; c++) {
          var hh = kids[c].offsetHeight;
          if (hh > 0 && hh !== heights[a + c]) { heights[a + c] = hh; changed = true; }
        }
        if (changed) {
          retop(a);
          rows.style.top = tops[a] + 'px';
          var want = tops[anchor] + anchorOff;
          if (Math.abs(box.scrollTop - want) > 1) { self.skip = true; box.scrollTop = want; }
        }
      },
      scrollToRow: function (i) {
        if (!self.virtual()) { var el = rows.children[i]; if (el) box.scrollTop = Math.max(0, el.offsetTop - box.clientHeight / 3); }
        else { box.scrollTop = Math.max(0, tops[i] - box.clientHeight / 3); self.draw(); }
      }
    };
    var queued = false;
    box.addEventListener('scroll', function () {
      if (self.skip) { self.skip = false; return; }
      if (queued || !self.virtual()) return; queued = true;
      requestAnimationFrame(function () { queued = false; self.draw(); });
    });
    self.draw();
    return self;
  }

  // ---------- diff view ----------
  function buildRows(la, lb, a0, b0) {
    var rows = [];
    LTDiff.lines(la, lb).forEach(function (op) {
      var ap = op[1] + a0, al = op[2], bp = op[3] + b0, bl = op[4];
      if (op[0] === 'e') { for (var k = 0; k < al; k++) rows.push({ k: 'e', l: ap + k, r: bp + k }); return; }
      // Inside a change block, first line up the lines that are equal up to
      // SSA renumbering (a diff of their canonical forms), so renumbered
      // lines face each other and render as noise; pair the rest by
      // position. Both columns stay monotone.
      if (al && bl && al + bl <= 4000) {
        var ca = la.slice(op[1], op[1] + al).map(LTDiff.canonSSA);
        var cb = lb.slice(op[3], op[3] + bl).map(LTDiff.canonSSA);
        LTDiff.lines(ca, cb).forEach(function (q) { pairByPosition(rows, ap + q[1], q[2], bp + q[3], q[4]); });
        return;
      }
      pairByPosition(rows, ap, al, bp, bl);
    });
    return rows;
  }
  function pairByPosition(rows, ap, al, bp, bl) {
    for (var j = 0; j < Math.max(al, bl); j++)
      rows.push({ k: 'c', l: j < al ? ap + j : -1, r: j < bl ? bp + j : -1 });
  }
  function initialFolds(rows) {
    var folds = [], i = 0;
    while (i < rows.length) {
      if (rows[i].k !== 'e') { i++; continue; }
      var s = i; while (i < rows.length && rows[i].k === 'e') i++;
      var hs = s === 0 ? 0 : s + CONTEXT, he = i === rows.length ? i : i - CONTEXT;
      if (he - hs > 0) folds.push({ s: hs, e: he });
    }
    return folds;
  }
  function DiffView(box, A, B, la, lb, onChange) {
    var v = { A: A, B: B, la: la, lb: lb, rows: null, folds: null, init: null, disp: null, hl: -1, pinL: -1, pinR: -1 };
    v.setRows = function (rows, fold) {
      LTDiff.markNoise(A.lines, B.lines, rows);
      v.rows = rows; v.init = fold ? initialFolds(rows) : [];
      v.folds = v.init.map(function (f) { return { s: f.s, e: f.e }; });
      v.layout();
    };
    v.layout = function () {
      var disp = [], i = 0;
      v.folds.forEach(function (f, fi) { while (i < f.s) disp.push(i++); disp.push(-1 - fi); i = f.e; });
      while (i < v.rows.length) disp.push(i++);
      v.disp = disp;
      if (v.list) { v.list.count = disp.length; v.list.draw(); }
      if (onChange) onChange(v);
    };
    v.expand = function (fi, all) {
      var f = v.folds[fi]; if (!f) return;
      if (all) f.s = f.e; else { f.s += EXPAND_STEP; f.e -= EXPAND_STEP; }
      if (f.s >= f.e) v.folds.splice(fi, 1);
      v.layout();
    };
    v.showAll = function () { v.folds = []; v.layout(); };
    v.collapse = function () { v.folds = v.init.map(function (f) { return { s: f.s, e: f.e }; }); v.layout(); };
    v.expanded = function () { return v.folds.length === 0; };
    // What the rows show: real added/removed lines and noise pairs.
    v.counts = function () {
      var n = { add: 0, del: 0, noise: 0 };
      v.rows.forEach(function (row) {
        if (row.k === 'e') return;
        if (row.nz === 'r' || row.nz === 'w') { n.noise++; return; }
        if (row.l >= 0) n.del++;
        if (row.r >= 0) n.add++;
      });
      return n;
    };
    v.pristine = function () {
      return v.folds.length === v.init.length && v.folds.every(function (f, i) { return f.s === v.init[i].s && f.e === v.init[i].e; });
    };
    function side(row, which, cls, spans) {
      var idx = which === 'l' ? row.l : row.r, ls = which === 'l' ? A.lines : B.lines, lang = which === 'l' ? la : lb;
      if (idx < 0) return '<span class="ln"></span><span class="sg"></span><span class="tx"></span>';
      var pend = S.align && which === 'l' && S.align.left === idx ? ' pending' : '';
      var sign = cls === 'del' ? '−' : cls === 'add' ? '+' : cls === 'ws' ? '~' : cls === 'rn' ? '≈' : '';
      return '<span class="ln' + pend + '" tabindex="0" role="button" aria-label="' + (which === 'l' ? 'Before' : 'After') + ' line ' + (idx + 1) + '" data-side="' + which + '" data-line="' + idx + '">' + (idx + 1) + '</span>' +
        '<span class="sg ' + cls + '">' + sign + '</span><span class="tx ' + cls + '">' + hiText(ls[idx], lang, spans) + '</span>';
    }
    v.rowHtml = function (di) {
      var ri = v.disp[di];
      if (ri < 0) {
        var f = v.folds[-1 - ri], n = f.e - f.s;
        return '<div class="r fold" tabindex="0" role="button" data-fold="' + (-1 - ri) + '" title="Click: ' + EXPAND_STEP + ' lines each way; Alt+click: all">↑↓ Expand (' + n + ' hidden line' + (n === 1 ? '' : 's') + ')</div>';
      }
      var row = v.rows[ri], cls = 'r d' + (ri === v.hl ? ' sel' : '') + (row.pin ? ' pin' : '');
      if (row.k === 'e') return '<div class="' + cls + '" data-row="' + ri + '">' + side(row, 'l', '') + side(row, 'r', '') + '</div>';
      if (row.l >= 0 && row.r >= 0) {
        if (!row.il) row.il = LTDiff.intraline(A.lines[row.l], B.lines[row.r]);
        var c = row.nz === 'w' ? 'ws' : row.nz === 'r' ? 'rn' : null;
        var title = c === 'rn' ? ' title="SSA renumbering only: the same line under one renaming of the whole snapshot"' : '';
        return '<div class="' + cls + (c ? ' ' + c + 'row' : '') + '" data-row="' + ri + '"' + title + '>' + side(row, 'l', c || 'del', row.il.a) + side(row, 'r', c || 'add', row.il.b) + '</div>';
      }
      return '<div class="' + cls + '" data-row="' + ri + '">' + side(row, 'l', 'del') + side(row, 'r', 'add') + '</div>';
    };
    v.realign = function (L, R) {
      var a = A.lines, b = B.lines;
      var rows = buildRows(a.slice(0, L), b.slice(0, R), 0, 0);
      rows.push({ k: a[L] === b[R] ? 'e' : 'c', l: L, r: R, pin: true });
      rows = rows.concat(buildRows(a.slice(L + 1), b.slice(R + 1), L + 1, R + 1));
      v.setRows(rows, true);
      var at = v.disp.findIndex(function (ri) { return ri >= 0 && v.rows[ri].pin; });
      if (at >= 0) v.list.scrollToRow(at);
    };
    v.setRows(buildRows(A.lines, B.lines, 0, 0), true);
    v.list = VList(box, v.disp.length, v.rowHtml, function (di) {
      var ri = v.disp[di]; if (ri < 0) return 0;
      var row = v.rows[ri];
      return Math.max(row.l >= 0 ? A.lines[row.l].length : 0, row.r >= 0 ? B.lines[row.r].length : 0);
    }, 2);
    box.addEventListener('click', function (e) {
      var fold = e.target.closest('.fold');
      if (fold) { v.expand(+fold.dataset.fold, e.altKey); return; }
      var ln = e.target.closest('.ln[data-line]');
      if (!ln) return;
      var line = +ln.dataset.line, sideName = ln.dataset.side;
      if (S.align) { alignClick(v, sideName, line); return; }
      var rowEl = ln.closest('[data-row]'), ri = rowEl ? +rowEl.dataset.row : -1;
      v.hl = v.hl === ri ? -1 : ri; v.list.draw();
    });
    return v;
  }

  // Single-column numbered listing (no-op and failed passes).
  // side: 'l' or 'r', which text of the record the lines are (for plug-ins
  // that look a line up, such as source locations).
  function Listing(box, T, lang, side) {
    var hl = -1, sideAttr = side ? '" data-side="' + side : '';
    var list = VList(box, T.lines.length, function (i) {
      return '<div class="r s' + (i === hl ? ' sel' : '') + '" data-row="' + i + '"><span class="ln" tabindex="0" role="button" aria-label="Line ' + (i + 1) + '" data-line="' + i + sideAttr + '">' + (i + 1) +
        '</span><span class="tx">' + hiText(T.lines[i], lang) + '</span></div>';
    }, function (i) { return T.lines[i].length; }, 1);
    box.addEventListener('click', function (e) {
      var ln = e.target.closest('.ln[data-line]'); if (!ln) return;
      var i = +ln.dataset.line; hl = hl === i ? -1 : i; list.draw();
    });
    return list;
  }

  // ---------- sections ----------
  function render(r) {
    var tok = ++S.tok, pane = $('pane'), k = kind(r);
    S.view = null;
    pane.textContent = '';
    var head = document.createElement('div'); head.className = 'sec-head'; head.title = 'Click to fold this pass';
    var h2 = document.createElement('h2'); h2.textContent = pad(r.i) + '. ' + r.n;
    var pill = document.createElement('span'); pill.className = 'pill ' + k;
    pill.textContent = { changed: 'CHANGED', noop: 'NO-OP', failed: '✘ FAILED', codegen: 'CODEGEN', skipped: '— SKIPPED', nobefore: 'NO BEFORE-TEXT' }[k];
    head.appendChild(h2); head.appendChild(pill);
    pane.appendChild(head);
    var metaBits = [prettyPhase(r.p)];
    if (r.an) metaBits.push('on ' + r.an);
    if (r.ms !== undefined && r.ms >= 0) metaBits.push(r.ms.toFixed(r.ms < 10 ? 2 : 0) + ' ms');
    if (r.il) metaBits.push(langName(r.il));
    if (r.dt) metaBits.push(r.dt);
    if (r.pi >= 0) metaBits.push('inside #' + r.pi);
    var m = note(pane, metaBits.join(' · '), 'sec-meta'); m.title = metaBits.join('\n');
    var body = document.createElement('div'); body.className = 'sec-body'; pane.appendChild(body);
    head.addEventListener('click', function () { body.classList.toggle('folded'); });
    var done = function () { if (tok === S.tok) document.documentElement.dataset.rendered = String(r.i); };
    var fail = function (e) { if (tok === S.tok) { note(body, 'Could not read this pass: ' + e.message, 'errbox'); done(); } };

    if (k === 'changed') {
      var lbl = hook('labels', r, ['Before', 'After']);
      diffInto(body, r.b, r.f, r.il, r.l || r.il, lbl[0], lbl[1], done, fail, tok);
    } else if (k === 'codegen') {
      codegenInto(body, r, done, fail, tok);
    } else if (k === 'noop') {
      note(body, 'This pass did not modify the IR.');
      irOnDemand(body, r.f >= 0 ? r.f : r.b, r.il, '▶ Show full IR', '▼ Collapse IR', 'IR', done, fail, tok);
    } else if (k === 'failed') {
      var eb = document.createElement('div'); eb.className = 'errbox';
      var lbl = document.createElement('div'); lbl.className = 'lbl'; lbl.textContent = 'Exception';
      var pre = document.createElement('pre'); pre.textContent = r.e || '(no message)';
      eb.appendChild(lbl); eb.appendChild(pre); body.appendChild(eb);
      if (r.b >= 0) {
        note(body, 'IR before this pass (execution failed):', 'sec-meta');
        irOnDemand(body, r.b, r.il, '▶ Show before IR', '▼ Hide before IR', 'Before', done, fail, tok);
      } else done();
      if (r.f >= 0) {  // an imported MLIR failure dump shows the IR the pass left
        note(body, 'IR after the failure (from the dump):', 'sec-meta');
        irOnDemand(body, r.f, r.l || r.il, '▶ Show IR after the failure', '▼ Hide IR after the failure', 'After', function () {}, fail, tok);
      }
    } else if (k === 'nobefore') {
      note(body, 'The dump shows no IR before this pass (the first dump of this unit), so whether it changed anything is unknown. The IR after it:');
      irOnDemand(body, r.f, r.l || r.il, '▶ Show IR after', '▼ Collapse IR', 'IR', done, fail, tok);
    } else {
      note(body, 'This pass did not run' + (r.e ? ': ' + r.e : '.'));
      done();
    }
  }
  // A side-by-side diff of two snapshots with its toolbar and counts.
  function diffInto(body, keyA, keyB, langA, langB, lblA, lblB, done, fail, tok) {
    var bar = document.createElement('div'); bar.className = 'toolbar'; body.appendChild(bar);
    var showAll = button('⊞ Show all context', function () { S.view && S.view.showAll(); });
    var collapse = button('⊟ Collapse', function () { S.view && S.view.collapse(); });
    var copyA = button('Copy ' + lblA, function () { copyFrom(keyA, lblA); });
    var copyB = button('Copy ' + lblB, function () { copyFrom(keyB, lblB); });
    copyA.className = copyB.className = 'copy';
    var counts = document.createElement('span'); counts.className = 'vcounts';
    [showAll, collapse, copyA, copyB, counts].forEach(function (b) { bar.appendChild(b); });
    Promise.all([pieces(keyA), pieces(keyB)]).then(function (ab) {
      if (tok !== S.tok) return;
      var A = asLines(view(ab[0])), B = asLines(view(ab[1]));
      if (A.text === B.text) { showAll.disabled = collapse.disabled = true; note(body, 'No differences.'); return done(); }
      var same = A.lines.length === B.lines.length && A.lines.every(function (l, i) { return l === B.lines[i]; });
      if (same) {
        showAll.disabled = collapse.disabled = true;
        note(body, 'Only the trailing newline differs (before: ' + (A.nl ? 'present' : 'absent') + ', after: ' + (B.nl ? 'present' : 'absent') + ').');
        return done();
      }
      if (A.nl !== B.nl) note(body, 'The trailing newline also differs (before: ' + (A.nl ? 'present' : 'absent') + ', after: ' + (B.nl ? 'present' : 'absent') + ').', 'sec-meta');
      var box = document.createElement('div'); body.appendChild(box);
      S.view = DiffView(box, A, B, langA, langB, function (v) {
        showAll.disabled = v.expanded(); collapse.disabled = v.pristine();
      });
      var n = S.view.counts();
      counts.textContent = '+' + n.add + ' −' + n.del + (n.noise ? ' · ≈ ' + plural(n.noise, 'line pair', 'line pairs') + ' only renumbered or re-spaced' : '');
      counts.dataset.add = n.add; counts.dataset.del = n.del; counts.dataset.noise = n.noise;
      done();
    }, fail);
  }
  // The codegen record: the generated code as code; a diff only against
  // the same kernel's previous codegen in this run (never MLIR against PTX).
  function codegenInto(body, r, done, fail, tok) {
    var prev = null;
    S.order.forEach(function (c) { if (c.s === 'codegen' && c.i < r.i && (c.an || '') === (r.an || '') && c.f >= 0) prev = c; });
    var bar = document.createElement('div'); bar.className = 'toolbar'; bar.setAttribute('role', 'group'); body.appendChild(bar);
    var holder = document.createElement('div'); holder.className = 'sec-body'; body.appendChild(holder);
    var gen = 'Generated ' + langName(r.l), low = 'Lowered ' + langName(r.il);
    var modes = [['code', gen]];
    if (prev) modes.push(['diff', 'Diff against #' + pad(prev.i)]);
    modes.push(['lowered', low]);
    var btns = {};
    modes.forEach(function (m) { btns[m[0]] = button(m[1], function () { show(m[0]); }); btns[m[0]].className = 'mode'; btns[m[0]].dataset.mode = m[0]; bar.appendChild(btns[m[0]]); });
    var copyG = button('Copy ' + langName(r.l), function () { copyFrom(r.f, langName(r.l)); }); copyG.className = 'copy';
    var copyL = button('Copy ' + langName(r.il), function () { copyFrom(r.b, langName(r.il)); }); copyL.className = 'copy';
    bar.appendChild(copyG); bar.appendChild(copyL);
    if (!prev) note(body, 'The first codegen of ' + (r.an ? r.an : 'this kernel') + ' in this run: no earlier one to diff against.', 'sec-meta').className += ' cg-first';
    var first = true;
    function show(mode) {
      Object.keys(btns).forEach(function (k2) { btns[k2].setAttribute('aria-pressed', k2 === mode ? 'true' : 'false'); });
      holder.textContent = ''; S.view = null;
      var fin = first ? done : function () {}; first = false;
      if (mode === 'diff') return diffInto(holder, prev.f, r.f, prev.l || r.l, r.l, '#' + pad(prev.i), 'this', fin, fail, tok);
      var key = mode === 'code' ? r.f : r.b, lang = mode === 'code' ? r.l : r.il;
      var box = document.createElement('div'); holder.appendChild(box);
      pieces(key).then(function (p) { if (tok === S.tok) { Listing(box, asLines(view(p)), lang, mode === 'code' ? 'r' : 'l'); fin(); } }, fail);
    }
    show('code');
  }
  function irOnDemand(body, key, lang, showLabel, hideLabel, copyLabel, done, fail, tok) {
    var bar = document.createElement('div'); bar.className = 'toolbar'; body.appendChild(bar);
    var box = document.createElement('div'); box.hidden = true; body.appendChild(box);
    var listing = null;
    var toggle = button(showLabel, function () {
      if (!box.hidden) { box.hidden = true; toggle.textContent = showLabel; return; }
      box.hidden = false; toggle.textContent = hideLabel;
      if (listing) { listing.draw(); return; }
      pieces(key).then(function (p) { if (tok === S.tok && !listing) listing = Listing(box, asLines(view(p)), lang); }, fail);
    });
    toggle.className = 'toggle-ir';
    var copy = button('Copy ' + copyLabel, function () { copyFrom(key, copyLabel); });
    copy.className = 'copy';
    bar.appendChild(toggle); bar.appendChild(copy);
    done();
  }

  // ---------- copy ----------
  function toast(text) {
    var t = $('toast'); t.textContent = text; t.hidden = false; t.classList.remove('fade');
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { t.classList.add('fade'); toast.timer = setTimeout(function () { t.hidden = true; }, 400); }, 1500);
  }
  function copyFrom(key, label) {
    pieces(key).then(function (p) {
      var text = p ? p.join('\n').replace(/[\udc80-\udcff]/g, '\ufffd') : '';
      var fallback = function () {
        var ta = document.createElement('textarea'); ta.value = text; document.body.appendChild(ta); ta.select();
        var ok = false; try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
        ta.remove(); toast(ok ? 'Copied ' + label : 'Copy failed');
      };
      if (navigator.clipboard && navigator.clipboard.writeText)
        navigator.clipboard.writeText(text).then(function () { toast('Copied ' + label); }, fallback);
      else fallback();
    }, function (e) { toast('Copy failed: ' + e.message); });
  }

  // ---------- F7 manual alignment ----------
  function banner(text) { var b = $('banner'); b.textContent = text || ''; b.hidden = !text; }
  function cancelAlign() {
    if (!S.align) return;
    S.align = null; banner('');
    var box = document.querySelector('.vbox.aligning'); if (box) box.classList.remove('aligning');
    if (S.view) S.view.list.draw();
  }
  function f7() {
    if (!S.view) return;
    if (!S.align) {
      S.align = { step: 1, left: -1 };
      S.view.list && document.querySelector('.vbox') && document.querySelector('.vbox').classList.add('aligning');
      banner('Manual alignment: click a line number on the LEFT, then press F7 (Esc cancels)');
    } else if (S.align.step === 1 && S.align.left >= 0) {
      S.align.step = 2;
      banner('Now click a line number on the RIGHT to pin line ' + (S.align.left + 1) + ' to it (F7 or Esc cancels)');
    } else cancelAlign();
  }
  function alignClick(v, sideName, line) {
    if (S.align.step === 1 && sideName === 'l') { S.align.left = line; v.list.draw(); return; }
    if (S.align.step === 2 && sideName === 'r') {
      var L = S.align.left;
      S.align = null; banner(''); document.querySelector('.vbox').classList.remove('aligning');
      v.realign(L, line);
      toast('Aligned left ' + (L + 1) + ' with right ' + (line + 1));
    }
  }

  // ---------- keys, theme, sidebar chrome ----------
  // Elements that act on click but are not buttons (pass rows, carets, fold
  // rows, line numbers) take Enter and Space too; arrows move in the pass list.
  var KEY_TARGETS = '.pl, .caret[data-toggle], .r.fold, .ln[data-line]';
  function focusCurrentRow() {
    var el = $('sb-list').querySelector('.pl[data-index="' + S.cur + '"]'); if (el) el.focus();
  }
  document.addEventListener('keydown', function (e) {
    var t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
    if (e.key === 'F7') { e.preventDefault(); f7(); return; }
    if (e.key === 'Escape') { if (!$('lt-help').hidden) { help(false); return; } cancelAlign(); return; }
    if (e.key === '?') { e.preventDefault(); help($('lt-help').hidden); return; }
    var kt = t && t.closest ? t.closest(KEY_TARGETS) : null;
    if (kt && (e.key === 'Enter' || e.key === ' ') && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      var target = kt, pass = kt.classList.contains('pl') ? +kt.dataset.index : null;
      var toggle = kt.dataset.toggle, fold = kt.dataset.fold, line = kt.dataset.line, sideName = kt.dataset.side;
      target.dispatchEvent(new MouseEvent('click', { bubbles: true, altKey: e.altKey }));
      // What was clicked is drawn anew: focus the same thing (or the next fold) again.
      var again = toggle !== undefined ? $('sb-list').querySelector('.caret[data-toggle="' + toggle + '"]')
        : fold !== undefined ? document.querySelector('.vbox .r.fold[data-fold="' + fold + '"]') || document.querySelector('.vbox .r.fold')
        : line !== undefined ? document.querySelector('.vbox .ln[data-line="' + line + '"]' + (sideName ? '[data-side="' + sideName + '"]' : ''))
        : null;
      if (again) again.focus(); else if (pass !== null) focusCurrentRow();
      return;
    }
    if (kt && kt.classList.contains('pl') && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
      var caret = kt.querySelector('.caret[data-toggle]'), i = +kt.dataset.index;
      if (caret && S.collapsed.has(i) === (e.key === 'ArrowRight')) { e.preventDefault(); caret.click(); focusCurrentRow(); }
      return;
    }
    if (t && t.closest && t.closest('#sb-list') && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault(); step(e.key === 'ArrowDown' ? 1 : -1); focusCurrentRow(); return;
    }
    // Ctrl/Alt/Meta combinations belong to the browser (Ctrl+J is Downloads).
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    if (e.key === 'j' && !e.shiftKey) { e.preventDefault(); step(1); }
    else if (e.key === 'k' && !e.shiftKey) { e.preventDefault(); step(-1); }
    else if (e.key === 'E' && e.shiftKey) {
      e.preventDefault();
      if (S.view) { if (S.view.expanded()) S.view.collapse(); else S.view.showAll(); }
    }
  });
  var HELP = [['j / k', 'next / previous pass'], ['↑ / ↓', 'next / previous pass (in the pass list)'],
    ['Enter / Space', 'select the focused pass; toggle a caret; expand a fold (Alt+Enter: all of it); pick a line number'],
    ['Tab', 'move between tabs, filters, passes, folds and line numbers'],
    ['Shift+E', 'show all context / collapse'], ['F7', 'align a Before line with an After line (then Enter on line numbers)'],
    ['Esc', 'cancel alignment; close this help'], ['?', 'this help']];
  function help(show) {
    var h = $('lt-help');
    if (!h) return;
    if (show && !h.firstChild) {
      var box = document.createElement('div'); box.className = 'help-box';
      var t = document.createElement('h2'); t.textContent = 'Keyboard shortcuts'; box.appendChild(t);
      var dl = document.createElement('dl');
      HELP.forEach(function (kv) {
        var dt = document.createElement('dt'), dd = document.createElement('dd');
        dt.textContent = kv[0]; dd.textContent = kv[1]; dl.appendChild(dt); dl.appendChild(dd);
      });
      box.appendChild(dl);
      var close = button('Close', function () { help(false); }); box.appendChild(close);
      h.appendChild(box);
    }
    if (show) { help.back = document.activeElement; h.hidden = false; h.querySelector('button').focus(); }
    else { h.hidden = true; if (help.back && help.back.focus) help.back.focus(); }
  }
  (function () {
    var h = document.createElement('div'); h.id = 'lt-help'; h.hidden = true;
    h.setAttribute('role', 'dialog'); h.setAttribute('aria-modal', 'true'); h.setAttribute('aria-label', 'Keyboard shortcuts');
    h.addEventListener('click', function (e) { if (e.target === h) help(false); });
    document.body.appendChild(h);
  })();
  // Printing draws every row of a long listing (a virtual one holds only
  // the rows in view).
  window.addEventListener('beforeprint', function () { S.printing = true; if (S.view) S.view.list.draw(); });
  window.addEventListener('afterprint', function () { S.printing = false; if (S.view) S.view.list.draw(); });
  function applyTheme(t) {
    document.documentElement.setAttribute('data-theme', t);
    $('theme-btn').textContent = t === 'dark' ? '☀ Light' : '☾ Dark';
  }
  function storedTheme() { try { return localStorage.getItem('lower-trace-theme'); } catch (e) { return null; } }
  var darkQuery = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  function systemTheme() { return darkQuery && darkQuery.matches ? 'dark' : 'light'; }
  function toggleTheme() {
    var t = document.documentElement.getAttribute('data-theme') === 'dark' ? 'light' : 'dark';
    applyTheme(t);
    try { localStorage.setItem('lower-trace-theme', t); } catch (e) { /* storage off: session only */ }
  }
  var st = storedTheme();
  applyTheme(st === 'dark' || st === 'light' ? st : systemTheme());
  if (darkQuery && darkQuery.addEventListener) darkQuery.addEventListener('change', function () {
    var s = storedTheme(); if (s !== 'dark' && s !== 'light') applyTheme(systemTheme());
  });
  $('theme-btn').addEventListener('click', toggleTheme);
  $('help-btn').addEventListener('click', function () { help(true); });

  $('sb-collapse').addEventListener('click', function () { document.body.classList.add('sb-hidden'); $('sb-open').hidden = false; });
  $('sb-open').addEventListener('click', function () {
    document.body.classList.remove('sb-hidden'); $('sb-open').hidden = true;
    if (S.sb) buildSidebar();  // a virtual list measures its rows, which needs them shown
  });
  try { var w = +localStorage.getItem('lower-trace-sidebar'); if (w >= 150 && w <= 600) document.documentElement.style.setProperty('--sb-w', w + 'px'); } catch (e) { }
  $('sb-resize').addEventListener('mousedown', function (e) {
    e.preventDefault();
    var x0 = e.clientX, w0 = $('sidebar').getBoundingClientRect().width, w = w0;
    function move(ev) {
      w = Math.max(150, Math.min(600, w0 + ev.clientX - x0));
      document.documentElement.style.setProperty('--sb-w', w + 'px');
    }
    function up() {
      document.removeEventListener('mousemove', move); document.removeEventListener('mouseup', up);
      try { localStorage.setItem('lower-trace-sidebar', String(Math.round(w))); } catch (err) { }
      if (S.view) S.view.list.draw();
    }
    document.addEventListener('mousemove', move); document.addEventListener('mouseup', up);
  });
  window.addEventListener('resize', function () { if (S.view) S.view.list.draw(); drawSidebar(); });

  window.LTViewer = {
    S: S, meta: meta, plug: function (p) { plugs.push(p); }, pieces: pieces,
    select: select, kind: kind, prettyPhase: prettyPhase, button: button, note: note, esc: esc, pad: pad, toast: toast,
    rebuild: function () { buildSummary(); buildSidebar(); var r = S.recs.get(S.cur); if (r) render(r); }
  };

  // ---------- start ----------
  ingest(meta.recs, meta.snaps);
  if (meta.live) startLive(meta.chunkDirs || ['report_data/']);

  // While the run is live the chunks are files beside the page; load them in
  // order, a few at a time, and keep polling for new ones.
  function startLive(dirs) {
    var dir = null, next = 0, BATCH = 16;
    function name(n) { return ('00000' + n).slice(-6) + '.js'; }
    function load(d, n) {
      return new Promise(function (ok) {
        var s = document.createElement('script');
        s.src = d + (typeof n === 'number' ? name(n) : n);
        s.onload = function () { s.remove(); ok(true); };
        s.onerror = function () { s.remove(); ok(false); };
        document.head.appendChild(s);
      });
    }
    function pick(i) {
      if (i >= dirs.length) { setTimeout(function () { pick(0); }, 1500); return; }
      load(dirs[i], 0).then(function (ok) { if (ok) { dir = dirs[i]; next = 1; pump(); } else pick(i + 1); });
    }
    // A full batch while catching up; one probe at a time once at the end.
    var batchSize = BATCH;
    function pump() {
      var batch = [];
      for (var n = next; n < next + batchSize; n++) batch.push(load(dir, n));
      Promise.all(batch).then(function (res) {
        var got = res.indexOf(false); if (got < 0) got = res.length;
        next += got;
        batchSize = got === res.length ? BATCH : 1;
        if (got === res.length) return pump();
        // At the end of what is there. A run that finishes writes the final
        // report and removes its chunk folder: when even chunk 0 is gone,
        // stop polling and say so (loading it again is a no-op otherwise).
        load(dir, 0).then(function (alive) {
          if (!alive) { S.liveEnded = true; refresh(); return; }
          checkBeat().then(function () {
            if (S.liveDead) { refresh(); return; }  // nothing more will come
            setTimeout(pump, 1500);
          });
        });
      });
    }
    // The writer rewrites beat.js with a growing counter while it lives (a
    // long pass included). A counter that stops moving for many beats means
    // it was killed, or crashed where nothing could finish the run. No
    // beat.js at all (an older writer): no verdict.
    var beatSeen, beatAt = Date.now(), staleMs = Math.max(3000, 10 * (meta.beatMs || 1000));
    function checkBeat() {
      return load(dir, 'beat.js').then(function (ok) {
        var now = Date.now();
        if (!ok || S.beat !== beatSeen) { beatSeen = S.beat; beatAt = now; return; }
        if (now - beatAt > staleMs) S.liveDead = new Date(beatAt).toLocaleTimeString();
      });
    }
    pick(0);
  }
})();
