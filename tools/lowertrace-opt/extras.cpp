// Placeholder until the test dialect/pass registration is generated from
// Debian's libMLIR*Test*.a (see tools/CMakeLists.txt).
#include "lowertrace_opt_extras.h"

namespace lowertrace_opt {
void registerExtraPasses() {}
void registerExtraDialects(mlir::DialectRegistry &) {}
}  // namespace lowertrace_opt
