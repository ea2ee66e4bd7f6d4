#include "tracer.h"

#include "capture/crash_hook.h"
#include "ir_unit.h"
#include "pass_filter.h"
#include "util/fs.h"
#include "util/log.h"

#include <llvm/ADT/Any.h>
#include <llvm/IR/Analysis.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassInstrumentation.h>

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

Tracer::Tracer() : cfg_(current_config()) {}

Tracer::Tracer(Session &session)
    : cfg_(session.config()), session_(std::shared_ptr<Session>(), &session), owns_session_(false) {}

Tracer::~Tracer() {
  guarded("finish", [&] {
    std::lock_guard<std::mutex> g(mu_);
    phase_.reset();
    if (session_ && owns_session_) session_->finish(open_.empty() ? "" : "pass did not complete");
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
  });
  // Wrappers are not recorded, but some change IR themselves (the inliner's
  // wrapper and the SCC walk delete dead functions, which renumbers attribute
  // groups in every other function's print): after a module or SCC wrapper,
  // no cached print is current. Function and loop wrappers only run passes.
  pic.registerAfterPassCallback(
      [this](llvm::StringRef pass, llvm::Any ir, const llvm::PreservedAnalyses &pa) {
        if (!is_plumbing({pass.data(), pass.size()})) guarded("after-pass", [&] { after(pass, ir, pa); });
        else if (may_add_or_delete_functions(ir)) forget_prints();
      });
  pic.registerAfterPassInvalidatedCallback([this](llvm::StringRef pass, const llvm::PreservedAnalyses &) {
    if (is_plumbing({pass.data(), pass.size()})) forget_prints();
    else guarded("after-pass", [&] { invalidated(pass); });
  });
  pic.registerBeforeSkippedPassCallback([this](llvm::StringRef pass, llvm::Any ir) {
    if (!is_plumbing({pass.data(), pass.size()})) guarded("skipped-pass", [&] { skipped(pass, ir); });
  });
}

void Tracer::forget_prints() {
  std::lock_guard<std::mutex> g(mu_);
  ++epoch_;
  ++tick_;
}

Fingerprint Tracer::fingerprint_of(const llvm::Any &ir, const void *key) {
  // The unit a pass just left, untouched since: its fingerprint is known.
  if (last_.key == key && last_.tick == tick_) return last_.fp;
  return fingerprint(ir);
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
  session_ = std::make_shared<Session>(std::move(opts), cfg_);
  phase_.emplace(session_->phase("llvm"));
  return session_.get();
}

Snapshot Tracer::snapshot_of(const llvm::Any &ir, const void *key, const Fingerprint &fp) {
  auto it = cache_.find(key);
  if (it != cache_.end() && it->second.epoch == epoch_) {
    if (it->second.fp == fp) return it->second.snap;
    // Changed by a pass that ran on another unit (a caller rewritten by an
    // SCC pass): what that did to other units' prints is unknown too.
    ++epoch_;
  }
  Snapshot s = session_->intern(print(ir));
  cache_[key] = {epoch_, fp, s};
  return s;
}

void Tracer::before(llvm::PassInstrumentationCallbacks &pic, llvm::StringRef pass, const llvm::Any &ir) {
  std::lock_guard<std::mutex> g(mu_);
  Session *s = session_for(ir);
  IrUnit u = describe(ir);
  OpenPass op;
  op.pass = pass.str();
  op.key = u.key;
  op.before_fp = fingerprint_of(ir, u.key);
  ++tick_;
  op.before = snapshot_of(ir, u.key, op.before_fp);
  op.epoch = epoch_;
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
  Fingerprint fp = fingerprint(ir);
  last_ = {op.key, fp, tick_};
  Snapshot after_snap = op.before;
  if (!(fp == op.before_fp) || op.epoch != epoch_) {
    after_snap = session_->intern(print(ir));
    // Any change may show up in other units' prints too (attribute group and
    // metadata numbers), so no other cached print is current.
    if (!(fp == op.before_fp)) ++epoch_;
  }
  cache_[op.key] = {epoch_, fp, after_snap};
  session_->end_pass(op.index, after_snap, wall);
}

void Tracer::invalidated(llvm::StringRef pass) {
  std::lock_guard<std::mutex> g(mu_);
  OpenPass op;
  if (!session_ || !pop_to(pass, op)) return;
  double wall = ms_since(op.start);
  ++tick_;
  ++epoch_;  // the unit is gone (e.g. a deleted loop): nothing cached is trustworthy
  session_->annotate(op.index, {}, "invalidated");
  session_->end_pass(op.index, session_->intern(std::string()), wall);
}

void Tracer::skipped(llvm::StringRef pass, const llvm::Any &ir) {
  std::lock_guard<std::mutex> g(mu_);
  Session *s = session_for(ir);
  IrUnit u = describe(ir);
  Fingerprint fp = fingerprint_of(ir, u.key);
  ++tick_;
  int idx = s->skipped_pass(pass.str(), snapshot_of(ir, u.key, fp),
                            "skipped by the pass manager (optnone or opt-bisect)");
  last_ = {u.key, fp, tick_};
  s->annotate(idx, u.name);
}

}  // namespace lowertrace::llvm_capture
