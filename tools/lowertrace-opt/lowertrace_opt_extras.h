// Registration of what Debian's mlir-opt-22 has beyond the public "register
// all" calls: its test dialects and test passes (see extras.cpp).
#pragma once

namespace mlir {
class DialectRegistry;
}

namespace lowertrace_opt {
void registerExtraPasses();
void registerExtraDialects(mlir::DialectRegistry &registry);
}  // namespace lowertrace_opt
