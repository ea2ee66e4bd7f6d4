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

// A module or an SCC: passes on those (and their wrappers) may add or delete
// functions, which renumbers what other functions' prints show.
bool may_add_or_delete_functions(const llvm::Any &ir);

// The fingerprint of what print() would show, without printing: a loop's
// function, an SCC's defined functions in order (fingerprint.h).
Fingerprint fingerprint(const llvm::Any &ir);

}  // namespace lowertrace::llvm_capture
