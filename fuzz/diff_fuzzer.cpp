// The diff engine on any two texts: the line script tiles both inputs and
// rebuilds b; the unified diff, applied to a by a strict patch applier
// (context and removed lines must match exactly, as GNU patch with no fuzz),
// gives b byte for byte, "\ No newline at end of file" included; its +/-
// counts are stats(); unified(a, a) is empty; classify() counts stay within
// the pairs. tests/integration/diff_patch_property.sh checks the same
// property with the real GNU patch on generated pairs.
//
// Input: byte 0 = context lines (0..7), then a and b separated by the first NUL
// (no NUL: the second half is b).
#include "lowertrace/diff.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {
using namespace lowertrace::diff;

[[noreturn]] void fail(const char *what, std::string_view a, std::string_view b, const std::string &u) {
  std::fprintf(stderr, "diff invariant broken: %s\n--- a (%zu bytes)\n%.*s\n--- b (%zu bytes)\n%.*s\n--- unified\n%s\n",
               what, a.size(), int(a.size()), a.data(), b.size(), int(b.size()), b.data(), u.c_str());
  std::abort();
}

// Strict unified-diff applier: returns false where GNU patch (no fuzz, no
// offset) would reject the diff; otherwise *out is the patched text.
bool apply_unified(std::string_view a, const std::string &u, std::string *out, int *adds, int *dels) {
  Lines al = split_lines(a);
  std::vector<std::string_view> ul = split_lines(u).lines;
  if (ul.size() < 3 || ul[0].substr(0, 4) != "--- " || ul[1].substr(0, 4) != "+++ ") return false;
  std::vector<std::string_view> res;
  bool res_nl = true;  // whether the result's last line ends with '\n'
  size_t ai = 0, k = 2;
  while (k < ul.size()) {
    std::string hs(ul[k++]);
    unsigned a0 = 0, an = 1, b0 = 0, bn = 1;
    if (std::sscanf(hs.c_str(), "@@ -%u,%u +%u,%u @@", &a0, &an, &b0, &bn) != 4 &&
        (an = 1, bn = 1, std::sscanf(hs.c_str(), "@@ -%u +%u,%u @@", &a0, &b0, &bn) != 3) &&
        (an = 1, bn = 1, std::sscanf(hs.c_str(), "@@ -%u,%u +%u @@", &a0, &an, &b0) != 3) &&
        (an = 1, bn = 1, std::sscanf(hs.c_str(), "@@ -%u +%u @@", &a0, &b0) != 2))
      return false;
    size_t start = an == 0 ? a0 : a0 - 1;  // insertions go after line a0
    if (start < ai || start > al.lines.size()) return false;
    while (ai < start) res.push_back(al.lines[ai++]), res_nl = true;
    unsigned seen_a = 0, seen_b = 0;
    char last = 0;
    while (k < ul.size()) {
      std::string_view l = ul[k];
      if (!l.empty() && l[0] == '\\') {  // "\ No newline at end of file": the line before
        if (last == 0) return false;
        if ((last == '-' || last == ' ') && (ai != al.lines.size() || al.final_newline)) return false;
        if (last == '+' || last == ' ') res_nl = false;
        ++k;
        continue;
      }
      if (seen_a == an && seen_b == bn) break;
      if (l.empty()) return false;
      char c = l[0];
      std::string_view body = l.substr(1);
      if (c != ' ' && c != '-' && c != '+') return false;
      if (c != '+') {
        if (ai >= al.lines.size() || al.lines[ai] != body) return false;
        ++ai, ++seen_a;
      }
      if (c != '-') res.push_back(body), ++seen_b, res_nl = true;
      *adds += c == '+';
      *dels += c == '-';
      last = c;
      ++k;
    }
    if (seen_a != an || seen_b != bn) return false;
  }
  if (ai < al.lines.size()) {
    while (ai < al.lines.size()) res.push_back(al.lines[ai++]);
    res_nl = al.final_newline;
  }
  out->clear();
  for (size_t t = 0; t < res.size(); ++t) {
    out->append(res[t]);
    if (t + 1 < res.size() || res_nl) out->push_back('\n');
  }
  return true;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  std::string_view in(reinterpret_cast<const char *>(data) + 1, size - 1);
  size_t cut = in.find('\0');
  std::string_view a = cut == std::string_view::npos ? in.substr(0, in.size() / 2) : in.substr(0, cut);
  std::string_view b = cut == std::string_view::npos ? in.substr(in.size() / 2) : in.substr(cut + 1);

  Lines al = split_lines(a), bl = split_lines(b);
  std::vector<Op> ops = diff_lines(al.lines, bl.lines);
  uint32_t i = 0, j = 0;
  for (const Op &op : ops) {
    if (op.a_pos != i || op.b_pos != j) fail("script does not tile the inputs", a, b, "");
    if (op.kind == Op::Equal) {
      if (op.a_len != op.b_len || op.a_len == 0) fail("bad Equal run", a, b, "");
      for (uint32_t t = 0; t < op.a_len; ++t)
        if (al.lines[i + t] != bl.lines[j + t]) fail("Equal run of different lines", a, b, "");
    } else if ((op.kind == Op::Delete) != (op.b_len == 0) || op.a_len + op.b_len == 0) {
      fail("bad Delete/Insert run", a, b, "");
    }
    i += op.a_len;
    j += op.b_len;
  }
  if (i != al.lines.size() || j != bl.lines.size()) fail("script does not cover the inputs", a, b, "");

  UnifiedOptions uo;
  uo.context = data[0] & 7;
  std::string u = unified(a, b, uo);
  if (!unified(a, a, uo).empty()) fail("unified(a, a) is not empty", a, a, "");
  Stats st = stats(a, b);
  if (a == b) {
    if (!u.empty()) fail("equal texts gave a diff", a, b, u);
    return 0;
  }
  if (u.empty()) fail("different texts gave no diff", a, b, u);
  std::string patched;
  int adds = 0, dels = 0;
  if (!apply_unified(a, u, &patched, &adds, &dels)) fail("the diff does not apply to a", a, b, u);
  if (patched != b) fail("a patched with the diff is not b", a, b, u);
  if (adds != st.add_lines || dels != st.del_lines) fail("stats() disagree with the diff", a, b, u);
  ChangeSummary cs = classify(a, b);
  if (cs.stats.add_lines != st.add_lines || cs.stats.del_lines != st.del_lines ||
      cs.paired > std::min(st.add_lines, st.del_lines) ||
      cs.renumbered + cs.whitespace_only > cs.paired || cs.renumbered < 0)
    fail("classify() counts out of range", a, b, u);
  return 0;
}
