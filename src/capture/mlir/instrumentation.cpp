#include "capture/mlir/instrumentation.h"

#include "engine/crash.h"
#include "lowertrace/mlir.h"
#include "util/log.h"

#include <mlir/IR/BuiltinAttributes.h>
#include <mlir/IR/Location.h>
#include <mlir/IR/Operation.h>
#include <mlir/Pass/Pass.h>
#include <llvm/Support/Threading.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace lowertrace::mlir {

using ::mlir::Operation;
using ::mlir::Pass;

namespace {
// Debian does not install OpToOpPassAdaptor's header; recognise it by name.
bool is_adaptor(Pass *pass) { return pass->getName().contains("OpToOpPassAdaptor"); }

// "func.func(canonicalize{  max-iterations=10 ...},cse)" -> "func.func(canonicalize,cse)"
std::string strip_options(const std::string &s) {
  std::string out;
  int depth = 0;
  for (char c : s) {
    if (c == '{') ++depth;
    else if (c == '}') --depth;
    else if (depth == 0) out.push_back(c);
  }
  return out;
}

// llvm::raw_string_ostream is unbuffered: every token the printer emits
// became a virtual call and a string append, a large share of the cost of a
// snapshot. This one buffers 64 KiB at a time.
class BufferedStringStream final : public llvm::raw_ostream {
public:
  explicit BufferedStringStream(std::string &out) : out_(out) { SetBufferSize(1 << 16); }
  ~BufferedStringStream() override { flush(); }

private:
  void write_impl(const char *p, size_t n) override { out_.append(p, n); }
  uint64_t current_pos() const override { return out_.size(); }
  std::string &out_;
};

std::string join(const std::vector<std::string_view> &parts) {
  size_t n = 0;
  for (auto p : parts) n += p.size() + 1;
  std::string out;
  out.reserve(n);
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out.push_back('\n');
    out.append(parts[i]);
  }
  return out;
}
}  // namespace

TraceInstrumentation::Node *TraceInstrumentation::Node::child(const std::string &a, unsigned pos) {
  auto &slot = children[{a, pos}];
  if (!slot) {
    slot = std::make_unique<Node>();
    slot->anchor = a;
    slot->position = pos;
  }
  return slot.get();
}

TraceInstrumentation::TraceInstrumentation(std::shared_ptr<Session> session,
                                           ::mlir::MLIRContext *ctx, std::string phase,
                                           bool ir_verified)
    : session_(std::move(session)), ctx_(ctx), ir_verified_(ir_verified) {
  if (!phase.empty()) phase_.emplace(session_->phase(phase));
  // Collect error text for failed records. Returning failure() passes the
  // diagnostic on to the tool's own handlers, so its output is unchanged.
  handler_ = ctx_->getDiagEngine().registerHandler([this](::mlir::Diagnostic &d) {
    if (d.getSeverity() == ::mlir::DiagnosticSeverity::Error) {
      std::string s;
      llvm::raw_string_ostream os(s);
      // file:line:col like the tool's own diagnostics, not loc("file":l:c).
      auto where = [&os](::mlir::Location loc) {
        if (auto fl = llvm::dyn_cast<::mlir::FileLineColLoc>(loc))
          os << fl.getFilename().getValue() << ":" << fl.getLine() << ":" << fl.getColumn();
        else
          os << loc;
      };
      where(d.getLocation());
      os << ": error: " << d.str();
      // The whole diagnostic, as mlir-opt prints it: its notes too (the
      // verifier's `note: see current operation:` and the op itself).
      for (::mlir::Diagnostic &n : d.getNotes()) {
        os << "\n";
        where(n.getLocation());
        os << ": note: " << n.str();
      }
      std::lock_guard<std::mutex> lock(diag_mu_);
      errors_.push_back(std::move(s));
    }
    return ::mlir::failure();
  });
  crash::add_flusher(this, [this](const std::string &m) { abandon_open(m); });
}

TraceInstrumentation::~TraceInstrumentation() {
  crash::remove_flusher(this);
  // With --mlir-pass-pipeline-crash-reproducer a crashing pass is recovered
  // from without an after-pass event: its records are still open here.
  abandon_open({});
  ctx_->getDiagEngine().eraseHandler(handler_);
}

void TraceInstrumentation::abandon_open(const std::string &message) {
  // Other threads keep running during the handler; wait a little for them,
  // never for ever (the crash may be inside this instrumentation).
  std::unique_lock<std::mutex> lock(mu_, std::defer_lock);
  for (int i = 0; i < 2000 && !lock.try_lock(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (!lock.owns_lock()) return;
  // Every nested pass still open, on any thread, was cut short by the crash;
  // the top-level pass then ends failed with its nested records, which name
  // the pass that crashed.
  Frame *root = nullptr;
  for (auto &[tid, st] : threads_)
    for (auto &item : st) {
      if (!item.frame) continue;
      Frame &f = *item.frame;
      if (f.root) root = &f;
      else if (f.node && f.entry_slot != SIZE_MAX && f.entry_slot < f.node->entries.size())
        f.node->entries[f.entry_slot].failed = true;
    }
  if (root) end_top_level(*root, root->op, true, message);
}

std::string TraceInstrumentation::take_errors() {
  std::lock_guard<std::mutex> lock(diag_mu_);
  std::string out;
  for (auto &e : errors_) {
    if (!out.empty()) out += "\n";
    out += e;
  }
  errors_.clear();
  return out;
}

Snapshot TraceInstrumentation::snapshot(Operation *op, const Fingerprint &fp, bool local) {
  size_t hint = 0;
  {
    std::lock_guard<std::mutex> lock(cache_mu_);
    auto it = cache_.find(op);
    if (it != cache_.end()) {
      if (it->second.fp == fp && it->second.local == local) return it->second.snap;
      hint = it->second.snap->text.size();
    }
  }
  // Printed without holding a lock: worker threads print their own ops.
  std::string text;
  // The next print of an op is usually about as long as its last one.
  if (hint) text.reserve(hint + hint / 8);
  {
    BufferedStringStream os(text);
    // When the pass manager verifies the IR we print (after parsing or after
    // the previous pass), verifying it again per print would double the cost.
    // When it does not, the printer's check keeps invalid IR away from custom
    // printers (it prints such IR in generic form, as mlir-opt does).
    ::mlir::OpPrintingFlags flags;
    if (ir_verified_) flags.assumeVerified();
    if (local) flags.useLocalScope();
    op->print(os, flags);
    os << "\n";
  }
  // Snapshots live as long as the session: do not keep growth slack.
  if (text.capacity() > text.size() + text.size() / 4) text.shrink_to_fit();
  Snapshot s = session_->intern(std::move(text));
  std::lock_guard<std::mutex> lock(cache_mu_);
  cache_.insert_or_assign(op, Cached{fp, s, local});
  return s;
}

std::string TraceInstrumentation::pass_name(Pass *pass, std::string *detail, std::string *pipeline) {
  if (is_adaptor(pass)) {
    std::string text;
    llvm::raw_string_ostream os(text);
    pass->printAsTextualPipeline(os);
    os.flush();
    if (pipeline) *pipeline = text;
    if (detail) *detail = text;
    return strip_options(text);
  }
  if (detail) *detail = pass->getName().str();
  llvm::StringRef arg = pass->getArgument();
  return arg.empty() ? pass->getName().str() : arg.str();
}

TraceInstrumentation::Frame *TraceInstrumentation::find_frame(uint64_t tid, Pass *pass) {
  auto it = threads_.find(tid);
  if (it == threads_.end()) return nullptr;
  for (auto i = it->second.rbegin(); i != it->second.rend(); ++i)
    if (i->frame && i->frame->pass == pass) return i->frame.get();
  return nullptr;
}

unsigned TraceInstrumentation::ordinal_in(Frame &parent, Operation *op) {
  // The nested pipeline runs on direct children of the parent's op. Number
  // them once, in IR order; sibling lists are not mutated by nested passes.
  if (!parent.child_order_built && parent.op) {
    unsigned n = 0;
    for (auto &region : parent.op->getRegions())
      for (auto &block : region)
        for (auto &child : block) parent.child_order.emplace(&child, n++);
    parent.child_order_built = true;
  }
  auto it = parent.child_order.find(op);
  if (it != parent.child_order.end()) return it->second;
  return 0x80000000u + unknown_order_++;  // a dynamic pipeline on some other op
}

// Fingerprinting walks the whole op; the one taken right after a pass is
// still valid for the next pass on the same op on the same thread, provided
// nothing else happened on that thread in between (any other event clears it).
// Both are called without mu_: a thread only fingerprints ops it is running on.
Fingerprint TraceInstrumentation::fingerprint_before(Operation *op) {
  {
    std::lock_guard<std::mutex> lock(cache_mu_);
    auto it = last_after_.find(llvm::get_threadid());
    if (it != last_after_.end()) {
      bool same = it->second.op == op;
      Fingerprint fp = it->second.fp;
      last_after_.erase(it);
      if (same) return fp;
    }
  }
  return fingerprint(op);
}

Fingerprint TraceInstrumentation::fingerprint_after(Operation *op) {
  Fingerprint fp = fingerprint(op);
  std::lock_guard<std::mutex> lock(cache_mu_);
  last_after_.insert_or_assign(llvm::get_threadid(), LastAfter{op, fp});
  return fp;
}

void TraceInstrumentation::forget_last_after() {
  std::lock_guard<std::mutex> lock(cache_mu_);
  last_after_.erase(llvm::get_threadid());
}

void TraceInstrumentation::runBeforePipeline(std::optional<::mlir::OperationName> name,
                                             const PipelineParentInfo &parent) {
  forget_last_after();
  std::lock_guard<std::mutex> lock(mu_);
  auto ctx = std::make_unique<PipelineCtx>();
  ctx->parent = find_frame(parent.parentThreadID, parent.parentPass);
  ctx->anchor = name ? name->getStringRef().str() : std::string("any");
  stack_of(llvm::get_threadid()).push_back(Item{nullptr, std::move(ctx)});
}

void TraceInstrumentation::runAfterPipeline(std::optional<::mlir::OperationName>,
                                            const PipelineParentInfo &) {
  forget_last_after();
  std::lock_guard<std::mutex> lock(mu_);
  Stack &st = stack_of(llvm::get_threadid());
  // Pop the innermost pipeline (and anything a failure left above it).
  while (!st.empty()) {
    bool was_ctx = st.back().ctx != nullptr;
    st.pop_back();
    if (was_ctx) break;
  }
}

void TraceInstrumentation::runBeforePass(Pass *pass, Operation *op) {
  if (std::string_view(pass->getArgument()) == kCodegenPassArgument) return;  // it records itself
  auto f = std::make_unique<Frame>();
  f->pass = pass;
  f->op = op;
  f->start = Clock::now();
  Fingerprint fp = fingerprint_before(op);
  f->fp_before = fp;

  std::unique_lock<std::mutex> lock(mu_);
  Stack &st = stack_of(llvm::get_threadid());
  PipelineCtx *ctx = nullptr;
  for (auto i = st.rbegin(); i != st.rend(); ++i) {
    if (i->ctx) { ctx = i->ctx.get(); break; }
    if (i->frame) break;  // innermost is a pass: this one runs inside it directly
  }
  // A pass with no pipeline context on this thread, directly inside another
  // frame on this thread, can only come from the PassManager's root pipeline.
  if (!ctx) {
    std::string detail, pipeline;
    std::string name = pass_name(pass, &detail, &pipeline);
    f->root = std::make_unique<Node>();
    f->root->pipeline_text = pipeline;
    f->node = f->root.get();
    bool top = op->getParentOp() == nullptr;
    f->session_index = session_->begin_pass(name, snapshot(op, fp, !top), "mlir");
    session_->annotate(f->session_index, op->getName().getStringRef(), detail);
    st.push_back(Item{std::move(f), nullptr});
    return;
  }

  if (!ctx->order_set) {
    ctx->order = ctx->parent ? ctx->parent->order : Order{};
    ctx->order.push_back(ctx->parent ? ordinal_in(*ctx->parent, op) : 0);
    ctx->order_set = true;
  }
  Node *parent_node = ctx->parent ? ctx->parent->node : nullptr;
  if (!parent_node) {
    // Should not happen; keep the compiler going and say so once.
    static bool warned = false;
    if (!warned) util::warn("nested pass without a known parent; not traced");
    warned = true;
    st.push_back(Item{std::move(f), nullptr});
    return;
  }
  Node *node = parent_node->child(ctx->anchor, ctx->next_pos++);
  if (node->name.empty()) node->name = pass_name(pass, &node->detail, &node->pipeline_text);
  node->entries.push_back(Node::Entry{ctx->order, nullptr, nullptr, false, 0});
  f->node = node;
  f->order = ctx->order;
  f->entry_slot = node->entries.size() - 1;  // an index: the vector may grow
  st.push_back(Item{std::move(f), nullptr});
  // Print outside the lock, so that threads tracing different ops overlap.
  size_t slot = node->entries.size() - 1;
  lock.unlock();
  Snapshot before = snapshot(op, fp, true);
  lock.lock();
  node->entries[slot].before = std::move(before);
}

void TraceInstrumentation::runAfterPass(Pass *pass, Operation *op) {
  std::unique_lock<std::mutex> lock(mu_);
  Stack &st = stack_of(llvm::get_threadid());
  if (st.empty() || !st.back().frame || st.back().frame->pass != pass) return;
  std::unique_ptr<Frame> f = std::move(st.back().frame);
  st.pop_back();
  if (f->root) return end_top_level(*f, op, false);
  if (!f->node || f->entry_slot == SIZE_MAX) return;
  double ms = std::chrono::duration<double, std::milli>(Clock::now() - f->start).count();
  // Fingerprint and print outside the lock (see runBeforePass).
  lock.unlock();
  Fingerprint fp = fingerprint_after(op);
  bool same = f->fp_before && fp == *f->fp_before;
  Snapshot after = same ? nullptr : snapshot(op, fp, true);
  lock.lock();
  Node::Entry &e = f->node->entries[f->entry_slot];
  e.after = same ? e.before : std::move(after);
  e.ms = ms;
}

void TraceInstrumentation::runAfterPassFailed(Pass *pass, Operation *op) {
  forget_last_after();
  std::lock_guard<std::mutex> lock(mu_);
  Stack &st = stack_of(llvm::get_threadid());
  // Find the frame; a failure may leave inner items (pipelines) above it.
  while (!st.empty() && !(st.back().frame && st.back().frame->pass == pass)) st.pop_back();
  if (st.empty()) return;
  std::unique_ptr<Frame> f = std::move(st.back().frame);
  st.pop_back();
  if (f->root) return end_top_level(*f, op, true);
  if (!f->node || f->entry_slot == SIZE_MAX) return;
  Node::Entry &e = f->node->entries[f->entry_slot];
  e.failed = true;
  e.ms = std::chrono::duration<double, std::milli>(Clock::now() - f->start).count();
}

void TraceInstrumentation::end_top_level(Frame &f, Operation *op, bool failed,
                                         std::string message) {
  if (failed && message.empty()) message = take_errors();
  if (failed && message.empty()) message = "pass failed (no diagnostic was emitted)";
  // Nested records first (deterministic order), while the parent is open.
  std::vector<Node *> kids;
  for (auto &kv : f.root->children) kids.push_back(kv.second.get());
  const std::string &pipe = f.root->pipeline_text;
  auto anchor_pos = [&](const std::string &a) {
    size_t p = pipe.find(a + "(");
    return p == std::string::npos ? pipe.size() : p;
  };
  std::stable_sort(kids.begin(), kids.end(), [&](Node *a, Node *b) {
    size_t pa = anchor_pos(a->anchor), pb = anchor_pos(b->anchor);
    if (pa != pb) return pa < pb;
    if (a->anchor != b->anchor) return a->anchor < b->anchor;
    return a->position < b->position;
  });
  for (Node *k : kids) emit(*k, message);

  // Worker threads may still hold items of this pass after a failure. `f`
  // may be one of them (abandon_open() after a crash recovered on another
  // thread: found by ASan in it.crash_trace), so nothing of it is read after.
  const int index = f.session_index;
  for (auto &[tid, st] : threads_)
    if (tid != llvm::get_threadid()) st.clear();

  if (failed) {
    session_->fail_pass(index, message);
    return;
  }
  Fingerprint fp = fingerprint_after(op);
  bool top = op->getParentOp() == nullptr;
  // Unchanged fingerprint: the cache returns the before-snapshot unprinted.
  session_->end_pass(index, snapshot(op, fp, !top));
}

void TraceInstrumentation::emit(Node &node, const std::string &message) {
  std::stable_sort(node.entries.begin(), node.entries.end(),
                   [](const Node::Entry &a, const Node::Entry &b) { return a.order < b.order; });
  std::vector<std::string_view> before, after;
  size_t changed = 0, failed = 0;
  double ms = 0;
  for (const auto &e : node.entries) {
    before.push_back(text_of(e.before));
    if (e.failed) ++failed;
    else {
      after.push_back(e.after ? text_of(e.after) : text_of(e.before));
      if (e.after && e.after != e.before) ++changed;
    }
    ms += e.ms;
  }
  int idx = session_->begin_pass(node.name, session_->intern(join(before)), "mlir");
  std::string anchor = node.anchor + " x" + std::to_string(node.entries.size()) + " (" +
                       std::to_string(changed) + " changed" +
                       (failed ? ", " + std::to_string(failed) + " failed" : std::string()) + ")";
  session_->annotate(idx, anchor, node.detail);

  std::vector<Node *> kids;
  for (auto &kv : node.children) kids.push_back(kv.second.get());
  std::stable_sort(kids.begin(), kids.end(), [](Node *a, Node *b) {
    if (a->anchor != b->anchor) return a->anchor < b->anchor;
    return a->position < b->position;
  });
  for (Node *k : kids) emit(*k, message);

  if (failed) session_->fail_pass(idx, message, ms, /*ancestors=*/false);
  else session_->end_pass(idx, session_->intern(join(after)), ms);
}

}  // namespace lowertrace::mlir
