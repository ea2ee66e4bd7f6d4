// run_python.h - `lowertrace run -- python ...` for Triton through the
// Python package's start-up hook (python/lowertrace): the same mechanism as
// `TL_LOWER_TRACE=1 python ...`, so compile workers and threads are traced
// per compile, and the program's stdin/stdout/stderr are left untouched.
#pragma once

#include "lowertrace/config.h"

#include <string>
#include <vector>

namespace lowertrace::cli {

// Whether the interpreter of `cmd` can import the package's start-up module.
bool python_package_available(const std::vector<std::string> &cmd);
// Runs `cmd` with TL_LOWER_TRACE / TL_LOWER_TRACE_DIR from `cfg`; returns its exit status.
int run_python(const std::vector<std::string> &cmd, const Config &cfg);

}  // namespace lowertrace::cli
