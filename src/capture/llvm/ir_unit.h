// capture/llvm/ir_unit.h - what a pass ran on, as the instrumentation sees it.
//
// Callbacks get the IR unit as llvm::Any holding const Module*, Function*,
// Loop*, LazyCallGraph::SCC* (or MachineFunction* in new-PM codegen). We print
// the unit the way -print-after-all does by default: a module whole, a
// function alone, a loop as its whole function (a bare loop body is not valid
// IR to read), an SCC as its functions in order.
#pragma once

#include "fingerprint.h"

#include <cstdint>
#include <memory>
#include <string>

namespace llvm {
class Any;
class Module;
}  // namespace llvm

namespace lowertrace::llvm_capture {

struct IrUnit {
  const void *key = nullptr;      // identity of the printed object (a loop maps to its function)
  const llvm::Module *module = nullptr;
  std::string name;               // as in LLVM banners: [module], f, (f, g), loop %h in function f
  bool known = false;             // false for units we cannot print (machine functions)
};

IrUnit describe(const llvm::Any &ir);

// The IR text of the unit (empty for unknown units).
std::string print(const llvm::Any &ir);

// print(), with the module-wide numbering a function print starts with
// (SlotTracker numbering every metadata node of the module, the larger part
// of printing a small function in a big module) done once per `generation`
// and reused while the generation stays the same. The caller starts a new
// generation whenever the numbering may have changed (fingerprint.h's context).
// A function whose call sites carry attribute sets no function has is printed
// with fresh numbering: printing it would leave its groups in the shared table.
class Printer {
public:
  Printer();
  ~Printer();
  std::string print(const llvm::Any &ir, std::uint64_t generation);
  std::uint64_t builds = 0, reused = 0;  // LT_REPORT_STATS

private:
  struct Shared;
  std::unique_ptr<Shared> shared_;
};

// A module or an SCC: passes on those (and their wrappers) may add or delete
// functions, which renumbers what other functions' prints show.
bool may_add_or_delete_functions(const llvm::Any &ir);

// The fingerprint of what print() would show, without printing: a loop's
// function, an SCC's defined functions in order (fingerprint.h). `context`:
// the unit's contribution to other units' prints (for a module, the module).
// A unit of another kind gets a fingerprint equal to no other: always printed.
Fingerprint fingerprint(const llvm::Any &ir, Fingerprint *context = nullptr);

}  // namespace lowertrace::llvm_capture
