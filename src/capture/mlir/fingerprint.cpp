#include "capture/mlir/fingerprint.h"

#include <mlir/IR/Operation.h>

#include "util/word_hasher.h"

namespace lowertrace::mlir {

using Hasher = util::WordHasher;

Fingerprint fingerprint(::mlir::Operation *top) {
  Hasher h;
  top->walk([&](::mlir::Operation *op) {
    h.add(op);
    // The parent pins the nesting: moving an op changes the hash.
    if (op != top) h.add(op->getParentOp());
    h.add(op->getRawDictionaryAttrs().getAsOpaquePointer());
    h.add(static_cast<std::uint64_t>(op->hashProperties()));
    for (::mlir::Region &region : op->getRegions()) {
      h.add(0xB10C0000u + region.getRegionNumber());
      for (::mlir::Block &block : region) {
        h.add(&block);
        for (::mlir::BlockArgument arg : block.getArguments()) {
          h.add(arg.getAsOpaquePointer());
          h.add(arg.getType().getAsOpaquePointer());
        }
      }
    }
    h.add(op->getLoc().getAsOpaquePointer());
    for (::mlir::Value v : op->getOperands()) h.add(v.getAsOpaquePointer());
    for (::mlir::Block *s : op->getSuccessors()) h.add(s);
    for (::mlir::Type t : op->getResultTypes()) h.add(t.getAsOpaquePointer());
    // Separates one op's fields from the next op's.
    h.add(0xFEEDF00Du + op->getNumOperands() * 0x10001ull + op->getNumResults());
  });
  auto [hi, lo] = h.result();
  return {hi, lo};
}

}  // namespace lowertrace::mlir
