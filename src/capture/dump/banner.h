// dump/banner.h - recognising one dump banner line. Pure string work.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lowertrace::dump {

// Which printer wrote the banner; it decides the IR language and the chaining.
enum class Family {
  Mlir,         // // -----// IR Dump ... //----- //
  MlirInternal, // Triton's "SoftwarePipeliner internal IR Dump After: <step>"
  Llvm,         // new PM print-*-all and -print-changed, legacy PM IR passes
  Mir,          // # *** IR Dump ... ***:
};

enum class Kind {
  Before,
  After,
  AfterFailed,       // MLIR "After <P> Failed"
  AfterInvalidated,  // new PM "(invalidated)": the unit is gone
  AtStart,           // -print-changed initial module
  Omitted,           // -print-changed: no change
  FilteredOut,       // -print-changed: not printed by -filter-passes / -filter-print-funcs
  Ignored,           // -print-changed: pass managers and adaptors
  Invalidated,       // -print-changed "*** IR Pass <P> invalidated ***" (no unit)
  Deleted,           // -print-changed "*** IR Deleted After <P> on <F> ***"
};

struct Banner {
  Family family = Family::Mlir;
  Kind kind = Kind::Before;
  std::string pass;  // MLIR: class name; LLVM new PM: PassID; legacy/MIR: description
  std::string arg;   // MLIR / legacy / MIR: pass argument ("" for new PM)
  std::string opts;  // LLVM 23 MLIR form: "{a=1 b=2}" as printed
  std::string unit;  // LLVM: "[module]", "f", "(f, g)", "loop %x in function f"
  std::string op;    // MLIR module scope: "tt.func"
  std::string sym;   // MLIR module scope: "add_kernel" (no '@')
  bool module_scope = false;  // MLIR: body is the top-level op
  bool changed_style = false; // LLVM: no "; " prefix (print-changed / legacy)
  bool has_body() const {
    return kind == Kind::Before || kind == Kind::After || kind == Kind::AfterFailed ||
           kind == Kind::AfterInvalidated || kind == Kind::AtStart;
  }
  // The name a user knows the pass by: the argument when there is one.
  const std::string &display_name() const { return arg.empty() ? pass : arg; }
};

// Parses `line` (no trailing newline; a trailing '\r' is tolerated).
std::optional<Banner> parse_banner(std::string_view line);

}  // namespace lowertrace::dump
