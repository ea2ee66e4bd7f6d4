// diff/intraline.cpp - which parts of a paired changed line differ.
//
// Lines are cut into tokens (identifier/number runs, whitespace runs, single
// punctuation characters) and the token sequences are diffed exactly with
// the same Myers core. Each changed stretch is then trimmed of the characters
// it shares at both ends with its counterpart, so `%12` vs `%13` highlights
// just `2` / `3`: word granularity to pair things up, character granularity
// in what gets highlighted.
#include "core.h"

#include <algorithm>
#include <cctype>

namespace lowertrace::diff {
namespace {

bool is_word(unsigned char c) { return std::isalnum(c) || c == '_'; }
bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::vector<std::string_view> tokenize(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t j = i + 1;
    auto c = static_cast<unsigned char>(s[i]);
    if (is_word(c)) {
      while (j < s.size() && is_word(static_cast<unsigned char>(s[j]))) ++j;
    } else if (is_space(c)) {
      while (j < s.size() && is_space(static_cast<unsigned char>(s[j]))) ++j;
    }
    out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::string strip_spaces(std::string_view s) {
  std::string out;
  for (char c : s)
    if (!is_space(static_cast<unsigned char>(c)) && c != '\n') out += c;
  return out;
}

// Byte offset of token k (or the end of the line for k == tokens.size()).
std::uint32_t offset(const std::vector<std::string_view> &t, std::string_view line, std::size_t k) {
  if (k == t.size()) return static_cast<std::uint32_t>(line.size());
  return static_cast<std::uint32_t>(t[k].data() - line.data());
}

}  // namespace

LinePairDiff intraline(std::string_view a, std::string_view b) {
  LinePairDiff out;
  if (a == b) return out;
  out.whitespace_only = strip_spaces(a) == strip_spaces(b);
  const auto ta = tokenize(a), tb = tokenize(b);
  detail::Interned in = detail::intern(ta, tb);
  detail::Marks m = detail::myers(in.a, in.b, in.alphabet, /*exact=*/ta.size() + tb.size() < 4000);
  // Each change: a[s..i) tokens vs b[t..j) tokens, as byte ranges.
  const auto ops = detail::ops_from_marks(m);
  for (std::size_t k = 0; k < ops.size(); ++k) {
    if (ops[k].kind == Op::Equal) continue;
    std::uint32_t a0 = offset(ta, a, ops[k].a_pos), b0 = offset(tb, b, ops[k].b_pos);
    std::uint32_t a1 = a0, b1 = b0;
    std::size_t q = k;
    for (; q < ops.size() && ops[q].kind != Op::Equal; ++q) {
      a1 = offset(ta, a, ops[q].a_pos + ops[q].a_len);
      b1 = offset(tb, b, ops[q].b_pos + ops[q].b_len);
    }
    k = q - 1;
    // Trim shared characters at both ends (only within a real replacement).
    if (a1 > a0 && b1 > b0) {
      while (a0 < a1 && b0 < b1 && a[a0] == b[b0]) ++a0, ++b0;
      while (a1 > a0 && b1 > b0 && a[a1 - 1] == b[b1 - 1]) --a1, --b1;
    }
    if (a1 > a0) out.a_spans.push_back({a0, a1 - a0});
    if (b1 > b0) out.b_spans.push_back({b0, b1 - b0});
  }
  return out;
}

}  // namespace lowertrace::diff
