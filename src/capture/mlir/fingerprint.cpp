#include "capture/mlir/fingerprint.h"

#include <mlir/IR/Operation.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <array>

namespace lowertrace::mlir {

namespace {
// Words are gathered in a small buffer and hashed in batches: one streaming
// update per field would cost more than the field itself.
class Hasher {
public:
  Hasher() { XXH3_128bits_reset(&state_); }
  void add(const void *p) { add(reinterpret_cast<std::uintptr_t>(p)); }
  void add(std::uint64_t w) {
    if (n_ == buf_.size()) drain();
    buf_[n_++] = w;
  }
  Fingerprint result() {
    drain();
    XXH128_hash_t h = XXH3_128bits_digest(&state_);
    return {h.high64, h.low64};
  }

private:
  void drain() {
    XXH3_128bits_update(&state_, buf_.data(), n_ * sizeof(std::uint64_t));
    n_ = 0;
  }
  XXH3_state_t state_;
  std::array<std::uint64_t, 1024> buf_;
  size_t n_ = 0;
};
}  // namespace

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
  return h.result();
}

}  // namespace lowertrace::mlir
