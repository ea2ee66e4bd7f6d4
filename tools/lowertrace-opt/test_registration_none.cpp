// Used instead of the generated test_registration.cpp when no libMLIR*Test*.a
// is installed: lowertrace-opt then has only the public dialects and passes
// (configure prints a warning), not mlir-opt-22's test ones.
#include "test_registration.h"

namespace lowertrace_opt::generated {
void registerTestPasses() {}
void registerTestDialects(mlir::DialectRegistry &) {}
}  // namespace lowertrace_opt::generated
