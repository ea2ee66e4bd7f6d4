// Links: the URL's fragment names the selected pass (#pass=<index>), so a
// reload, a bookmark or a link pasted into another tab opens the same pass.
// A report written with a preferred pass (meta.open, e.g. `lowertrace
// compare`'s first difference) opens there when the link names none.
'use strict';
(function (V) {
  if (!V) return;
  function fromHash() {
    var m = /(?:^#|&)pass=(\d+)/.exec(location.hash || '');
    return m ? +m[1] : undefined;
  }
  function linkTo(i) { return location.href.replace(/#.*$/, '') + '#pass=' + i; }
  V.linkTo = linkTo;
  V.plug({
    initial: function () {
      var i = fromHash();
      if (i !== undefined && V.S.recs.has(i)) return i;
      return V.meta.open;
    },
    select: function (r) {
      if (fromHash() === r.i) return;
      // replaceState: walking passes with j/k should not fill the history.
      try { history.replaceState(null, '', '#pass=' + r.i); } catch (e) { location.replace('#pass=' + r.i); }
    }
  });
  window.addEventListener('hashchange', function () {
    var i = fromHash();
    if (i !== undefined && i !== V.S.cur && V.S.recs.has(i)) V.select(i);
  });
  var copy = V.button('🔗 Copy link', function () {
    var url = linkTo(V.S.cur), done = function (ok) { V.toast && V.toast(ok ? 'Copied link' : 'Copy failed'); };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(url).then(function () { done(true); }, function () { done(false); });
    else done(false);
  }, 'Copy a link to this pass');
  copy.id = 'ft-link';
  document.getElementById('ftools').appendChild(copy);
})(window.LTViewer);
