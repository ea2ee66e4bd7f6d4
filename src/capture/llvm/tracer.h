// capture/llvm/tracer.h - turns new-PM pass instrumentation callbacks into Session events.
//
// One Tracer per process (the plugin's static object). Its Session is created
// on the first callback, when the module (and so the script name: the stem of
// the module's source file) is known, and finished when the Tracer is
// destroyed at process exit.
#pragma once

#include "lowertrace/session.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Any;
class PassInstrumentationCallbacks;
class PreservedAnalyses;
class StringRef;
}  // namespace llvm

namespace lowertrace::llvm_capture {

class Tracer {
public:
  Tracer();
  // Records into `session` (in its current phase) instead of a session of its
  // own, which it does not finish: the MLIR codegen step's LLVM optimiser.
  explicit Tracer(Session &session);
  ~Tracer();  // finishes its own session: trace.json and the report get written here
  static Tracer &instance();

  bool enabled() const { return cfg_.enabled(); }
  void attach(llvm::PassInstrumentationCallbacks &pic);

private:
  void before(llvm::PassInstrumentationCallbacks &pic, llvm::StringRef pass, const llvm::Any &ir);
  void after(llvm::StringRef pass, const llvm::Any &ir, const llvm::PreservedAnalyses &pa);
  void invalidated(llvm::StringRef pass);
  void skipped(llvm::StringRef pass, const llvm::Any &ir);
  void forget_prints();
  Session *session_for(const llvm::Any &ir);
  Snapshot snapshot_of(const llvm::Any &ir, const void *key);
  // Pops open passes down to (and including) the innermost one named `pass`;
  // returns false (and pops nothing) when `pass` is not open.
  bool pop_to(llvm::StringRef pass, struct OpenPass &out);

  Config cfg_;
  std::mutex mu_;
  std::shared_ptr<Session> session_;
  bool owns_session_ = true;
  std::optional<Session::PhaseScope> phase_;
  std::vector<struct OpenPass> open_;

  // Text cache for "before" snapshots. The epoch advances whenever a pass may
  // have changed anything; a cached print taken in the current epoch is still
  // exactly what printing again would give.
  std::uint64_t epoch_ = 0;
  std::map<const void *, std::pair<std::uint64_t, Snapshot>> cache_;
  bool warned_mismatch_ = false;
};

struct OpenPass {
  std::string pass;
  int index = -1;
  Snapshot before;
  const void *key = nullptr;
  std::chrono::steady_clock::time_point start;
};

}  // namespace lowertrace::llvm_capture
