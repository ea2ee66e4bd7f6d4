// What Debian's mlir-opt-22 registers beyond the public "register all" calls:
// its test dialects and test passes. The calls themselves are generated from
// the test archives (see gen_test_registration.cmake); this file only keeps
// main.cpp's interface stable.
#include "lowertrace_opt_extras.h"
#include "test_registration.h"

namespace lowertrace_opt {
void registerExtraPasses() { generated::registerTestPasses(); }
void registerExtraDialects(mlir::DialectRegistry &registry) {
  generated::registerTestDialects(registry);
}
}  // namespace lowertrace_opt
