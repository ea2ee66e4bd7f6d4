// capture/llvm/fingerprint.h - a cheap "would this unit print differently?" hash.
//
// The plugin prints a unit only when its fingerprint moved: printing every
// unit before and after every pass was nearly all of its cost (SlotTracker
// numbering the module's metadata for each print). The fingerprint must
// therefore cover everything the printer shows, or a change goes unrecorded;
// a false alarm only costs one print (texts are then compared byte for byte).
//
// llvm::StructuralHash (LLVM 22, even with DetailedHash) is made for "did the
// pass report its changes honestly" and misses most of what prints: value and
// block names, flags (nsw, inbounds, fast-math), alignment, volatile and
// atomic ordering, attributes, metadata, debug records, layout order of blocks
// (it walks successors), predecessor order, globals beyond their type. So we
// walk the IR ourselves and hash, into XXH3-128:
//  - instructions in layout order: opcode, type, flags, the per-kind fields
//    the printer shows, operands (local values by position of first mention,
//    so rewiring or reordering shows; constants by value; globals by name),
//    phi incoming blocks, attribute lists, metadata attachments, debug records;
//  - blocks in layout order with their names and predecessor lists (the
//    "; preds =" comment), arguments, the function header;
//  - for a module: globals, aliases, ifuncs, every function, named metadata
//    and the definitions of every metadata node reachable (module prints
//    show them).
// Types, uniqued constants and attribute lists are hashed by identity: they
// are uniqued per LLVMContext and never freed before it. Metadata nodes
// referenced from a function print as numbers (!7), so a function's hash
// takes their identity; what numbers they get depends on the whole module,
// which the tracer tracks with the `context` hashes below.
#pragma once

#include <llvm/IR/ValueHandle.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace lowertrace::llvm_capture {

struct Fingerprint {
  std::uint64_t hi = 0, lo = 0;
  friend bool operator==(const Fingerprint &, const Fingerprint &) = default;
};

// The function as `os << F` / Function::print shows it (header and body).
// `context`, if not null, gets a hash of what the function contributes to
// other units' prints: whether it is named (unnamed ones are numbered), its
// function attribute set (attribute groups are numbered module-wide) and the
// metadata nodes it numbers, each at its first mention (printing any function
// numbers every function's metadata, in module order). A pass that changes a
// function but not this leaves every other unit's print as it was.
Fingerprint fingerprint(const llvm::Function &f, Fingerprint *context = nullptr);

// The rest of what other units' prints depend on: the function list (order,
// names, attribute sets), globals (attributes, metadata, unnamed ones),
// aliases, ifuncs and named metadata. Linear in globals and functions, not
// in instructions.
Fingerprint module_context(const llvm::Module &m);

// module_context(), kept current across function and loop passes without
// walking the function list after each one (that walk, after every pass that
// changed a function, was quadratic in functions). A function pass may add
// declarations and globals and change declarations' attributes (library-call
// simplification infers them), but not other definitions nor the order of
// the list: after one, re-hashing globals and the declarations seen at the
// last full read, with O(1) checks on the symbol table and the list's ends,
// tells whether the full read is needed. A pass that changed its own
// function's contribution (fingerprint()'s `context`) calls read().
class ContextWatch {
public:
  Fingerprint read(const llvm::Module &m);  // module_context(m), remembered
  Fingerprint after_function_pass(const llvm::Module &m);
  std::uint64_t quick() const { return quick_; }  // answers given without a full read

private:
  const llvm::Module *module_ = nullptr;
  Fingerprint context_, outside_;
  std::size_t symbols_ = 0;
  const void *first_ = nullptr, *last_ = nullptr;
  std::vector<llvm::WeakVH> declarations_;
  std::uint64_t quick_ = 0;
};

// The module as Module::print shows it, metadata definitions included.
Fingerprint fingerprint(const llvm::Module &m);

// Order-dependent combination (an SCC's functions, in order).
Fingerprint combine(const Fingerprint &a, const Fingerprint &b);

}  // namespace lowertrace::llvm_capture
