// engine/session_registry.h - every live Session of the process.
//
// Session::current() is "the most recent session created on this thread and
// still alive"; a fatal-signal handler must reach every live session. A
// per-thread chain of previous pointers broke when sessions were destroyed in
// creation order (the chain kept a freed one), so sessions register here and
// unregister in their destructor, in any order and from any thread.
#pragma once

#include <vector>

namespace lowertrace {
class Session;
}

namespace lowertrace::registry {

void add(Session *s);     // on the creating thread
void remove(Session *s);  // from any thread
Session *current();       // newest live session created on the calling thread

// Every live session, newest first. For a crash handler: gives up (returns
// false) if the registry stays locked for about `wait_ms`.
bool snapshot(std::vector<Session *> &out, int wait_ms);

}  // namespace lowertrace::registry
