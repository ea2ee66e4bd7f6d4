// diff/ssa.cpp - SSA renumbering detection.
//
// After a pass inserts one op near the top of a function, MLIR/LLVM/PTX
// printers renumber every later value (%5 -> %6, ^bb2 -> ^bb3, %r12 -> %r13),
// so a one-line change shows up as hundreds of changed lines. Such a line pair
// is noise only if the renaming is consistent over the whole snapshot: one
// bijection of value, block and alias names maps the old line onto the new
// one. Per line, a pair is a candidate when the lines are equal once each
// name becomes its order of first appearance in the line; a candidate is
// noise when every name in it maps through the snapshot-wide renaming, which
// each name's first appearance (its definition, in IR printed in dominance
// order) fixes. Swapped operands, a use rewired to another value (CSE, GVN,
// a fold) or to a new one break it, and stay real changes.
#include "core.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

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

// One name as written: its sigil ('%', '^' or '#') and the text after it.
struct Name {
  char sigil;
  std::string_view text;
};

// The line with each name replaced by its per-line number (per sigil); the
// names themselves, in order, when `names` is given.
std::string canonical(std::string_view s, std::vector<Name> *names = nullptr) {
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
        if (names) names->push_back({c, name});
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
        if (names) names->push_back({c, s.substr(i + 1, j - i - 1)});
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

// The function a header line opens, or "": value and block names are
// numbered per function (MLIR: per isolated op, LLVM and PTX: per function),
// so %0 in @f and %0 in @g are different values. Recognised: MLIR
// `func.func`, `llvm.func`, `tt.func`, `gpu.func`... `@name(`, LLVM
// `define ... @name(`, PTX `.entry name(` and `.func [(ret)] name(`.
std::string_view function_of(std::string_view line) {
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos) return {};
  std::string_view t = line.substr(i);
  auto symbol_from = [&](std::size_t from) -> std::string_view {
    std::size_t at = t.find('@', from);
    if (at == std::string_view::npos) return {};
    std::size_t e = at + 1;
    if (e < t.size() && t[e] == '"') {
      e = t.find('"', e + 1);
      e = e == std::string_view::npos ? t.size() : e + 1;
    } else {
      while (e < t.size() && is_name_char(t[e])) ++e;
    }
    return t.substr(at, e - at);
  };
  if (t.starts_with("define ")) return symbol_from(7);
  std::size_t w = 0;
  while (w < t.size() && is_name_char(t[w])) ++w;
  std::string_view op = t.substr(0, w);
  if (w < t.size() && t[w] == ' ' && op.size() > 5 && op.ends_with(".func")) return symbol_from(w);
  for (std::string_view kw : {std::string_view(".entry "), std::string_view(".func ")}) {
    std::size_t k = t.find(kw);
    if (k == std::string_view::npos || (k > 0 && t[k - 1] != ' ' && t[k - 1] != '\t')) continue;
    std::size_t b = k + kw.size();
    while (b < t.size() && t[b] == ' ') ++b;
    if (b < t.size() && t[b] == '(') {  // .func (.reg .b32 r) name(
      b = t.find(')', b);
      if (b == std::string_view::npos) return {};
      ++b;
      while (b < t.size() && t[b] == ' ') ++b;
    }
    std::size_t e = b;
    while (e < t.size() && t[e] != '(' && t[e] != ' ' && t[e] != '\t') ++e;
    if (e > b) return t.substr(b, e - b);
  }
  return {};
}

// One side of a diff: every line's names and where each name is defined:
// the line it starts, else its first appearance (IR is printed in dominance
// order). Per function; attribute aliases are global.
class Side {
 public:
  struct At {
    std::uint32_t line, pos;
  };
  explicit Side(const std::vector<std::string_view> &lines) : names_(lines.size()), scope_(lines.size()) {
    std::string_view scope;
    std::string key;
    for (std::uint32_t i = 0; i < lines.size(); ++i) {
      if (std::string_view f = function_of(lines[i]); !f.empty()) scope = f;
      scope_[i] = scope;
      canonical(lines[i], &names_[i]);
      for (std::uint32_t k = 0; k < names_[i].size(); ++k) {
        key_of(i, k, key);
        first_.try_emplace(key, At{i, k});
      }
      // A name that starts its line is defined there (`#loc3 = loc(...)`
      // after its uses, a block label after the branches to it).
      std::string_view t = lines[i].substr(std::min(lines[i].find_first_not_of(" \t"), lines[i].size()));
      if (!names_[i].empty() && !t.empty() && t[0] == names_[i][0].sigil &&
          t.substr(1, names_[i][0].text.size()) == names_[i][0].text) {
        key_of(i, 0, key);
        first_.insert_or_assign(key, At{i, 0});
      }
    }
  }
  const std::vector<Name> &names(std::uint32_t i) const { return names_[i]; }
  void key_of(std::uint32_t i, std::uint32_t k, std::string &key) const {
    const Name &n = names_[i][k];
    key.clear();
    if (n.sigil != '#') key.append(scope_[i]);
    key += '\x01';
    key += n.sigil;
    key.append(n.text);
  }
  At first(const std::string &key) const { return first_.at(key); }

 private:
  std::vector<std::vector<Name>> names_;
  std::vector<std::string_view> scope_;
  std::unordered_map<std::string, At> first_;
};

// The snapshot-wide renaming implied by the line pairing: a name maps to the
// name at the same place in the line paired with its first appearance.
class Renaming {
 public:
  Renaming(const std::vector<std::string_view> &a, const std::vector<std::string_view> &b,
           std::vector<std::int64_t> pair_a, std::vector<std::int64_t> pair_b)
      : a_(a), b_(b), pair_a_(std::move(pair_a)), pair_b_(std::move(pair_b)) {}

  // Is b line j line i of a with its names mapped (both ways) by the renaming?
  bool maps(std::uint32_t i, std::uint32_t j) const {
    const auto &na = a_.names(i), &nb = b_.names(j);
    if (na.size() != nb.size()) return false;
    for (std::uint32_t k = 0; k < na.size(); ++k) {
      if (na[k].sigil != nb[k].sigil) return false;
      a_.key_of(i, k, ka_);
      b_.key_of(j, k, kb_);
      if (!image(a_, b_, pair_a_, ka_, kb_) || !image(b_, a_, pair_b_, kb_, ka_)) return false;
    }
    return true;
  }

 private:
  // Does `from`'s name `key` map onto `to`'s name `want`?
  bool image(const Side &from, const Side &to, const std::vector<std::int64_t> &pair,
             const std::string &key, const std::string &want) const {
    Side::At d = from.first(key);
    std::int64_t p = pair[d.line];
    if (p < 0) return false;  // defined by a line that has no counterpart: a new value
    to.key_of(static_cast<std::uint32_t>(p), d.pos, tmp_);
    return tmp_ == want;
  }
  Side a_, b_;
  std::vector<std::int64_t> pair_a_, pair_b_;
  mutable std::string ka_, kb_, tmp_;
};

// The line with every name erased: an op whose operands changed keeps it.
std::string shape(std::string_view s) {
  std::string c = strip_spaces(canonical(s)), out;
  for (std::size_t i = 0; i < c.size(); ++i) {
    out += c[i];
    if (c[i] == '\x01')
      while (i + 1 < c.size() && c[i + 1] != '\x02') ++i;
  }
  return out;
}

// Pairs the changed lines left unpaired between two matched pairs when they
// have the same shape: the same op with other operands (a rewired use). Such
// a pair is a real change, but it still says which new value an old one
// became, so the uses of its result further down can be renumbering.
void pair_same_shape(const std::vector<std::string_view> &a, const std::vector<std::string_view> &b,
                     const std::vector<Op> &ops, std::vector<std::int64_t> &pa,
                     std::vector<std::int64_t> &pb) {
  std::vector<std::uint32_t> ua, ub;
  std::vector<std::string> sa, sb;
  auto flush = [&] {
    if (!ua.empty() && !ub.empty()) {
      sa.clear(), sb.clear();
      for (auto i : ua) sa.push_back(shape(a[i]));
      for (auto j : ub) sb.push_back(shape(b[j]));
      std::vector<std::string_view> va(sa.begin(), sa.end()), vb(sb.begin(), sb.end());
      for (const Op &m : diff_lines(va, vb))
        if (m.kind == Op::Equal)
          for (std::uint32_t t = 0; t < m.a_len; ++t) {
            pa[ua[m.a_pos + t]] = ub[m.b_pos + t];
            pb[ub[m.b_pos + t]] = ua[m.a_pos + t];
          }
    }
    ua.clear(), ub.clear();
  };
  for (std::size_t k = 0; k + 1 < ops.size(); ++k) {
    if (ops[k].kind != Op::Delete || ops[k + 1].kind != Op::Insert) continue;
    const Op &del = ops[k], &ins = ops[k + 1];
    // Matched pairs are monotone: segments lie between consecutive ones.
    std::uint32_t j = ins.b_pos, je = ins.b_pos + ins.b_len;
    for (std::uint32_t i = del.a_pos; i <= del.a_pos + del.a_len; ++i) {
      bool end = i == del.a_pos + del.a_len;
      if (end || pa[i] >= 0) {
        std::uint32_t stop = end ? je : static_cast<std::uint32_t>(pa[i]);
        for (; j < stop; ++j) ub.push_back(j);
        flush();
        j = stop + 1;
      } else {
        ua.push_back(i);
      }
    }
  }
}

// Calls f(i, j, kind) for each matched pair of changed lines: kind 's' same
// text, 'w' whitespace only, 'r' a consistent renaming, 'x' a real change
// that only looks like one line's renaming.
template <class F>
void for_each_pair(const std::vector<std::string_view> &a, const std::vector<std::string_view> &b,
                   const std::vector<Op> &ops, F f) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> cand;
  bool renamed = false;
  for_each_match(a, b, ops, [&](std::uint32_t i, std::uint32_t j) {
    cand.emplace_back(i, j);
    if (a[i] != b[j] && strip_spaces(a[i]) != strip_spaces(b[j])) renamed = true;
  });
  std::optional<Renaming> ren;
  if (renamed) {
    std::vector<std::int64_t> pa(a.size(), -1), pb(b.size(), -1);
    for (const Op &op : ops)
      if (op.kind == Op::Equal)
        for (std::uint32_t t = 0; t < op.a_len; ++t) pa[op.a_pos + t] = op.b_pos + t, pb[op.b_pos + t] = op.a_pos + t;
    for (auto [i, j] : cand) pa[i] = j, pb[j] = i;
    pair_same_shape(a, b, ops, pa, pb);
    ren.emplace(a, b, std::move(pa), std::move(pb));
  }
  for (auto [i, j] : cand) {
    std::string_view x = a[i], y = b[j];
    if (x == y) f(i, j, 's');
    else if (strip_spaces(x) == strip_spaces(y)) f(i, j, 'w');
    else f(i, j, ren->maps(i, j) ? 'r' : 'x');
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
  for_each_pair(a, b, ops, [&](std::uint32_t, std::uint32_t, char kind) { n += kind == 'r'; });
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
  for_each_pair(a.lines, b.lines, ops, [&](std::uint32_t, std::uint32_t, char kind) {
    ++out.paired;
    if (kind == 'w') ++out.whitespace_only;
    else if (kind == 'r') ++out.renumbered;
  });
  return out;
}

}  // namespace lowertrace::diff
