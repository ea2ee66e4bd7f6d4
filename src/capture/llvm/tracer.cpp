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
  // wrapper deletes dead functions, which renumbers attribute groups in every
  // other function's print): after any of them, no cached print is current.
  pic.registerAfterPassCallback(
      [this](llvm::StringRef pass, llvm::Any ir, const llvm::PreservedAnalyses &pa) {
        if (is_plumbing({pass.data(), pass.size()})) forget_prints();
        else guarded("after-pass", [&] { after(pass, ir, pa); });
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

Snapshot Tracer::snapshot_of(const llvm::Any &ir, const void *key) {
  auto it = cache_.find(key);
  if (it != cache_.end() && it->second.first == epoch_) return it->second.second;
  Snapshot s = session_->intern(print(ir));
  cache_[key] = {epoch_, s};
  return s;
}

void Tracer::before(llvm::PassInstrumentationCallbacks &pic, llvm::StringRef pass, const llvm::Any &ir) {
  std::lock_guard<std::mutex> g(mu_);
  Session *s = session_for(ir);
  IrUnit u = describe(ir);
  OpenPass op;
  op.pass = pass.str();
  op.key = u.key;
  op.before = snapshot_of(ir, u.key);
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
  // Always print the after text. Skipping it when the pass claims to preserve
  // all analyses and llvm::StructuralHash agrees was tried and is wrong:
  // IPSCCP adds range() return attributes and still reports "all preserved",
  // and the hash ignores attributes, names and metadata.
  Snapshot after_snap = session_->intern(print(ir));
  // Interned: equal texts share one snapshot. Any change may show up in other
  // units' prints too (attribute group and metadata numbers), so drop the cache.
  if (after_snap != op.before) ++epoch_;
  cache_[op.key] = {epoch_, after_snap};
  session_->end_pass(op.index, after_snap, wall);
}

void Tracer::invalidated(llvm::StringRef pass) {
  std::lock_guard<std::mutex> g(mu_);
  OpenPass op;
  if (!session_ || !pop_to(pass, op)) return;
  double wall = ms_since(op.start);
  ++epoch_;  // the unit is gone (e.g. a deleted loop): nothing cached is trustworthy
  session_->annotate(op.index, {}, "invalidated");
  session_->end_pass(op.index, session_->intern(std::string()), wall);
}

void Tracer::skipped(llvm::StringRef pass, const llvm::Any &ir) {
  std::lock_guard<std::mutex> g(mu_);
  Session *s = session_for(ir);
  IrUnit u = describe(ir);
  int idx = s->skipped_pass(pass.str(), snapshot_of(ir, u.key), "skipped by the pass manager (optnone or opt-bisect)");
  s->annotate(idx, u.name);
}

}  // namespace lowertrace::llvm_capture
