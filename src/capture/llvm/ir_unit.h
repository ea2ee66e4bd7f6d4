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
#include <utility>
#include <vector>

namespace llvm {
class Any;
class Function;
class MDNode;
class Module;
}  // namespace llvm

namespace lowertrace::llvm_capture {

struct IrUnit {
  const void *key = nullptr;      // identity of the printed object (a loop maps to its function)
  const llvm::Module *module = nullptr;
  const llvm::Function *function = nullptr;  // a function, or a loop's function
  std::string name;               // as in LLVM banners: [module], f, (f, g), loop %h in function f
  bool known = false;             // false for units we cannot print (machine functions)
};

IrUnit describe(const llvm::Any &ir);

// The IR text of the unit (empty for unknown units).
std::string print(const llvm::Any &ir);
// The module's text, as Module::print writes it, in a string of its exact size.
std::string print_module(const llvm::Module &m);
// Gives back a large printed text's unused capacity (it grew by doubling).
void fit_text(std::string &text);

// print(), with the module-wide numbering a function print starts with done
// once per `generation` and reused while the generation stays the same. The
// caller starts a new generation whenever the numbering may have changed
// (fingerprint.h's context).
//
// The numbering itself is what LLVM's SlotTracker gives a function print
// (every metadata node of the module, numbered in module order), but built
// from each function's list of the nodes it numbers, kept between
// generations: a new generation re-reads only the functions the caller said
// were touched. LLVM's own numbering walks every instruction of the module
// for each print, which made -print-after-all, and our first version,
// quadratic in the number of functions.
// A function whose call sites carry attribute sets no function has is printed
// with fresh numbering: printing it would leave its groups in the shared table.
class Printer {
public:
  Printer();
  ~Printer();
  std::string print(const llvm::Any &ir, std::uint64_t generation);
  // The numbering a function print in `m` would use at `generation` (checked,
  // and rebuilt if it moved, as print() does), as a number that changes
  // whenever the numbers of a print may have: a function unchanged since it
  // was printed under the same version prints the same text.
  std::uint64_t version(const llvm::Module &m, std::uint64_t generation);
  // `f` may have changed: its nodes are read again at the next generation.
  void touched(const llvm::Function &f);
  // Anything may have changed (a module pass): every function is read again.
  void touched_all();
  // LT_REPORT_STATS: numberings built and reused, functions (re)read for them.
  std::uint64_t builds = 0, reused = 0, reads = 0;
  // Checking (LT_CHECK_NUMBERING=1, for tests): every function print is
  // compared with LLVM's own (`os << F`); a difference is counted, and
  // LLVM's text is the one returned.
  bool verify = false;
  std::uint64_t mismatches = 0;

private:
  // Whether a touched function's list moved since the numbering was built.
  bool lists_moved();
  using Key = std::pair<std::uint64_t, std::uint64_t>;  // what a numbering is made of, hashed
  void build(const llvm::Module &m, std::uint64_t generation, const Key *key = nullptr);
  struct Shared;
  std::unique_ptr<Shared> shared_;
};

// The metadata nodes SlotTracker numbers for `f`'s body and attachments, in
// the order it numbers them (each also numbers the nodes below it).
void numbered_nodes(const llvm::Function &f, std::vector<const llvm::MDNode *> &out);

// The function whose print stands for the unit (a function, a loop's
// function), printed with the shared numbering; null for other units.
const llvm::Function *numbered_function(const llvm::Any &ir);

// Tells `printer` that the unit may have changed (Printer::touched for each
// of its functions; a module: touched_all).
void touch(Printer &printer, const llvm::Any &ir);

// A module or an SCC: passes on those (and their wrappers) may add or delete
// functions, which renumbers what other functions' prints show.
bool may_add_or_delete_functions(const llvm::Any &ir);

// The fingerprint of what print() would show, without printing: a loop's
// function, an SCC's defined functions in order (fingerprint.h). `context`:
// the unit's contribution to other units' prints (for a module, the module).
// A unit of another kind gets a fingerprint equal to no other: always printed.
Fingerprint fingerprint(const llvm::Any &ir, Fingerprint *context = nullptr);

}  // namespace lowertrace::llvm_capture
