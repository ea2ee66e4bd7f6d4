// Banner recognition. Parsed from the right, because pass names may contain
// spaces and parentheses ("(anonymous namespace)::TestFailurePass") and MLIR
// symbols may too ("@triton.language.standard.max__fp32S1024S__(1,)c...").
#include "banner.h"

#include <cctype>

namespace lowertrace::dump {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}
bool strip_suffix(std::string_view &s, std::string_view p) {
  if (!ends_with(s, p)) return false;
  s.remove_suffix(p.size());
  return true;
}
bool is_arg_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
}

// "12-InstCombinePass" (-print-*-pass-number) -> "InstCombinePass".
std::string_view strip_pass_number(std::string_view p) {
  std::size_t i = 0;
  while (i < p.size() && std::isdigit(static_cast<unsigned char>(p[i]))) ++i;
  if (i > 0 && i + 1 < p.size() && p[i] == '-' && std::isalpha(static_cast<unsigned char>(p[i + 1])))
    return p.substr(i + 1);
  return p;
}

// MLIR header body after "IR Dump Before " / "IR Dump After ".
std::optional<Banner> parse_mlir_rest(std::string_view rest, Kind kind) {
  Banner b;
  b.family = Family::Mlir;
  b.kind = kind;
  // Optional module-scope suffix: " ('<op>' operation[: @sym])".
  if (ends_with(rest, ")")) {
    std::size_t op_end = rest.rfind("' operation");
    if (op_end != std::string_view::npos) {
      std::size_t open = rest.rfind(" ('", op_end);
      if (open != std::string_view::npos) {
        b.op = std::string(rest.substr(open + 3, op_end - open - 3));
        std::string_view tail = rest.substr(op_end + 11);  // after "' operation"
        if (starts_with(tail, ": @")) {
          tail.remove_prefix(3);
          tail.remove_suffix(1);  // ')'
          b.sym = std::string(tail);
        }
        b.module_scope = true;
        rest = rest.substr(0, open);
      }
    }
  }
  if (ends_with(rest, ")")) {
    // LLVM 22: "<Pass>[ Failed] (<arg>)".
    std::size_t open = rest.rfind(" (");
    if (open == std::string_view::npos) return std::nullopt;
    b.arg = std::string(rest.substr(open + 2, rest.size() - open - 3));
    rest = rest.substr(0, open);
  } else {
    // LLVM 23: "<Pass>[ Failed]: <arg>{opts}".
    std::size_t colon = rest.find(": ");
    if (colon == std::string_view::npos) return std::nullopt;
    std::string_view spec = rest.substr(colon + 2);
    std::size_t brace = spec.find('{');
    b.arg = std::string(spec.substr(0, brace));
    if (brace != std::string_view::npos) b.opts = std::string(spec.substr(brace));
    rest = rest.substr(0, colon);
  }
  if (strip_suffix(rest, " Failed")) {
    if (kind != Kind::After) return std::nullopt;
    b.kind = Kind::AfterFailed;
  }
  if (rest.empty()) return std::nullopt;
  b.pass = std::string(rest);
  return b;
}

std::optional<Banner> parse_mlir(std::string_view line) {
  constexpr std::string_view kLead = "// -----// ";
  if (!starts_with(line, kLead)) return std::nullopt;
  std::string_view s = line.substr(kLead.size());
  constexpr std::string_view kInternal = "SoftwarePipeliner internal IR Dump After: ";
  if (starts_with(s, kInternal)) {
    Banner b;
    b.family = Family::MlirInternal;
    b.kind = Kind::After;
    b.pass = std::string(s.substr(kInternal.size()));
    while (!b.pass.empty() && b.pass.back() == ' ') b.pass.pop_back();
    return b;
  }
  if (!strip_suffix(s, " //----- //")) return std::nullopt;
  if (starts_with(s, "IR Dump Before ")) return parse_mlir_rest(s.substr(15), Kind::Before);
  if (starts_with(s, "IR Dump After ")) return parse_mlir_rest(s.substr(14), Kind::After);
  return std::nullopt;
}

// Legacy PM "<Description> (<arg>)[ on <F>]": finds the "(arg)" group that is
// not itself a new-PM unit ("InlinerPass on (sq)").
bool split_legacy(std::string_view s, Banner &b) {
  for (std::size_t open = s.find(" ("); open != std::string_view::npos; open = s.find(" (", open + 1)) {
    std::size_t close = open + 2;
    while (close < s.size() && is_arg_char(s[close])) ++close;
    if (close == open + 2 || close >= s.size() || s[close] != ')') continue;
    std::string_view head = s.substr(0, open);
    if (ends_with(head, " on") || head.empty()) continue;
    std::string_view tail = s.substr(close + 1);
    if (!tail.empty() && !starts_with(tail, " on ")) continue;
    b.pass = std::string(head);
    b.arg = std::string(s.substr(open + 2, close - open - 2));
    if (!tail.empty()) b.unit = std::string(tail.substr(4));
    return true;
  }
  return false;
}

// New PM "<PassID> on <unit>": the first " on " outside template brackets.
bool split_new_pm(std::string_view s, Banner &b) {
  int depth = 0;
  for (std::size_t i = 0; i + 4 <= s.size(); ++i) {
    char c = s[i];
    if (c == '<') ++depth;
    else if (c == '>' && depth > 0) --depth;
    else if (depth == 0 && s.substr(i, 4) == " on ") {
      b.pass = std::string(strip_pass_number(s.substr(0, i)));
      b.unit = std::string(s.substr(i + 4));
      return !b.pass.empty() && !b.unit.empty();
    }
  }
  return false;
}

std::optional<Banner> parse_llvm(std::string_view line) {
  Banner b;
  b.family = Family::Llvm;
  std::string_view s = line;
  if (starts_with(s, "# *** ")) {
    if (!strip_suffix(s, " ***:")) return std::nullopt;
    b.family = Family::Mir;
    s.remove_prefix(6);
  } else {
    if (starts_with(s, "; *** ")) s.remove_prefix(6);
    else if (starts_with(s, "*** ")) { s.remove_prefix(4); b.changed_style = true; }
    else return std::nullopt;
    if (!strip_suffix(s, " ***")) return std::nullopt;
  }
  if (s == "IR Dump At Start") {
    if (b.family == Family::Mir) return std::nullopt;
    b.kind = Kind::AtStart;
    b.unit = "[module]";
    return b;
  }
  if (starts_with(s, "IR Pass ")) {
    s.remove_prefix(8);
    if (strip_suffix(s, " ignored")) {
      b.kind = Kind::Ignored;
      if (!split_new_pm(s, b)) b.pass = std::string(s);
      return b;
    }
    if (strip_suffix(s, " invalidated")) {
      b.kind = Kind::Invalidated;
      if (!split_new_pm(s, b)) b.pass = std::string(strip_pass_number(s));
      return b;
    }
    return std::nullopt;
  }
  if (starts_with(s, "IR Deleted After ")) {
    s.remove_prefix(17);
    b.kind = Kind::Deleted;
    if (!split_new_pm(s, b)) return std::nullopt;
    return b;
  }
  if (starts_with(s, "IR Dump Before ")) { b.kind = Kind::Before; s.remove_prefix(15); }
  else if (starts_with(s, "IR Dump After ")) { b.kind = Kind::After; s.remove_prefix(14); }
  else return std::nullopt;
  if (strip_suffix(s, " omitted because no change")) b.kind = Kind::Omitted;
  else if (strip_suffix(s, " filtered out")) b.kind = Kind::FilteredOut;
  else if (b.kind == Kind::After && strip_suffix(s, " (invalidated)")) b.kind = Kind::AfterInvalidated;
  if (split_legacy(s, b)) return b;
  if (b.family == Family::Mir) return std::nullopt;  // MIR banners always carry "(arg)"
  if (split_new_pm(s, b)) return b;
  return std::nullopt;
}

}  // namespace

std::optional<Banner> parse_banner(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.size() < 12) return std::nullopt;
  if (line[0] == '/') return parse_mlir(line);
  if (line[0] == '*' || line[0] == ';' || line[0] == '#') return parse_llvm(line);
  return std::nullopt;
}

}  // namespace lowertrace::dump
