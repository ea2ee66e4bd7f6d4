#include "ir_text.h"

#include <cctype>

namespace lowertrace::dump {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Iterates lines of `t` as (line, start offset).
template <class F> void for_lines(std::string_view t, F &&f) {
  std::size_t pos = 0;
  while (pos < t.size()) {
    std::size_t nl = t.find('\n', pos);
    std::size_t end = nl == std::string_view::npos ? t.size() : nl;
    if (!f(t.substr(pos, end - pos), pos)) return;
    pos = end + 1;
  }
}

std::string_view ltrim(std::string_view s) {
  std::size_t i = s.find_first_not_of(" \t");
  return i == std::string_view::npos ? std::string_view() : s.substr(i);
}

bool sym_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' || c == '-';
}

// "@name" at p (quoted names included) -> name.
std::string read_symbol(std::string_view s, std::size_t p) {
  if (p >= s.size() || s[p] != '@') return {};
  ++p;
  if (p < s.size() && s[p] == '"') {
    std::size_t q = s.find('"', p + 1);
    return std::string(s.substr(p + 1, q == std::string_view::npos ? std::string_view::npos : q - p - 1));
  }
  std::size_t e = p;
  while (e < s.size() && sym_char(s[e])) ++e;
  return std::string(s.substr(p, e - p));
}

// MLIR op line -> "op @sym" unit, or "" when the line is not an op header.
std::string mlir_unit_of_line(std::string_view l) {
  l = ltrim(l);
  if (l.empty() || l[0] == '#' || l[0] == '%' || l[0] == '^' || l[0] == '}' || l[0] == '/' || l[0] == '!')
    return {};
  std::size_t e = 0;
  while (e < l.size() && (sym_char(l[e]) || l[e] == '"')) ++e;
  std::string op(l.substr(0, e));
  if (op.size() >= 2 && op.front() == '"' && op.back() == '"') op = op.substr(1, op.size() - 2);
  if (op.empty()) return {};
  if (op == "module") op = "builtin.module";
  if (op == "func") op = "func.func";
  std::size_t at = l.find('@', e);
  std::size_t brace = l.find('{', e);
  std::size_t paren = l.find('(', e);
  std::size_t stop = std::min(brace, paren);
  if (at != std::string_view::npos && at < stop) return op + " @" + read_symbol(l, at);
  return op;
}

}  // namespace

std::string mlir_unit_of(std::string_view body) {
  std::string out;
  for_lines(body, [&](std::string_view l, std::size_t) {
    out = mlir_unit_of_line(l);
    return out.empty();
  });
  return out;
}

std::string_view unit_kind(std::string_view unit) {
  std::size_t sp = unit.find(' ');
  return sp == std::string_view::npos ? unit : unit.substr(0, sp);
}

std::optional<std::string> mlir_extract(std::string_view text, std::string_view unit) {
  std::optional<std::string> out;
  std::size_t start = std::string_view::npos, indent = 0;
  int depth = 0;
  std::string acc;
  for_lines(text, [&](std::string_view l, std::size_t) {
    if (start == std::string_view::npos) {
      if (mlir_unit_of_line(l) == unit && l.find('{') != std::string_view::npos) {
        start = 0;
        indent = l.find_first_not_of(' ');
      } else {
        return true;
      }
    }
    std::string_view body = l.size() >= indent && ltrim(l.substr(0, indent)).empty() ? l.substr(indent) : ltrim(l);
    acc.append(body);
    acc.push_back('\n');
    bool in_str = false;
    for (std::size_t i = 0; i < l.size(); ++i) {
      char c = l[i];
      if (in_str) { if (c == '\\') ++i; else if (c == '"') in_str = false; }
      else if (c == '"') in_str = true;
      else if (c == '{') ++depth;
      else if (c == '}') --depth;
    }
    if (depth <= 0) {
      out = std::move(acc);
      return false;
    }
    return true;
  });
  return out;
}

std::string mlir_kernel_name(std::string_view body) {
  std::string first, kernel;
  for_lines(body, [&](std::string_view l, std::size_t) {
    std::string_view t = ltrim(l);
    bool tt = starts_with(t, "tt.func ");
    bool llvm = starts_with(t, "llvm.func ");
    if (!tt && !llvm) return true;
    std::size_t at = t.find('@');
    if (at == std::string_view::npos) return true;
    std::string name = read_symbol(t, at);
    if (first.empty()) first = name;
    bool is_kernel = (tt && t.find(" public ") != std::string_view::npos) ||
                     (llvm && (t.find("nvvm.kernel") != std::string_view::npos ||
                               t.find("kernel") != std::string_view::npos) &&
                      t.find("internal") == std::string_view::npos);
    if (is_kernel) {
      kernel = name;
      return false;
    }
    return true;
  });
  return kernel.empty() ? first : kernel;
}

std::string llvm_unit_of(std::string_view body) {
  std::string out;
  for_lines(body, [&](std::string_view l, std::size_t) {
    if (starts_with(l, "; ModuleID")) { out = "[module]"; return false; }
    if (starts_with(l, "define ")) {
      std::size_t at = l.find('@');
      if (at != std::string_view::npos) out = read_symbol(l, at);
      return false;
    }
    return true;
  });
  return out;
}

std::vector<std::string> llvm_scc_names(std::string_view unit) {
  std::vector<std::string> out;
  if (unit.size() < 2 || unit.front() != '(' || unit.back() != ')') return out;
  unit = unit.substr(1, unit.size() - 2);
  while (!unit.empty()) {
    std::size_t c = unit.find(", ");
    out.emplace_back(unit.substr(0, c));
    if (c == std::string_view::npos) break;
    unit.remove_prefix(c + 2);
  }
  return out;
}

std::string llvm_loop_function(std::string_view unit) {
  if (!starts_with(unit, "loop ")) return {};
  std::size_t p = unit.rfind(" in function ");
  return p == std::string_view::npos ? std::string() : std::string(unit.substr(p + 13));
}

namespace {
// Calls f(name, block_start, block_end) for each function block in `t`;
// a block starts at its "; Function Attrs" line when there is one.
template <class F> void for_function_blocks(std::string_view t, F &&f) {
  std::size_t attrs = std::string_view::npos, start = 0;
  std::string name;
  bool in_fn = false;
  for_lines(t, [&](std::string_view l, std::size_t off) {
    if (!in_fn) {
      if (starts_with(l, "; Function Attrs:")) { attrs = off; return true; }
      if (starts_with(l, "define ")) {
        std::size_t at = l.find('@');
        name = at == std::string_view::npos ? std::string() : read_symbol(l, at);
        start = attrs != std::string_view::npos ? attrs : off;
        in_fn = true;
        if (!l.empty() && l.back() == '}') {  // one-line body never happens, but be safe
          in_fn = false;
          f(name, start, std::min(t.size(), off + l.size() + 1));
        }
      }
      if (!l.empty() && !starts_with(l, "; Function Attrs:")) attrs = std::string_view::npos;
      return true;
    }
    if (l == "}") {
      in_fn = false;
      attrs = std::string_view::npos;
      return f(name, start, std::min(t.size(), off + l.size() + 1));
    }
    return true;
  });
}
}  // namespace

std::optional<std::string> llvm_extract_function(std::string_view module, std::string_view fn) {
  std::optional<std::string> out;
  for_function_blocks(module, [&](const std::string &name, std::size_t b, std::size_t e) {
    if (name != fn) return true;
    out = std::string(module.substr(b, e - b));
    if (out->empty() || out->back() != '\n') out->push_back('\n');
    return false;
  });
  return out;
}

std::vector<std::pair<std::string, std::string>> llvm_split_functions(std::string_view body) {
  std::vector<std::pair<std::string, std::string>> out;
  for_function_blocks(body, [&](const std::string &name, std::size_t b, std::size_t e) {
    std::string text(body.substr(b, e - b));
    if (text.empty() || text.back() != '\n') text.push_back('\n');
    out.emplace_back(name, std::move(text));
    return true;
  });
  return out;
}

std::string llvm_splice(std::string_view module, const std::map<std::string, std::string> &fns) {
  if (fns.empty()) return std::string(module);
  std::string out;
  out.reserve(module.size());
  std::size_t copied = 0;
  for_function_blocks(module, [&](const std::string &name, std::size_t b, std::size_t e) {
    auto it = fns.find(name);
    if (it == fns.end()) return true;
    out.append(module.substr(copied, b - copied));
    out.append(it->second);
    copied = e;
    return true;
  });
  out.append(module.substr(copied));
  return out;
}

std::string mir_function_of(std::string_view body) {
  std::string out;
  for_lines(body, [&](std::string_view l, std::size_t) {
    constexpr std::string_view k = "# Machine code for function ";
    if (!starts_with(l, k)) return true;
    std::string_view rest = l.substr(k.size());
    out = std::string(rest.substr(0, rest.find(':')));
    return false;
  });
  return out;
}

namespace {
std::string strip_ansi(std::string_view l) {
  std::string out;
  for (std::size_t i = 0; i < l.size(); ++i) {
    if (l[i] == '\x1b' && i + 1 < l.size() && l[i + 1] == '[') {
      i += 2;
      while (i < l.size() && !std::isalpha(static_cast<unsigned char>(l[i]))) ++i;
      continue;
    }
    out.push_back(l[i]);
  }
  return out;
}
}  // namespace

bool is_diff_body(std::string_view body) {
  if (body.empty()) return false;
  bool ok = true, any_marked = false;
  for_lines(body, [&](std::string_view raw, std::size_t) {
    std::string l = strip_ansi(raw);
    if (l.empty() || l.starts_with("*** IR for function ")) return true;  // module-pass sub-headers
    char c = l[0];
    if (c != ' ' && c != '-' && c != '+') { ok = false; return false; }
    if (c != ' ') any_marked = true;
    return true;
  });
  // An unchanged-only body is indistinguishable from indented IR, but
  // print-changed never prints a diff without a change.
  return ok && any_marked;
}

std::pair<std::string, std::string> split_diff_body(std::string_view body) {
  std::string a, b;
  for_lines(body, [&](std::string_view raw, std::size_t) {
    std::string l = strip_ansi(raw);
    if (l.empty() || l.starts_with("*** IR for function ")) {
      a += l + '\n';
      b += l + '\n';
      return true;
    }
    std::string_view rest = std::string_view(l).substr(1);
    if (l[0] != '+') { a.append(rest); a += '\n'; }
    if (l[0] != '-') { b.append(rest); b += '\n'; }
    return true;
  });
  return {a, b};
}

}  // namespace lowertrace::dump
