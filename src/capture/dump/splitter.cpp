#include "splitter.h"

#include "lowertrace/dump.h"

#include <fmt/format.h>

#include <algorithm>

namespace lowertrace::dump {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool blank(std::string_view l) {
  for (char c : l)
    if (c != ' ' && c != '\t' && c != '\r') return false;
  return true;
}

std::string clip(std::string_view s, std::size_t n = 60) {
  std::string out(s.substr(0, n));
  if (s.size() > n) out += "...";
  return out;
}

// Bytes no compiler prints into IR text: NUL and the C0 controls other than
// tab, CR, form/vertical feed and ESC (-print-changed=cdiff colours its lines).
// Branch-free count first: IR lines almost never have any byte below 0x20.
bool has_binary(std::string_view l) {
  unsigned low = 0;
  for (char c : l) low += static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  if (low == 0) return false;
  for (char c : l) {
    unsigned char u = static_cast<unsigned char>(c);
    if ((u < 0x20 && u != '\t' && u != '\r' && u != '\f' && u != '\v' && u != 0x1b) || u == 0x7f) return true;
  }
  return false;
}

// The caret line under a diagnostic's source line: blanks, then '^' (and '~').
bool is_caret_line(std::string_view l) {
  std::size_t i = l.find_first_not_of(" \t");
  if (i == std::string_view::npos || l[i] != '^') return false;
  return l.find_first_not_of("^~ \t\r", i) == std::string_view::npos;
}

}  // namespace

bool is_pass_manager_chatter(std::string_view l) {
  std::size_t i = 0;
  while (i < l.size() && l[i] == ' ') ++i;
  if (i >= l.size()) return false;
  char c = l[i];
  if (c != 'R' && c != 'S' && c != 'I' && c != 'C') return false;  // fast exit for IR lines
  l.remove_prefix(i);
  using namespace std::string_view_literals;
  return starts_with(l, "Running pass: "sv) || starts_with(l, "Running analysis: "sv) ||
         starts_with(l, "Skipping pass: "sv) || starts_with(l, "Invalidating analysis: "sv) ||
         starts_with(l, "Clearing all analysis results for: "sv) ||
         starts_with(l, "Invalidating all non-preserved analyses for: "sv);
}

bool is_banner_line(std::string_view line) { return parse_banner(line).has_value(); }

bool is_diagnostic_line(std::string_view l) {
  // "<file>:<line>:<col>: error: ...", "<unknown>:0: error: ...", "error: ...".
  // IR lines start with blanks or sigils, and a path has no space before the tag.
  if (l.size() < 7) return false;
  char c = l[0];
  if (c == ' ' || c == '\t' || c == '%' || c == ';' || c == '#' || c == '}' || c == '^' || c == '!') return false;
  using namespace std::string_view_literals;
  if (starts_with(l, "error: "sv) || starts_with(l, "warning: "sv) || starts_with(l, "LLVM ERROR: "sv)) return true;
  std::size_t sp = l.find(' ');
  if (sp == std::string_view::npos || sp < 2 || l[sp - 1] != ':') return false;
  std::string_view tag = l.substr(sp + 1);
  return starts_with(tag, "error: "sv) || starts_with(tag, "warning: "sv) || starts_with(tag, "note: "sv) ||
         starts_with(tag, "remark: "sv);
}

int brace_balance(std::string_view t) {
  // Fast path: equal counts (vectorised) are taken as balanced; only a
  // mismatch pays for the string-aware scan, which may still balance out.
  long diff = 0;
  for (char c : t) diff += (c == '{') - (c == '}');  // branch-free, vectorises
  if (diff == 0) return 0;
  int depth = 0;
  bool in_str = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (in_str) {
      if (c == '\\') ++i;
      else if (c == '"' || c == '\n') in_str = false;  // strings never span lines here
    } else if (c == '"') in_str = true;
    else if (c == '{') ++depth;
    else if (c == '}') --depth;
  }
  return depth;
}

Splitter::Splitter(OnDump on_dump, OnWarn on_warn, Families fam)
    : on_dump_(std::move(on_dump)), on_warn_(std::move(on_warn)), fam_(fam) {}

void Splitter::begin_input(std::string name) {
  input_ = std::move(name);
  offset_ = 0;
  partial_.clear();
  in_dump_ = false;
  diag_.clear();
  ctx_ = Ctx::None;
  held_.clear();
}

void Splitter::feed(std::string_view bytes) {
  total_ += bytes.size();
  while (!bytes.empty()) {
    std::size_t nl = bytes.find('\n');
    if (nl == std::string_view::npos) {
      partial_.append(bytes);
      return;
    }
    if (partial_.empty()) {
      line(bytes.substr(0, nl), offset_);
      offset_ += nl + 1;
    } else {
      partial_.append(bytes.substr(0, nl));
      line(partial_, offset_);
      offset_ += partial_.size() + 1;
      partial_.clear();
    }
    bytes.remove_prefix(nl + 1);
  }
}

void Splitter::flush_held() {
  if (ctx_ == Ctx::None) return;
  bool held = ctx_ == Ctx::Caret;
  ctx_ = Ctx::None;
  if (held) {
    std::string h = std::move(held_);
    held_.clear();
    body_line(h, held_off_);
  }
}

void Splitter::end_input() {
  if (!partial_.empty()) {
    on_warn_(fmt::format("{}: input ends in the middle of a line at byte {} (truncated?)",
                         input_, offset_ + partial_.size()));
    if (in_dump_) cur_.damaged = true;
    std::string last = std::move(partial_);
    partial_.clear();
    line(last, offset_);
    offset_ += last.size();
  }
  flush_held();
  close_dump(true);
  flush_garbage();
}

void Splitter::flush_garbage() {
  if (garbage_bytes_ == 0) return;
  on_warn_(fmt::format("{}: {} bytes of text that is not part of any dump at byte {} (\"{}\"); ignored",
                       input_, garbage_bytes_, garbage_off_, clip(garbage_first_)));
  garbage_bytes_ = 0;
  garbage_first_.clear();
}

void Splitter::line(std::string_view l, std::uint64_t off) {
  if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  if (auto b = parse_banner(l)) {
    bool wanted = (b->family == Family::Mlir || b->family == Family::MlirInternal) ? fam_.mlir
                  : b->family == Family::Llvm                                      ? fam_.llvm
                                                                                   : fam_.mir;
    if (wanted) {
      flush_held();
      close_dump(false);
      flush_garbage();
      cur_ = Dump{};
      cur_.banner = std::move(*b);
      cur_.offset = off;
      cur_.input = input_;
      cur_.diagnostic = std::move(diag_);
      diag_.clear();
      cur_binary_ = false;
      mlir_depth_ = 0;
      mlir_opened_ = mlir_ended_ = false;
      // Bodiless banners (omitted, ignored, ...) complete at once.
      in_dump_ = cur_.banner.has_body();
      if (!in_dump_) on_dump_(std::move(cur_));
      return;
    }
  }
  if (is_pass_manager_chatter(l)) return;
  // A diagnostic's source line + caret, printed inside a dump body: held one
  // line back until the caret shows whether it was the diagnostic's.
  if (ctx_ == Ctx::Source) {
    held_ = std::string(l);
    held_off_ = off;
    ctx_ = Ctx::Caret;
    return;
  }
  if (ctx_ == Ctx::Caret) {
    ctx_ = Ctx::None;
    if (is_caret_line(l)) {
      diag_ += '\n';
      diag_ += held_;
      diag_ += '\n';
      diag_.append(l);
      held_.clear();
      return;
    }
    std::string held = std::move(held_);
    held_.clear();
    body_line(held, held_off_);
  }
  if (is_diagnostic_line(l)) {
    // The compiler's own message, not IR. A dump whose text is complete
    // (balanced) ended before it; what follows it (source line, caret) is the
    // diagnostic's, not the dump's.
    if (in_dump_ && !cur_.body.empty() && brace_balance(cur_.body) == 0) close_dump(false);
    if (!diag_.empty()) diag_ += '\n';
    diag_.append(l);
    if (in_dump_) ctx_ = Ctx::Source;
    return;
  }
  body_line(l, off);
}

void Splitter::body_line(std::string_view l, std::uint64_t off) {
  if (in_dump_ && cur_.banner.family == Family::Mlir) {
    if (mlir_ended_ && !blank(l)) {
      if (starts_with(l, "{-#")) mlir_ended_ = false;  // dialect resources, printed after the op
      else close_dump(false);                         // not the dump's: handled below as outside text
    }
    if (in_dump_) {
      if (blank(l)) mlir_ended_ |= mlir_opened_ && mlir_depth_ <= 0;
      else {
        mlir_opened_ |= l.find('{') != std::string_view::npos;
        mlir_depth_ += brace_balance(l);
      }
    }
  }
  if (in_dump_) {
    if (has_binary(l)) {
      // Garbage (a binary file, a torn write) is no IR: leave the line out
      // instead of letting it turn an unchanged pass into a changed one.
      if (!cur_binary_)
        on_warn_(fmt::format("{}: dump '{}' at byte {} holds binary data (NUL or control bytes) at byte {}; "
                             "those lines are left out",
                             cur_.input, cur_.banner.display_name(), cur_.offset, off));
      cur_.damaged = cur_binary_ = true;
      return;
    }
    cur_.body.append(l);
    cur_.body.push_back('\n');
    // A machine function's print ends here: what follows up to the next
    // banner is not its text (in a raw stderr capture, the tool's own lines).
    if (cur_.banner.family == Family::Mir && starts_with(l, "# End machine code for function")) close_dump(false);
    return;
  }
  if (blank(l)) return;
  // Context lines right after a diagnostic (source line, caret) belong to it.
  if (!diag_.empty() && diag_.size() < 4096) {
    diag_ += '\n';
    diag_.append(l);
    return;
  }
  if (garbage_bytes_ == 0) {
    garbage_off_ = off;
    garbage_first_ = std::string(l.substr(0, 80));
  }
  garbage_bytes_ += l.size() + 1;
}

void Splitter::close_dump(bool at_eof) {
  if (!in_dump_) return;
  in_dump_ = false;
  std::string &b = cur_.body;
  // Drop trailing blank lines (MLIR ends each dump with one or two); keep one '\n'.
  std::size_t end = b.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) b.clear();
  else {
    b.resize(end + 1);
    b.push_back('\n');
  }
  const Banner &bn = cur_.banner;
  bool mir = bn.family == Family::Mir;
  if (b.empty() && bn.kind != Kind::AfterInvalidated) {
    on_warn_(fmt::format("{}: dump '{}' at byte {} has a banner but no IR text{}", cur_.input,
                         bn.display_name(), cur_.offset, at_eof ? " (input truncated?)" : ""));
    cur_.damaged = true;
  }
  if (mir) {
    // A machine function must end with its "# End machine code" line.
    if (b.find("# Machine code for function") != std::string::npos &&
        b.find("# End machine code for function") == std::string::npos) {
      on_warn_(fmt::format("{}: machine-code dump '{}' at byte {} is incomplete ({}); kept as is",
                           cur_.input, bn.display_name(), cur_.offset,
                           at_eof ? "input truncated" : "interleaved output?"));
      cur_.damaged = true;
    }
  } else if (int bal = brace_balance(b); bal != 0) {
    on_warn_(fmt::format("{}: dump '{}' at byte {} has unbalanced braces ({}); kept as is",
                         cur_.input, bn.display_name(), cur_.offset,
                         at_eof ? "input truncated?" : "truncated or interleaved output?"));
    cur_.damaged = true;
  }
  on_dump_(std::move(cur_));
  cur_ = Dump{};
}

}  // namespace lowertrace::dump
