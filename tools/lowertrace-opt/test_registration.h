// Entry points of the generated test_registration.cpp (built from the symbol
// tables of Debian's libMLIR*Test*.a by gen_test_registration.cmake).
#pragma once

namespace mlir {
class DialectRegistry;
}

namespace lowertrace_opt::generated {
// Registers every test pass and test pipeline that mlir-opt-22 has.
void registerTestPasses();
// Adds the test dialects (test, test_dyn, test_irdl_to_cpp) and the test
// extensions of the transform dialect.
void registerTestDialects(mlir::DialectRegistry &registry);
}  // namespace lowertrace_opt::generated
