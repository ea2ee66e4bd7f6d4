// lowertrace viewer: small syntax colouring for MLIR, LLVM IR and PTX (and a
// C-like fallback for generated sources). One regex per language family; a
// token is [start, end, class]. Colour only, never structure.
'use strict';
var LTSyntax = (function () {
  var STR = '"(?:[^"\\\\]|\\\\.)*"';
  var NUM = '-?\\b(?:0x[0-9a-fA-F]+|\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)\\b';
  var families = {
    mlir: new RegExp([
      '(//.*)', '(' + STR + ')', '(%[\\w.$#-]+)', '(\\^[\\w.$-]+)', '(@[\\w.$-]+|@' + STR + ')',
      '(\\b(?:[isu]\\d+|f16|bf16|f32|f64|f8\\w*|index|none|tensor|memref|vector|tuple|complex|ptr)\\b|![\\w.$-]+)',
      '(' + NUM + ')', '(\\b[a-z_][\\w$]*(?:\\.[\\w$]+)+\\b|\\b(?:func|module|return|loc|attributes|dense|to|step|iter_args)\\b)',
      '(#[\\w.$-]+)'].join('|'), 'g'),
    llvm: new RegExp([
      '(;.*)', '(c?' + STR + ')', '(%[\\w.$-]+|%"[^"]*")', '(\\b[\\w.$-]+:(?=\\s|$))', '(@[\\w.$-]+)',
      '(\\b(?:i\\d+|half|bfloat|float|double|void|ptr|label|metadata|x86_fp80)\\b|![\\w.$-]+)',
      '(' + NUM + ')',
      '(\\b(?:define|declare|call|tail|ret|br|switch|load|store|alloca|getelementptr|inbounds|phi|select|icmp|fcmp|add|sub|mul|udiv|sdiv|fadd|fsub|fmul|fdiv|and|or|xor|shl|lshr|ashr|zext|sext|trunc|bitcast|ptrtoint|inttoptr|fptosi|sitofp|fpext|fptrunc|unreachable|global|constant|private|internal|external|nsw|nuw|align|to|target|datalayout|triple|attributes|dso_local|nounwind)\\b)',
      '(#\\d+)'].join('|'), 'g'),
    ptx: new RegExp([
      '(//.*)', '(' + STR + ')', '(%[\\w$]+)', '(\\$?[A-Za-z_][\\w$]*:)', '(\\[[\\w$]+\\])',
      '(\\.(?:[usbf]\\d+|pred|b\\d+x\\d+)\\b)', '(' + NUM + ')',
      '(\\.[a-z_]\\w*|\\b(?:ld|st|mov|add|sub|mul|mad|fma|cvt|cvta|setp|selp|bra|ret|exit|bar|atom|red|shl|shr|and|or|xor|not|neg|abs|min|max|div|rem|ex2|lg2|rcp|sqrt|mma|wmma|ldmatrix|cp|membar|fence|shfl|vote|call)\\b)',
      '(@!?%\\w+)'].join('|'), 'g'),
    c: new RegExp([
      '(//.*|/\\*.*?\\*/)', '(' + STR + "|'(?:[^'\\\\]|\\\\.)*')", '(#\\s*\\w+)', '(\\b[A-Z_][A-Z0-9_]{2,}\\b)', '(\\b__\\w+\\b)',
      '(\\b(?:void|int|unsigned|float|double|half|char|bool|auto|const|size_t|u?int\\d+_t|long|short|struct|class|template|typename)\\b)',
      '(' + NUM + ')',
      '(\\b(?:if|else|for|while|do|return|break|continue|switch|case|default|static|inline|extern|namespace|using|sizeof|new|delete)\\b)',
      '(\\w+(?=\\())'].join('|'), 'g')
  };
  var CLASSES = ['sx-c', 'sx-s', 'sx-v', 'sx-b', 'sx-g', 'sx-t', 'sx-n', 'sx-k', 'sx-a'];

  function family(lang) {
    lang = (lang || '').toLowerCase();
    if (lang === 'llvm' || lang === 'llvm-ir' || lang === 'll' || lang === 'mir') return 'llvm';
    if (lang === 'ptx') return 'ptx';
    if (/^(c|c\+\+|cpp|cuda|cu|hip|metal|opencl|cl|h)$/.test(lang)) return 'c';
    if (lang === 'mlir' || lang === 'ttir' || lang === 'ttgir' || lang === 'tir' || lang === '') return 'mlir';
    return null;
  }

  function tokens(line, lang) {
    var f = family(lang), re = f && families[f], out = [];
    if (!re || line.length > 2000) return out;
    re.lastIndex = 0;
    var m;
    while ((m = re.exec(line))) {
      if (!m[0].length) { re.lastIndex++; continue; }
      for (var g = 1; g < m.length; g++) {
        if (m[g] !== undefined) { out.push([m.index, m.index + m[0].length, CLASSES[g - 1]]); break; }
      }
    }
    return out;
  }
  return { tokens: tokens, family: family };
})();
