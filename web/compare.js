// A `lowertrace compare` report: each aligned pass shows run A's output
// against run B's, so the diff sides are named after the runs, and the
// header says what was compared and how the pass sequences line up.
'use strict';
(function (V) {
  var c = V && V.meta.compare;
  if (!c) return;
  V.plug({ labels: function () { return V.meta.labels; } });
  var el = document.createElement('div'); el.id = 'ft-compare'; el.className = 'ft-compare';
  el.textContent = 'Comparing A: ' + c.a + (c.a_label ? ' (' + c.a_label + ')' : '') + '  with  B: ' + c.b +
    (c.b_label ? ' (' + c.b_label + ')' : '') + ' · ' + (c.same + c.differ) + ' passes aligned, ' + c.differ + ' differ, ' +
    c.only_a + ' only in A, ' + c.only_b + ' only in B' + (c.first >= 0 ? ' · first difference: #' + c.first : ' · no aligned pass differs');
  var tools = document.getElementById('ftools');
  tools.parentNode.insertBefore(el, tools);
})(window.LTViewer);
