#include "tracer.h"

#include "capture/crash_hook.h"
#include "ir_unit.h"

#include <llvm/IR/Function.h>
#include <llvm/Support/raw_ostream.h>
#include "pass_filter.h"
#include "util/fs.h"
#include "util/log.h"

#include <llvm/ADT/Any.h>
#include <llvm/IR/Analysis.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassInstrumentation.h>

#include <cstdlib>

namespace lowertrace::llvm_capture {

namespace {
// LLVM is built without exceptions: nothing may unwind through its frames.
template <class F> void guarded(const char *what, F &&f) noexcept {
  try {
    f();
  } catch (const std::exception &e) {
    util::warn(std::string("LLVM plugin ") + what + " failed: " + e.what());
  } catch (...) {
    util::warn(std::string("LLVM plugin ") + what + " failed");
  }
}
double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}
}  // namespace

namespace {
bool env_on(const char *name) {
  const char *v = std::getenv(name);
  return v && *v && std::string(v) != "0";
}
}  // namespace

namespace {
// The process-wide tracer is destroyed at exit, once its run is finished and
// on disk: freeing the run's records and snapshots one by one then took
// 0.1 s (clang -O2, 92,000 records) after the report was written, for
// memory the process hands back whole a moment later. Its session and text
// cache go here instead, still reachable (no leak checker reports them), as
// clang's own cc1 leaves its AST and module unfreed (-disable-free). The
// sinks' writer threads stay parked until the process ends.
void keep_until_exit(std::shared_ptr<void> p) {
  static auto *kept = new std::vector<std::shared_ptr<void>>();
  kept->push_back(std::move(p));
}
}  // namespace

Tracer::Tracer() : cfg_(current_config()) { printer_.verify = env_on("LT_CHECK_NUMBERING"); }

Tracer::Tracer(Session &session)
    : cfg_(session.config()), session_(std::shared_ptr<Session>(), &session), owns_session_(false) {
  printer_.verify = env_on("LT_CHECK_NUMBERING");
}

Tracer::~Tracer() {
  guarded("finish", [&] {
    std::lock_guard<std::mutex> g(mu_);
    phase_.reset();
    if (const char *v = std::getenv("LT_REPORT_STATS"); v && *v && std::string(v) != "0")
      util::info("llvm plugin: " + std::to_string(stats_.walks) + " fingerprint walks, " +
                 std::to_string(stats_.before_prints) + " before-prints, " +
                 std::to_string(stats_.after_prints) + " after-prints, " + std::to_string(epoch_) +
                 " epochs; numbering built " + std::to_string(printer_.builds) + " times (" +
                 std::to_string(printer_.reads) + " function reads), reused " +
                 std::to_string(printer_.reused) + "; module context re-read after function passes " +
                 "skipped " + std::to_string(watch_.quick()) + " times");
    if (printer_.verify)
      util::info("llvm plugin: numbering checked against LLVM's own on every function print: " +
                 std::to_string(printer_.mismatches) + " differed");
    if (finisher_.joinable()) finisher_.join();
    if (session_ && owns_session_) {
      std::string error;
      hand_off(error)->finish(error);
    }
    session_.reset();
  });
}

Tracer &Tracer::instance() {
  // A function-local static: destroyed at exit, after the host is done with passes.
  static Tracer t;
  return t;
}

void Tracer::attach(llvm::PassInstrumentationCallbacks &pic) {
  capture::hook_crashes();  // a crashing pass still ends as a failed record
  llvm::PassInstrumentationCallbacks *p = &pic;
  pic.registerBeforeNonSkippedPassCallback([this, p](llvm::StringRef pass, llvm::Any ir) {
    if (!is_plumbing({pass.data(), pass.size()})) guarded("before-pass", [&] { before(*p, pass, ir); });
    if (writes_ir({pass.data(), pass.size()})) {
      std::lock_guard<std::mutex> g(mu_);
      wrote_ir_ = true;
    }
  });
  // Wrappers are not recorded, but some change IR themselves (the inliner's
  // wrapper and the SCC walk delete dead functions, which renumbers attribute
  // groups in every other function's print): after a module or SCC wrapper,
  // no cached print is current. Function and loop wrappers only run passes.
  pic.registerAfterPassCallback(
      [this](llvm::StringRef pass, llvm::Any ir, const llvm::PreservedAnalyses &pa) {
        if (!is_plumbing({pass.data(), pass.size()})) guarded("after-pass", [&] { after(pass, ir, pa); });
        else if (may_add_or_delete_functions(ir)) forget_prints(&ir);
      });
  pic.registerAfterPassInvalidatedCallback([this](llvm::StringRef pass, const llvm::PreservedAnalyses &) {
    if (is_plumbing({pass.data(), pass.size()})) forget_prints(nullptr);
    else guarded("after-pass", [&] { invalidated(pass); });
  });
  pic.registerBeforeSkippedPassCallback([this](llvm::StringRef pass, llvm::Any ir) {
    if (!is_plumbing({pass.data(), pass.size()})) guarded("skipped-pass", [&] { skipped(pass, ir); });
  });
}

std::shared_ptr<Session> Tracer::hand_off(std::string &error) {
  phase_.reset();
  error = open_.empty() ? "" : "pass did not complete";
  open_.clear();
  std::shared_ptr<Session> s = std::move(session_);
  keep_until_exit(s);
  // The cached texts belong to this session's store (its snapshot ids): a
  // later session starts from nothing.
  keep_until_exit(std::make_shared<decltype(cache_)>(std::move(cache_)));
  cache_.clear();
  last_ = {};
  ++epoch_;
  return s;
}

void Tracer::finish_beside_host() {
  guarded("finish", [&] {
    std::lock_guard<std::mutex> g(mu_);
    if (!session_ || !owns_session_ || finisher_.joinable()) return;
    std::string error;
    std::shared_ptr<Session> s = hand_off(error);
    try {
      finisher_ = std::thread([s, error] { s->finish(error); });
    } catch (const std::system_error &) {
      s->finish(error);  // no thread to be had: finish it here
    }
  });
}

Tracer::Optimized Tracer::take_optimized() {
  std::lock_guard<std::mutex> g(mu_);
  Optimized o;
  if (!wrote_ir_ && module_) o = {session_.get(), module_};
  module_ = nullptr;
  wrote_ir_ = false;
  return o;
}

void Tracer::forget_prints(const llvm::Any *ir) {
  std::lock_guard<std::mutex> g(mu_);
  ++tick_;
  // A module or SCC wrapper: it renumbered other prints only if it added or
  // deleted functions (or changed what module_context() sees).
  if (const llvm::Module *m = ir ? describe(*ir).module : nullptr) {
    Fingerprint c = watch_.read(*m);
    if (have_context_ && c == context_) return;
    context_ = c;
    have_context_ = true;
  }
  ++epoch_;
}

UnitState Tracer::state_of(const llvm::Any &ir, const void *key) {
  // The unit a pass just left, untouched since: its fingerprint is known.
  if (last_.key == key && last_.tick == tick_) return last_.state;
  ++stats_.walks;
  UnitState st;
  st.fp = fingerprint(ir, &st.context);
  return st;
}

Session *Tracer::session_for(const llvm::Any &ir) {
  if (session_) return session_.get();
  IrUnit u = describe(ir);
  SessionOptions opts;
  if (u.module) {
    std::string src = u.module->getSourceFileName();
    if (src.empty()) src = u.module->getModuleIdentifier();
    opts.script = util::stem(src);
    opts.input = src;
  }
  opts.tool = "llvm-plugin";
  // Tens of thousands of records, most of them no-ops: one raw file per
  // distinct text, and live report chunks batched.
  opts.raw_file_per_text = true;
  opts.live_chunk_ms = 250;
  // A console line per record, written at most 100 ms late instead of one
  // write to stderr per pass.
  opts.console_batch_ms = 100;
  // The sinks keep what they need (raw files, the report's payloads): the
  // session need not hold every text of the run until exit.
  opts.release_texts = !printer_.verify;  // checking compares reused texts
  session_ = std::make_shared<Session>(std::move(opts), cfg_);
  phase_.emplace(session_->phase("llvm"));
  return session_.get();
}

bool Tracer::current(const Cached &c, const llvm::Any &ir, const UnitState &st) {
  if (!(c.state.fp == st.fp)) return false;
  // A function's text under the shared numbering is current while that
  // numbering's version is; the epoch only says the version must be checked
  // (most epochs leave every number where it was).
  const llvm::Function *f = numbered_function(ir);
  bool same = f ? c.version == printer_.version(*f->getParent(), epoch_) : c.epoch == epoch_;
  if (same && f && printer_.verify && c.snap) {
    // LT_CHECK_NUMBERING: a reused text too must be what LLVM prints now.
    std::string want;
    llvm::raw_string_ostream os(want);
    os << *f;
    os.flush();
    if (want != c.snap->text) {
      ++printer_.mismatches;
      return false;
    }
  }
  return same;
}

Snapshot Tracer::snapshot_of(const llvm::Any &ir, const void *key, const UnitState &st) {
  auto it = cache_.find(key);
  if (it != cache_.end()) {
    // Changed by a pass that ran on another unit (a caller rewritten by an
    // SCC pass): its numbered nodes are read again, and if the change
    // renumbers other units' prints, a new epoch starts.
    if (!(it->second.state.fp == st.fp)) {
      touch(printer_, ir);
      if (!(it->second.state.context == st.context)) ++epoch_;
    } else if (current(it->second, ir, st)) {
      return it->second.snap;
    }
  }
  ++stats_.before_prints;
  Snapshot s = session_->intern(printer_.print(ir, epoch_));
  cache_[key] = {epoch_, st, s, printer_.builds};
  return s;
}

void Tracer::before(llvm::PassInstrumentationCallbacks &pic, llvm::StringRef pass, const llvm::Any &ir) {
  std::lock_guard<std::mutex> g(mu_);
  Session *s = session_for(ir);
  IrUnit u = describe(ir);
  OpenPass op;
  op.pass = pass.str();
  op.key = u.key;
  op.module = u.module;
  op.function = u.function;
  if (u.module) module_ = u.module;
  if (!have_context_ && u.module) {
    context_ = watch_.read(*u.module);
    have_context_ = true;
  }
  op.before_state = state_of(ir, u.key);
  ++tick_;
  op.before = snapshot_of(ir, u.key, op.before_state);
  op.epoch = epoch_;
  op.version = cache_[u.key].version;
  op.index = s->begin_pass(op.pass, op.before, "llvm");
  llvm::StringRef pipeline_name = pic.getPassNameForClassName(pass);
  s->annotate(op.index, u.name, pipeline_name.str());
  op.start = std::chrono::steady_clock::now();  // the pass's own time excludes our printing
  open_.push_back(std::move(op));
}

bool Tracer::pop_to(llvm::StringRef pass, OpenPass &out) {
  size_t i = open_.size();
  while (i > 0 && open_[i - 1].pass != pass) --i;
  if (i == 0) return false;
  // Anything opened after `pass` never reported its end: close it as failed.
  while (open_.size() > i) {
    if (!warned_mismatch_) {
      util::warn("LLVM plugin: no after-pass callback for " + open_.back().pass);
      warned_mismatch_ = true;
    }
    session_->fail_pass(open_.back().index, "pass did not complete", -1, false);
    open_.pop_back();
  }
  out = std::move(open_.back());
  open_.pop_back();
  return true;
}

void Tracer::after(llvm::StringRef pass, const llvm::Any &ir, const llvm::PreservedAnalyses &pa) {
  std::lock_guard<std::mutex> g(mu_);
  OpenPass op;
  if (!session_ || !pop_to(pass, op)) return;
  double wall = ms_since(op.start);
  // Print only if the fingerprint moved. The pass's PreservedAnalyses are
  // never consulted: IPSCCP adds range() return attributes and still reports
  // "all preserved". Nested passes that changed other units (the epoch
  // moved) may have renumbered this unit's print: print then as well.
  ++tick_;
  UnitState st;
  st.fp = fingerprint(ir, &st.context);
  ++stats_.walks;
  last_ = {op.key, st, tick_};
  bool moved = !(st.fp == op.before_state.fp);
  // Other units print differently only if this unit's contribution to their
  // numbering moved, or the module around them did (a declaration added, a
  // function deleted): then no other cached print is current. Decided before
  // printing, which reuses the numbering of the current epoch.
  if (moved) {
    bool renumbers = !(st.context == op.before_state.context);
    touch(printer_, ir);  // its numbered nodes are read again at the next epoch
    if (op.module) {
      // After a function or loop pass that left its own contribution alone,
      // only declarations and globals can have moved (ContextWatch).
      Fingerprint c = op.function && !renumbers ? watch_.after_function_pass(*op.module)
                                                : watch_.read(*op.module);
      if (!(c == context_)) renumbers = true;
      context_ = c;
    }
    if (renumbers) ++epoch_;
  }
  Snapshot after_snap = op.before;
  std::uint64_t version = op.version;
  if (moved || !current({op.epoch, op.before_state, op.before, op.version}, ir, st)) {
    ++stats_.after_prints;
    after_snap = session_->intern(printer_.print(ir, epoch_));
    version = printer_.builds;
  }
  cache_[op.key] = {epoch_, st, after_snap, version};
  session_->end_pass(op.index, after_snap, wall);
}

void Tracer::invalidated(llvm::StringRef pass) {
  std::lock_guard<std::mutex> g(mu_);
  OpenPass op;
  if (!session_ || !pop_to(pass, op)) return;
  double wall = ms_since(op.start);
  ++tick_;
  ++epoch_;  // the unit is gone (e.g. a deleted loop): nothing cached is trustworthy
  if (op.function) printer_.touched(*op.function);  // a loop's function (only its address is used)
  else printer_.touched_all();
  session_->annotate(op.index, {}, "invalidated");
  session_->end_pass(op.index, session_->intern(std::string()), wall);
}

void Tracer::skipped(llvm::StringRef pass, const llvm::Any &ir) {
  std::lock_guard<std::mutex> g(mu_);
  Session *s = session_for(ir);
  IrUnit u = describe(ir);
  UnitState st = state_of(ir, u.key);
  ++tick_;
  int idx = s->skipped_pass(pass.str(), snapshot_of(ir, u.key, st),
                            "skipped by the pass manager (optnone or opt-bisect)");
  last_ = {u.key, st, tick_};
  s->annotate(idx, u.name);
}

}  // namespace lowertrace::llvm_capture
