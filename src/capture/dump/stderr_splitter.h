// dump/stderr_splitter.h - a tool's live stderr, split into the tool's own
// lines and the IR dumps we asked it to print there.
//
// Used by `lowertrace run` for tools that can only dump on stderr (Triton's
// MLIR_ENABLE_DUMP / LLVM_IR_ENABLE_DUMP, llc, an unknown *-opt). Every line
// goes to exactly one side, in order, byte for byte (a last line without a
// newline stays without one); the user sees the tool side. Where a dump ends
// is decided by what each printer writes, not by guessing from line shapes
// where it can be helped:
//   MLIR  the op's text, then one empty line ("\n\n" after the op; two for a
//         module, whose text ends in a newline); the op is complete when its
//         braces balance. A "{-#" resource section may follow and belongs to it.
//   MIR   "# Machine code for function f: ..." up to "# End machine code for
//         function f." and the one empty line after it.
//   LLVM  function and loop units end at the closing "}" of the function;
//         module units (blank lines inside) by the shape of IR lines.
// Diagnostics ("file:1:2: error: ...", with the source line and caret after
// them) are the tool's and are also copied to the dump side, where the
// importer attaches them to the failing pass.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace lowertrace::dump {

class StderrSplitter {
public:
  using Sink = std::function<void(std::string_view)>;  // whole lines, with their '\n'
  // drop_chatter: LLVM pass-manager lines ("Running pass: ...") that only
  // appear because we switched dumps on go to neither side.
  StderrSplitter(Sink tool, Sink dump, bool drop_chatter);
  void feed(std::string_view bytes);
  void finish();  // a last line without '\n'
  std::uint64_t dump_bytes() const { return dump_bytes_; }

private:
  enum class State {
    None,       // the tool's own text
    Mlir,       // an MLIR op being printed
    MlirAfter,  // just after an MLIR dump's empty line: "{-#" resources may follow
    Mir,        // a machine function, up to "# End machine code"
    MirAfter,   // just after "# End machine code": one empty line is the dump's
    Llvm,       // LLVM IR
  };
  void line(std::string_view with_nl);
  void to_tool(std::string_view with_nl);
  void to_dump(std::string_view with_nl);
  bool llvm_body_line(std::string_view l);

  Sink tool_, dump_;
  bool drop_chatter_;
  std::string partial_;
  State state_ = State::None;
  long depth_ = 0;           // brace depth of the dump so far (MLIR, LLVM)
  bool opened_ = false;      // a brace was opened: the op/function is complete at depth 0
  bool module_ = false;      // the MLIR op is a module (its print ends in a newline of its own)
  int trailer_left_ = 0;     // empty lines after an MLIR dump that are still the printer's
  bool llvm_function_ = false;  // the LLVM dump's unit is a function or loop, not the module
  std::size_t diag_copy_ = 0;   // bytes of a diagnostic's context still copied to the dump side
  std::uint64_t dump_bytes_ = 0;
};

}  // namespace lowertrace::dump
