// capture/llvm/tracer.h - turns new-PM pass instrumentation callbacks into Session events.
//
// One Tracer per process (the plugin's static object). Its Session is created
// on the first callback, when the module (and so the script name: the stem of
// the module's source file) is known, and finished when the Tracer is
// destroyed at process exit.
#pragma once

#include "fingerprint.h"
#include "ir_unit.h"
#include "lowertrace/session.h"

#include <chrono>
#include <cstdint>
#include <unordered_map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace llvm {
class Any;
class Module;
class PassInstrumentationCallbacks;
class PreservedAnalyses;
class StringRef;
}  // namespace llvm

namespace lowertrace::llvm_capture {

// A unit's fingerprint and its contribution to other units' prints.
struct UnitState {
  Fingerprint fp, context;
};

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

  // The module the passes ran on since the last call, and its session; null
  // when no pass ran, or when a pass wrote the module out as IR (clang
  // -emit-llvm, -flto: no back end follows). For the plugin's shadow
  // codegen (shadow_codegen.h), once the host's optimiser is done.
  struct Optimized {
    Session *session = nullptr;
    const llvm::Module *module = nullptr;
  };
  Optimized take_optimized();

  // clang, once its optimiser and the shadow back end (shadow_codegen.h)
  // have run: nothing traced follows, so the run is finished on a thread of
  // its own while clang runs its own back end (which that shadow run already
  // traced), instead of after the object file is written. A pass that still
  // came would start a run of its own rather than be lost.
  void finish_beside_host();

private:
  void before(llvm::PassInstrumentationCallbacks &pic, llvm::StringRef pass, const llvm::Any &ir);
  void after(llvm::StringRef pass, const llvm::Any &ir, const llvm::PreservedAnalyses &pa);
  void invalidated(llvm::StringRef pass);
  void skipped(llvm::StringRef pass, const llvm::Any &ir);
  void forget_prints(const llvm::Any *ir);
  // Gives up the session (kept to the process's end, unfreed) and the texts
  // cached for it; `error` is what its run ends with.
  std::shared_ptr<Session> hand_off(std::string &error);
  Session *session_for(const llvm::Any &ir);
  Snapshot snapshot_of(const llvm::Any &ir, const void *key, const UnitState &st);
  UnitState state_of(const llvm::Any &ir, const void *key);
  // Pops open passes down to (and including) the innermost one named `pass`;
  // returns false (and pops nothing) when `pass` is not open.
  bool pop_to(llvm::StringRef pass, struct OpenPass &out);

  Config cfg_;
  std::mutex mu_;
  std::shared_ptr<Session> session_;
  bool owns_session_ = true;
  std::optional<Session::PhaseScope> phase_;
  std::vector<struct OpenPass> open_;

  // Text cache per unit. A unit's print depends on the unit (its
  // fingerprint) and on the rest of the module (metadata and attribute group
  // numbers, unnamed globals). The epoch advances whenever a pass changed
  // something other units' prints depend on (a unit's context hash or the
  // module's, fingerprint.h); a print cached in the current epoch with the
  // unit's current fingerprint is exactly what printing again would give.
  struct Cached {
    std::uint64_t epoch = 0;
    UnitState state;
    Snapshot snap;
    // Printer::version() the text was printed under (function and loop
    // units): a text still current in its numbering is reused across epochs.
    std::uint64_t version = 0;
  };
  // Whether `c`, printed for the unit now fingerprinted `st`, is its text now.
  bool current(const Cached &c, const llvm::Any &ir, const UnitState &st);
  std::uint64_t epoch_ = 0;
  std::unordered_map<const void *, Cached> cache_;
  Fingerprint context_;  // module_context() as last seen
  ContextWatch watch_;    // keeps it current without a walk after function passes
  Printer printer_;      // reuses a function print's module numbering within an epoch
  bool have_context_ = false;
  // Counts callbacks that may follow a change; a unit's fingerprint taken
  // after a pass is still current if nothing ran since (the next pass on the
  // same function, the common case, needs no second walk).
  std::uint64_t tick_ = 0;
  struct Last {
    const void *key = nullptr;
    UnitState state;
    std::uint64_t tick = ~0ull;
  } last_;
  bool warned_mismatch_ = false;
  std::thread finisher_;  // finish_beside_host(); joined at exit
  const llvm::Module *module_ = nullptr;  // for take_optimized()
  bool wrote_ir_ = false;
  struct {
    std::uint64_t walks = 0, before_prints = 0, after_prints = 0;
  } stats_;  // LT_REPORT_STATS=1 prints them at exit
};

struct OpenPass {
  std::string pass;
  int index = -1;
  Snapshot before;
  UnitState before_state;
  std::uint64_t epoch = 0;  // the tracer's epoch when `before` was taken
  const void *key = nullptr;
  const llvm::Module *module = nullptr;
  const llvm::Function *function = nullptr;  // IrUnit::function
  std::uint64_t version = 0;                 // of `before` (Tracer::Cached)
  std::chrono::steady_clock::time_point start;
};

}  // namespace lowertrace::llvm_capture
