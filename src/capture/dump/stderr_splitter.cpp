#include "stderr_splitter.h"

#include "banner.h"
#include "splitter.h"
#include "lowertrace/dump.h"

#include <cctype>

namespace lowertrace::dump {
namespace {

bool blank(std::string_view l) { return l.find_first_not_of(" \t\r\n") == std::string_view::npos; }

// Lines of an LLVM IR dump body (module units have blank lines and top-level
// entities; loop units have bare blocks). Anything else ends the dump: the
// tool's own stderr, a Python traceback.
bool looks_like_llvm_ir(std::string_view l) {
  if (l.rfind("  File \"", 0) == 0) return false;
  char c = l[0];
  if (c == ' ' || c == '\t' || c == ';' || c == '!' || c == '}' || c == '{' || c == '%' || c == '@' ||
      c == '$' || c == '^' || c == '#')
    return true;
  for (std::string_view p : {"define ", "declare ", "attributes ", "source_filename", "target ", "uselistorder",
                             "module asm"})
    if (l.rfind(p, 0) == 0) return true;
  // A basic-block label: "for.body:" / "12:" (possibly followed by "; preds").
  std::size_t colon = l.find(':');
  return colon != std::string_view::npos && colon > 0 &&
         l.substr(0, colon).find_first_of(" \t") == std::string_view::npos;
}

// New PM units: "[module]", "f", "(f, g)" (an SCC), "loop %x in function f".
// Only a single function prints as one brace-delimited text.
bool is_function_unit(const Banner &b) {
  const std::string &u = b.unit;
  return !u.empty() && u[0] != '[' && u[0] != '(' && u.find(' ') == std::string::npos;
}

}  // namespace

StderrSplitter::StderrSplitter(Sink tool, Sink dump, bool drop_chatter)
    : tool_(std::move(tool)), dump_(std::move(dump)), drop_chatter_(drop_chatter) {}

void StderrSplitter::feed(std::string_view bytes) {
  while (!bytes.empty()) {
    std::size_t nl = bytes.find('\n');
    if (nl == std::string_view::npos) {
      partial_.append(bytes);
      return;
    }
    if (partial_.empty()) {
      line(bytes.substr(0, nl + 1));
    } else {
      partial_.append(bytes.substr(0, nl + 1));
      line(partial_);
      partial_.clear();
    }
    bytes.remove_prefix(nl + 1);
  }
}

void StderrSplitter::finish() {
  if (!partial_.empty()) {
    std::string last = std::move(partial_);
    partial_.clear();
    line(last);
  }
}

void StderrSplitter::to_tool(std::string_view with_nl) {
  tool_(with_nl);
  if (diag_copy_ == 0) return;
  // A diagnostic's source line, caret and fix-its, up to an empty line: the
  // importer attaches them to the failing pass (it keeps under 4 KB of them).
  if (blank(with_nl) || with_nl.size() >= diag_copy_) {
    diag_copy_ = 0;
    return;
  }
  to_dump(with_nl);
  diag_copy_ -= with_nl.size();
}

void StderrSplitter::to_dump(std::string_view with_nl) {
  dump_(with_nl);
  dump_bytes_ += with_nl.size();
  if (!with_nl.ends_with('\n')) {
    dump_("\n");
    ++dump_bytes_;
  }
}

void StderrSplitter::line(std::string_view with_nl) {
  std::string_view l = with_nl;
  if (l.ends_with('\n')) l.remove_suffix(1);
  if (l.ends_with('\r')) l.remove_suffix(1);

  if (auto b = parse_banner(l)) {
    diag_copy_ = 0;
    to_dump(with_nl);
    depth_ = 0;
    opened_ = module_ = false;
    llvm_function_ = false;
    if (!b->has_body()) state_ = State::None;
    else if (b->family == Family::Mlir || b->family == Family::MlirInternal) state_ = State::Mlir;
    else if (b->family == Family::Mir) state_ = State::Mir;
    else {
      state_ = State::Llvm;
      llvm_function_ = is_function_unit(*b);
    }
    return;
  }
  if (drop_chatter_ && is_pass_manager_chatter(l)) return;  // printed because we asked for dumps

  switch (state_) {
  case State::Mlir:
    if (blank(l)) {
      if (depth_ <= 0) {
        // The printer's "\n\n" after the op; a top-level module's own text
        // ends in a newline, so it is followed by two empty lines.
        state_ = State::MlirAfter;
        trailer_left_ = module_ ? 1 : 0;
      }
      to_dump(with_nl);
      return;
    }
    if (opened_ && depth_ <= 0) {
      // The op is complete. Only deferred alias definitions may follow
      // ("#loc3 = loc(...)" with --mlir-print-debuginfo); the rest is the tool's.
      if (!(l[0] == '#' && l.find(" = ") != std::string_view::npos)) break;
      to_dump(with_nl);
      return;
    }
    if (!opened_ && l.find('{') != std::string_view::npos) {
      opened_ = true;
      module_ = l.rfind("module", 0) == 0 || l.rfind("\"builtin.module\"", 0) == 0;
    }
    depth_ += brace_balance(l);
    to_dump(with_nl);
    return;
  case State::MlirAfter:
    if (blank(l) && trailer_left_ > 0) {
      --trailer_left_;
      to_dump(with_nl);
      return;
    }
    if (l.rfind("{-#", 0) == 0) {  // dialect resources, printed after the op
      state_ = State::Mlir;
      depth_ = brace_balance(l);
      opened_ = true;
      to_dump(with_nl);
      return;
    }
    break;
  case State::Mir:
    if (!opened_ && !blank(l)) {
      if (l.rfind("# Machine code for function", 0) != 0) {
        state_ = State::Llvm;  // not a machine-function print: judge it by its lines
        return line(with_nl);
      }
      opened_ = true;
    }
    if (l.rfind("# End machine code for function", 0) == 0) state_ = State::MirAfter;
    to_dump(with_nl);
    return;
  case State::MirAfter:
    state_ = State::None;
    if (blank(l)) {
      to_dump(with_nl);
      return;
    }
    break;
  case State::Llvm:
    if (llvm_body_line(l)) {
      to_dump(with_nl);
      return;
    }
    break;
  case State::None: break;
  }
  state_ = State::None;
  if (is_diagnostic_line(l)) {
    tool_(with_nl);
    to_dump(with_nl);  // the importer attaches it to the failing pass
    diag_copy_ = 2048;
    return;
  }
  to_tool(with_nl);
}

bool StderrSplitter::llvm_body_line(std::string_view l) {
  if (llvm_function_ && opened_ && depth_ <= 0) return false;  // after the function's closing '}'
  if (blank(l)) return !llvm_function_ || opened_;  // inside a function, or between a module's entities
  if (is_diagnostic_line(l) || !looks_like_llvm_ir(l)) return false;
  depth_ += brace_balance(l);
  opened_ |= l.find('{') != std::string_view::npos && l[0] != ';';
  return true;
}

}  // namespace lowertrace::dump
