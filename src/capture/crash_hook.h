// capture/crash_hook.h - front ends that run inside an LLVM-based compiler
// finish their sessions when it crashes (see engine/crash.h).
#pragma once

#include "engine/crash.h"

#include <llvm/Support/Signals.h>

#include <mutex>

namespace lowertrace::capture {

// Registered after the host's stack-dump printer (InitLLVM runs first), so
// our lines follow the compiler's own crash output.
inline void hook_crashes() {
  static std::once_flag once;
  std::call_once(once, [] {
    ::llvm::sys::AddSignalHandler([](void *) { crash::on_fatal_signal(); }, nullptr);
    crash::install();
  });
}

}  // namespace lowertrace::capture
