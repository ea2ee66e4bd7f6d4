// util/fatal.h - "a fatal signal is being handled": sinks then wait only a
// bounded time for their writer threads (one may be the thread that crashed).
#pragma once

namespace lowertrace::util {

bool in_fatal_signal();
void enter_fatal_signal();

}  // namespace lowertrace::util
