// util/no_xfsz.h - trace I/O must never kill the traced compiler.
//
// Under a file-size limit (ulimit -f) a write past it raises SIGXFSZ, whose
// default action ends the process (exit 153). While one of our writes runs,
// SIGXFSZ is blocked in the writing thread only, so the write fails with
// EFBIG instead (a trace I/O warning); the signal that write left pending is
// then consumed. The process-wide disposition is untouched, so the compiler's
// own writes, on any thread, behave exactly as without tracing.
#pragma once

#include <csignal>

namespace lowertrace::util {

class NoXfsz {
public:
  NoXfsz();
  ~NoXfsz();
  NoXfsz(const NoXfsz &) = delete;
  NoXfsz &operator=(const NoXfsz &) = delete;
  // Call when a write failed with EFBIG: that write raised SIGXFSZ.
  void hit() { hit_ = true; }

private:
  sigset_t old_;
  bool blocked_ = false;  // we blocked it (it was not blocked before)
  bool hit_ = false;
};

}  // namespace lowertrace::util
