// dump/ir_text.h - the little IR understanding dump stitching needs: which
// unit a text is, and cutting a unit out of (or into) a module text.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lowertrace::dump {

// MLIR: "builtin.module", "func.func @f", "tt.func @add_kernel" for the first
// op of a dump body ("module attributes {...} {" -> "builtin.module").
std::string mlir_unit_of(std::string_view body);
// Op kind part of a unit: "func.func @f" -> "func.func".
std::string_view unit_kind(std::string_view unit);
// Cuts op `unit` ("func.func @f") out of a larger text, re-indented to column 0.
std::optional<std::string> mlir_extract(std::string_view text, std::string_view unit);
// The Triton kernel a module is for: first public tt.func, else first llvm.func
// with nvvm.kernel / a "kernel" attribute, else first function symbol. "" if none.
std::string mlir_kernel_name(std::string_view body);

// LLVM IR: "[module]" for a module body, else the first defined function name.
std::string llvm_unit_of(std::string_view body);
// Function names of a CGSCC unit "(f, g)".
std::vector<std::string> llvm_scc_names(std::string_view unit);
// "loop %x in function f" -> "f"; "" if not a loop unit.
std::string llvm_loop_function(std::string_view unit);
// The "; Function Attrs" + "define ... {" ... "}" block of `fn`.
std::optional<std::string> llvm_extract_function(std::string_view module, std::string_view fn);
// Every function block of a body, by name.
std::vector<std::pair<std::string, std::string>> llvm_split_functions(std::string_view body);
// `module` with the blocks of the functions in `fns` replaced by the given texts.
std::string llvm_splice(std::string_view module, const std::map<std::string, std::string> &fns);
// MIR: "# Machine code for function f: ..." -> "f".
std::string mir_function_of(std::string_view body);

// -print-changed=diff/cdiff bodies: every line starts with ' ', '-' or '+'.
bool is_diff_body(std::string_view body);
// The two sides of such a body (ANSI colours removed).
std::pair<std::string, std::string> split_diff_body(std::string_view body);

}  // namespace lowertrace::dump
