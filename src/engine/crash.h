// engine/crash.h - a pass that crashes still ends as a `failed` record.
//
// When the traced compiler dies of a fatal signal (SIGSEGV, SIGABRT from
// abort() or an LLVM fatal error, ...), every live Session is finished from
// the signal handler: the pass that was running becomes `failed` with
// "crashed: SIG<NAME>" and keeps the IR before it, and trace.json and the
// final report are written. The compiler's own crash output comes first and
// its exit status is unchanged:
//
//  - The work runs from the host's fatal-signal callback (LLVM's
//    sys::AddSignalHandler, registered by the front end after the stack-dump
//    printer), i.e. after the stack dump; the host then re-raises as usual.
//  - LLVM's callbacks are not told which signal it was. install() puts a
//    pass-through handler in front of the host's that notes the signal, puts
//    the host's handler back and re-sends the signal (same siginfo) to the
//    thread, blocked until it returns, so the host's handler runs at the
//    very point of the crash and prints the very same stack dump.
//  - Where no host handler exists (default action), the pass-through handler
//    finishes the sessions itself before re-sending.
//  - While finishing, a second fault or a hang (watchdog) ends the process
//    with the original signal, so the exit status stays the compiler's.
#pragma once

#include <functional>
#include <string>

namespace lowertrace::crash {

// Idempotent. Call after the host installed its own signal handlers.
void install();

// Finishes every live session (once per process). Safe to call only from a
// fatal-signal context; the host re-raises afterwards.
void on_fatal_signal();

// "SIGSEGV", or "signal N".
std::string signal_name(int sig);

// A front end that holds records the session has not seen yet (the MLIR
// instrumentation's nested passes) hands them over before the sessions are
// finished: `flush("crashed: SIGSEGV")` runs first, in the signal handler.
void add_flusher(const void *key, std::function<void(const std::string &)> flush);
void remove_flusher(const void *key);

}  // namespace lowertrace::crash
