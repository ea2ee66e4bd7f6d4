// diff/ssa.cpp - SSA renumbering detection.
//
// After a pass inserts one op near the top of a function, MLIR/LLVM/PTX
// printers renumber every later value (%5 -> %6, ^bb2 -> ^bb3, %r12 -> %r13),
// so a one-line change shows up as hundreds of changed lines. A line is put
// in a canonical form where each name becomes its order of first appearance
// in that line; two lines equal in that form differ only by renumbering.
// Attribute aliases (#loc3, #map1, LLVM #0) are renumbered the same way.
#include "core.h"

#include <algorithm>
#include <array>
#include <string>

namespace lowertrace::diff {
namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '$' ||
         c == '.' || c == '_' || c == '-';
}

bool is_alias_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c == '-';
}

// PTX special registers name hardware state, not values: %tid.x vs %ctaid.x
// is a real change.
bool is_ptx_special(std::string_view name) {
  static constexpr std::array<std::string_view, 14> kSpecial = {
      "tid",    "ntid",   "ctaid",     "nctaid",  "laneid",      "warpid",   "nwarpid",
      "smid",   "nsmid",  "gridid",    "clock",   "clock64",     "globaltimer", "lanemask"};
  for (auto s : kSpecial) {
    if (name.size() < s.size() || name.compare(0, s.size(), s) != 0) continue;
    if (name.size() == s.size() || name[s.size()] == '.' || name[s.size()] == '_') return true;
  }
  return false;
}

// Each distinct name in a line gets the next small number, per sigil.
class Namer {
 public:
  std::size_t index(std::string_view name) {
    auto it = std::find(names_.begin(), names_.end(), name);
    if (it != names_.end()) return static_cast<std::size_t>(it - names_.begin());
    names_.push_back(name);
    return names_.size() - 1;
  }

 private:
  std::vector<std::string_view> names_;  // lines hold few names: linear is fine
};

std::string canonical(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  Namer values, blocks, aliases;
  std::size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == '"') {  // string literal: copied verbatim ("%d" in a format string is no name)
      std::size_t j = i + 1;
      while (j < s.size() && s[j] != '"') j += (s[j] == '\\' && j + 1 < s.size()) ? 2 : 1;
      j = std::min(j + 1, s.size());
      out.append(s.substr(i, j - i));
      i = j;
      continue;
    }
    if ((c == '%' || c == '^') && i + 1 < s.size()) {
      std::size_t j = i + 1;
      if (c == '%' && s[j] == '"') {  // LLVM quoted name %"a b"
        ++j;
        while (j < s.size() && s[j] != '"') ++j;
        j = std::min(j + 1, s.size());
      } else {
        while (j < s.size() && is_name_char(s[j])) ++j;
        // MLIR result number: %0#1
        if (c == '%' && j + 1 < s.size() && s[j] == '#' && s[j + 1] >= '0' && s[j + 1] <= '9') {
          ++j;
          while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
        }
      }
      std::string_view name = s.substr(i + 1, j - i - 1);
      if (!name.empty() && !(c == '%' && is_ptx_special(name))) {
        out += c;
        out += '\x01';  // cannot collide with printed text
        out += std::to_string((c == '%' ? values : blocks).index(name));
        out += '\x02';
        i = j;
        continue;
      }
    }
    if (c == '#' && i + 1 < s.size()) {
      // Attribute aliases (#loc12, #blocked1, #map3; LLVM's #0 attribute
      // groups) are numbered by the printer just like values. A dot after the
      // identifier makes it a dialect attribute (#ttg.shared<...>): kept.
      std::size_t j = i + 1;
      while (j < s.size() && is_alias_char(s[j])) ++j;
      if (j > i + 1 && (j == s.size() || s[j] != '.')) {
        out += c;
        out += '\x01';
        out += std::to_string(aliases.index(s.substr(i + 1, j - i - 1)));
        out += '\x02';
        i = j;
        continue;
      }
    }
    out += c;
    ++i;
  }
  return out;
}

std::string strip_spaces(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\r' && c != '\v' && c != '\f') out += c;
  return out;
}

// Calls f(i, j) for each (deleted a[i], inserted b[j]) pair matched on the
// canonical form (names renamed first, then spaces removed), within each change of the script.
template <class F>
void for_each_match(const std::vector<std::string_view> &a, const std::vector<std::string_view> &b,
                    const std::vector<Op> &ops, F f) {
  std::vector<std::string> ka, kb;
  for (std::size_t k = 0; k + 1 < ops.size(); ++k) {
    if (ops[k].kind != Op::Delete || ops[k + 1].kind != Op::Insert) continue;
    const Op &del = ops[k], &ins = ops[k + 1];
    ka.clear(), kb.clear();
    for (std::uint32_t t = 0; t < del.a_len; ++t) ka.push_back(strip_spaces(canonical(a[del.a_pos + t])));
    for (std::uint32_t t = 0; t < ins.b_len; ++t) kb.push_back(strip_spaces(canonical(b[ins.b_pos + t])));
    if (ka.size() == 1 || kb.size() == 1) {  // common and cheap: first match is an LCS
      for (std::size_t p = 0, q = 0; p < ka.size() && q < kb.size();) {
        if (ka[p] == kb[q]) {
          f(del.a_pos + static_cast<std::uint32_t>(p), ins.b_pos + static_cast<std::uint32_t>(q));
          break;
        }
        ka.size() == 1 ? ++q : ++p;
      }
      continue;
    }
    std::vector<std::string_view> va(ka.begin(), ka.end()), vb(kb.begin(), kb.end());
    for (const Op &m : diff_lines(va, vb)) {
      if (m.kind != Op::Equal) continue;
      for (std::uint32_t t = 0; t < m.a_len; ++t) f(del.a_pos + m.a_pos + t, ins.b_pos + m.b_pos + t);
    }
  }
}

}  // namespace

bool equal_modulo_ssa(std::string_view a, std::string_view b) {
  if (a == b) return true;
  return canonical(a) == canonical(b);
}

int renumbered_pairs(const std::vector<std::string_view> &a, const std::vector<std::string_view> &b,
                     const std::vector<Op> &ops) {
  int n = 0;
  for_each_match(a, b, ops, [&](std::uint32_t i, std::uint32_t j) {
    if (a[i] != b[j] && strip_spaces(a[i]) != strip_spaces(b[j])) ++n;
  });
  return n;
}

ChangeSummary classify(std::string_view before, std::string_view after) {
  ChangeSummary out;
  if (before == after) return out;
  const Lines a = split_lines(before), b = split_lines(after);
  const std::vector<Op> ops = detail::diff_texts(a, b);
  for (const Op &op : ops) {
    if (op.kind == Op::Delete) out.stats.del_lines += static_cast<int>(op.a_len);
    if (op.kind == Op::Insert) out.stats.add_lines += static_cast<int>(op.b_len);
  }
  out.stats.only_final_newline = a.final_newline != b.final_newline && a.lines == b.lines;
  for_each_match(a.lines, b.lines, ops, [&](std::uint32_t i, std::uint32_t j) {
    std::string_view x = a.lines[i], y = b.lines[j];
    ++out.paired;
    if (x == y) return;  // same text (e.g. only its trailing newline changed)
    if (strip_spaces(x) == strip_spaces(y)) ++out.whitespace_only;
    else ++out.renumbered;
  });
  return out;
}

}  // namespace lowertrace::diff
