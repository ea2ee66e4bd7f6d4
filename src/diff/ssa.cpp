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
  switch (name.empty() ? 0 : name[0]) {  // most names: one compare
    case 't': case 'n': case 'c': case 'l': case 'w': case 's': case 'g': break;
    default: return false;
  }
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

// Walks a line: on_name(sigil, name) for each name, on_text(piece) for the
// text between them (a string literal is one piece: "%d" is no name).
template <class OnName, class OnText>
void scan(std::string_view s, OnName on_name, OnText on_text) {
  std::size_t i = 0, text = 0;
  auto name_at = [&](std::size_t end, char sigil, std::string_view name) {
    on_text(s.substr(text, i - text));
    on_name(sigil, name);
    i = text = end;
  };
  while (i < s.size()) {
    // Most bytes start nothing: skip them in a tight loop.
    static constexpr auto kStarts = [] {
      std::array<bool, 256> t{};
      t['"'] = t['%'] = t['^'] = t['#'] = true;
      return t;
    }();
    while (i < s.size() && !kStarts[static_cast<unsigned char>(s[i])]) ++i;
    if (i >= s.size()) break;
    char c = s[i];
    if (c == '"') {
      std::size_t j = i + 1;
      while (j < s.size() && s[j] != '"') j += (s[j] == '\\' && j + 1 < s.size()) ? 2 : 1;
      i = std::min(j + 1, s.size());
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
        name_at(j, c, name);
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
        name_at(j, c, s.substr(i + 1, j - i - 1));
        continue;
      }
    }
    ++i;
  }
  on_text(s.substr(text));
}

// The line with each name replaced by its per-line number (per sigil).
std::string canonical(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  Namer values, blocks, aliases;
  scan(
      s,
      [&](char c, std::string_view name) {
        out += c;
        out += '\x01';  // cannot collide with printed text
        out += std::to_string((c == '%' ? values : c == '^' ? blocks : aliases).index(name));
        out += '\x02';
      },
      [&](std::string_view text) { out.append(text); });
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
  if (t[0] != '.') return {};  // PTX directives start the line
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

// A name within its function (attribute aliases: scope "").
struct Key {
  std::string_view scope;
  char sigil;
  std::string_view text;
  bool operator==(const Key &) const = default;
};
struct KeyHash {
  std::size_t operator()(const Key &k) const {
    std::size_t h = std::hash<std::string_view>{}(k.text) * 31 + static_cast<unsigned char>(k.sigil);
    return h ^ (std::hash<std::string_view>{}(k.scope) << 1);
  }
};

// One side of a diff: where each name of interest is defined. A value (%)
// at its first appearance (IR is printed in dominance order); a block label
// (^) or an alias (#) at the line it starts (`^bb2(...):` after branches to
// it, `#loc3 = loc(...)` after its uses), else its first appearance. Per
// function; aliases are global. Only the names of the candidate lines are
// looked up, behind a counting filter: this scans whole snapshots.
class Side {
 public:
  struct At {
    std::uint32_t line = UINT32_MAX, pos = 0;
    bool done = false;  // no later line can be its definition
  };
  explicit Side(const std::vector<std::string_view> &lines) : lines_(lines), scope_(lines.size()) {
    scopes_.emplace_back();
    for (std::uint32_t i = 0; i < lines.size(); ++i) {
      if (std::string_view f = function_of(lines[i]); !f.empty()) scopes_.push_back(f);
      scope_[i] = static_cast<std::uint32_t>(scopes_.size() - 1);
    }
  }
  std::vector<Name> names(std::uint32_t i) const {
    std::vector<Name> out;
    scan(lines_[i], [&](char c, std::string_view n) { out.push_back({c, n}); }, [](std::string_view) {});
    return out;
  }
  Key key(std::uint32_t i, const Name &n) const {
    return {n.sigil == '#' ? std::string_view() : scopes_[scope_[i]], n.sigil, n.text};
  }
  void want(std::uint32_t i) {
    for (const Name &n : names(i))
      if (defs_.try_emplace(key(i, n)).second) ++pending_[bucket(n.text)], ++left_, ++unseen_;
  }
  // Finds the definitions of the wanted names in one pass over the lines.
  void locate() {
    for (std::uint32_t i = 0; i < lines_.size() && left_; ++i) {
      std::string_view t = lines_[i].substr(std::min(lines_[i].find_first_not_of(" \t"), lines_[i].size()));
      // Every wanted name seen: only a label or alias starting a line can
      // still be a definition.
      if (!unseen_ && (t.empty() || (t[0] != '^' && t[0] != '#'))) continue;
      std::uint32_t k = 0;
      scan(
          lines_[i],
          [&](char c, std::string_view n) {
            std::uint32_t pos = k++;
            std::size_t b = bucket(n);
            if (!pending_[b]) return;
            auto it = defs_.find(key(i, {c, n}));
            if (it == defs_.end() || it->second.done) return;
            bool starts = pos == 0 && !t.empty() && t[0] == c && t.substr(1).starts_with(n);
            if (it->second.line == UINT32_MAX) --unseen_;
            if (it->second.line == UINT32_MAX || starts) it->second = {i, pos, c == '%' || starts};
            if (it->second.done) --pending_[b], --left_;
          },
          [](std::string_view) {});
    }
  }
  At def(const Key &k) const {
    auto it = defs_.find(k);
    return it == defs_.end() ? At{} : it->second;
  }

 private:
  static std::size_t bucket(std::string_view n) {  // length and last two bytes
    std::size_t h = n.size() * 65599 + static_cast<unsigned char>(n.back()) * 257;
    if (n.size() > 1) h += static_cast<unsigned char>(n[n.size() - 2]);
    return h % 8192;
  }
  const std::vector<std::string_view> &lines_;
  std::vector<std::uint32_t> scope_;       // per line: its function, in scopes_
  std::vector<std::string_view> scopes_;  // "" then each function header's name
  std::unordered_map<Key, At, KeyHash> defs_;
  std::array<std::uint32_t, 8192> pending_{};  // per bucket: wanted names not yet done
  std::size_t left_ = 0;                       // in all
  std::size_t unseen_ = 0;                     // wanted names not met yet
};

// The snapshot-wide renaming implied by the line pairing: a name maps to the
// name at the same place in the line paired with its definition.
class Renaming {
 public:
  Renaming(const std::vector<std::string_view> &a, const std::vector<std::string_view> &b,
           std::vector<std::int32_t> pair_a, std::vector<std::int32_t> pair_b,
           const std::vector<std::pair<std::uint32_t, std::uint32_t>> &cand)
      : a_(a), b_(b), pair_a_(std::move(pair_a)), pair_b_(std::move(pair_b)) {
    for (auto [i, j] : cand) a_.want(i), b_.want(j);
    a_.locate();
    b_.locate();
  }

  // Is b line j line i of a with its names mapped (both ways) by the renaming?
  bool maps(std::uint32_t i, std::uint32_t j) const {
    std::vector<Name> na = a_.names(i), nb = b_.names(j);
    if (na.size() != nb.size()) return false;
    for (std::uint32_t k = 0; k < na.size(); ++k) {
      if (na[k].sigil != nb[k].sigil) return false;
      Key ka = a_.key(i, na[k]), kb = b_.key(j, nb[k]);
      if (!image(a_, b_, pair_a_, ka, kb) || !image(b_, a_, pair_b_, kb, ka)) return false;
    }
    return true;
  }

 private:
  // Does `from`'s name `key` map onto `to`'s name `want`?
  static bool image(const Side &from, const Side &to, const std::vector<std::int32_t> &pair, const Key &key,
                    const Key &want) {
    Side::At d = from.def(key);
    if (d.line == UINT32_MAX) return false;
    std::int32_t p = pair[d.line];
    if (p < 0) return false;  // defined by a line that has no counterpart: a new value
    auto line = static_cast<std::uint32_t>(p);
    std::vector<Name> there = to.names(line);
    return d.pos < there.size() && to.key(line, there[d.pos]) == want;
  }
  Side a_, b_;
  std::vector<std::int32_t> pair_a_, pair_b_;
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
                     const std::vector<Op> &ops, std::vector<std::int32_t> &pa,
                     std::vector<std::int32_t> &pb) {
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
            pa[ua[m.a_pos + t]] = static_cast<std::int32_t>(ub[m.b_pos + t]);
            pb[ub[m.b_pos + t]] = static_cast<std::int32_t>(ua[m.a_pos + t]);
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
    std::vector<std::int32_t> pa(a.size(), -1), pb(b.size(), -1);
    for (const Op &op : ops)
      if (op.kind == Op::Equal)
        for (std::uint32_t t = 0; t < op.a_len; ++t) pa[op.a_pos + t] = op.b_pos + t, pb[op.b_pos + t] = op.a_pos + t;
    for (auto [i, j] : cand) pa[i] = j, pb[j] = i;
    pair_same_shape(a, b, ops, pa, pb);
    ren.emplace(a, b, std::move(pa), std::move(pb), cand);
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
