// engine/codegen_workflow.h - the three-file edit-and-recompile workflow.
//
// The host generates source (PTX, LLVM IR, C++...). The user may edit a
// working copy W of it and rerun; the edit must then be what gets compiled,
// until the generator itself changes. Three files decide:
//   W = <path>            working copy (the user edits this one)
//   O = <path>.original   baseline: the codegen output W was last made from
//   L = <path>.latest     this run's raw codegen output (written first, always)
// Texts are compared with trailing whitespace ignored (like Python's rstrip),
// so an editor adding a final newline is not an edit.
//
//   case          condition                        files                       source
//   INIT          W missing                        W := gen, O := gen          gen
//   INIT          W exists, O missing, W == gen    O := gen (nothing to save)  gen
//   INIT-BACKUP   W exists, O missing, W != gen    back W up, W := O := gen    gen
//   "" (silent)   W == O, gen == O                 nothing                     gen
//   REGENERATED   W == O, gen != O                 W := gen, O := gen          gen
//   PATCHED       W != O, gen == O                 nothing                     W
//   SYNCED        W != O, gen != O, W == gen       O := gen                    W
//   CONFLICT      W != O, gen != O, W != gen       back W and O up, W:=O:=gen  gen
//
// Unlike the original, backups never overwrite earlier ones, and the
// transaction is locked against other processes as well as other threads.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lowertrace::codegen {

struct Outcome {
  std::string source;  // what the host must compile
  // "" (silent), "INIT", "INIT-BACKUP", "REGENERATED", "PATCHED", "SYNCED", "CONFLICT".
  // Empty also after an I/O failure (then messages holds the warning).
  std::string tag;
  // Console lines without the "  [lower_trace] " prefix. A warning line starts
  // with "WARNING: " (print it with util::warn after stripping that, or as is).
  std::vector<std::string> messages;
  std::vector<std::string> backups;  // backup files written by this call
};

// Runs the three-way decision for `working_copy`. Never throws; any file I/O
// failure gives "WARNING: codegen file I/O failed: <reason>" and source = gen.
// `label` (e.g. "codegen/07_codegen") prefixes the tagged lines as
// "<label>: PATCHED (user edits)", as the original prints them; the INIT line
// ("codegen source initialized at: <W>") and warnings are never prefixed.
Outcome resolve(const std::string &working_copy, std::string_view generated,
                std::string_view label = {});

// File extension (without the dot) for a codegen language name, case-insensitive:
// ptx->ptx, llvm-ir->ll, asm->s, c++/cpp->cpp, cuda->cu, mlir->mlir, c->c, ...
// Unknown names give "txt".
std::string extension_for(std::string_view language);

// Companion paths, exposed for tests and the report.
inline std::string baseline_path(const std::string &w) { return w + ".original"; }
inline std::string latest_path(const std::string &w) { return w + ".latest"; }
inline std::string lock_path(const std::string &w) { return w + ".lock"; }

}  // namespace lowertrace::codegen
