// capture/mlir/fingerprint.h - a cheap "has this op changed?" hash.
//
// mlir::OperationFingerPrint answers the same question but feeds every field
// through SHA-1, which made fingerprinting a third of lowertrace's cost on a
// 2,000-function module (BENCHMARKS.md). We hash the same identity-level
// facts (op, parent, attribute dictionary, properties, blocks and their
// arguments, location, operands, successors, result types) with XXH3-128 over
// a word buffer instead. Like MLIR's, it relies on the uniqued storage of
// attributes and types: a pointer that did not move means a value that did
// not change. Block-argument types are included as well, since a pass may
// retype an argument in place.
#pragma once

#include <cstdint>

namespace mlir {
class Operation;
}

namespace lowertrace::mlir {

struct Fingerprint {
  std::uint64_t hi = 0, lo = 0;
  friend bool operator==(const Fingerprint &, const Fingerprint &) = default;
};

// Hash of `op` and everything nested in it.
Fingerprint fingerprint(::mlir::Operation *op);

}  // namespace lowertrace::mlir
