#include "util/fatal.h"

#include <atomic>

namespace lowertrace::util {

namespace {
std::atomic<bool> g_fatal{false};
}

bool in_fatal_signal() { return g_fatal.load(std::memory_order_relaxed); }
void enter_fatal_signal() { g_fatal.store(true); }

}  // namespace lowertrace::util
