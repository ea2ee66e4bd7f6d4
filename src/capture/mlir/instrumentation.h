// capture/mlir/instrumentation.h - an mlir::PassInstrumentation feeding a Session.
//
// Top-level passes (those run directly by the PassManager) are reported live.
// Passes of nested pipelines (an OpToOpPassAdaptor running func.func(...) on
// every function, possibly on worker threads) are aggregated per position in
// their pipeline and reported, in IR order, when the enclosing top-level pass
// ends. That makes the records independent of thread scheduling.
//
// Printing is the expensive part, so every op's IR is fingerprinted first
// (capture/mlir/fingerprint.h): an unchanged op reuses its last snapshot and a
// no-op pass is detected without printing anything.
#pragma once

#include "capture/mlir/fingerprint.h"
#include "lowertrace/session.h"

#include <mlir/IR/Diagnostics.h>
#include <mlir/IR/OperationSupport.h>
#include <mlir/Pass/PassInstrumentation.h>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

namespace lowertrace::mlir {

class TraceInstrumentation : public ::mlir::PassInstrumentation {
public:
  // `phase`: label for this pass manager's records ("" keeps the session's).
  // `ir_verified`: the pass manager verifies after each pass, so snapshots
  // may skip the printer's own verification.
  TraceInstrumentation(std::shared_ptr<Session> session, ::mlir::MLIRContext *ctx,
                       std::string phase, bool ir_verified = true);
  ~TraceInstrumentation() override;

  void runBeforePipeline(std::optional<::mlir::OperationName> name,
                         const PipelineParentInfo &parent) override;
  void runAfterPipeline(std::optional<::mlir::OperationName> name,
                        const PipelineParentInfo &parent) override;
  void runBeforePass(::mlir::Pass *pass, ::mlir::Operation *op) override;
  void runAfterPass(::mlir::Pass *pass, ::mlir::Operation *op) override;
  void runAfterPassFailed(::mlir::Pass *pass, ::mlir::Operation *op) override;

private:
  using Clock = std::chrono::steady_clock;
  using Order = std::vector<unsigned>;

  // One future record: a nested pass at one position of one pipeline, over
  // every op it ran on.
  struct Node {
    std::string name, detail;
    std::string anchor;  // op name of the pipeline ("func.func")
    unsigned position = 0;
    std::string pipeline_text;  // for adaptors: where each anchor's pipeline sits
    struct Entry {
      Order order;
      Snapshot before, after;
      bool failed = false;
      double ms = 0;
    };
    std::vector<Entry> entries;
    std::map<std::pair<std::string, unsigned>, std::unique_ptr<Node>> children;
    Node *child(const std::string &anchor, unsigned pos);
  };

  // Items of a thread's stack: a running pass, or a nested pipeline running
  // on one op inside some parent pass.
  struct Frame {
    ::mlir::Pass *pass = nullptr;
    ::mlir::Operation *op = nullptr;
    Node *node = nullptr;          // where its nested passes aggregate
    std::size_t entry_slot = SIZE_MAX;  // its entry in node->entries (nested passes only)
    int session_index = -1;        // top-level passes only
    std::unique_ptr<Node> root;    // top-level passes own their subtree
    Order order;
    std::optional<Fingerprint> fp_before;
    Clock::time_point start;
    std::unordered_map<::mlir::Operation *, unsigned> child_order;  // lazily built
    bool child_order_built = false;
  };
  struct PipelineCtx {
    Frame *parent = nullptr;
    std::string anchor;
    unsigned next_pos = 0;
    Order order;
    bool order_set = false;
  };
  struct Item {
    std::unique_ptr<Frame> frame;  // exactly one of these is set
    std::unique_ptr<PipelineCtx> ctx;
  };
  using Stack = std::vector<Item>;

  Stack &stack_of(uint64_t tid) { return threads_[tid]; }
  Frame *find_frame(uint64_t tid, ::mlir::Pass *pass);
  Snapshot snapshot(::mlir::Operation *op, const Fingerprint &fp, bool local);
  std::string pass_name(::mlir::Pass *pass, std::string *detail, std::string *pipeline);
  unsigned ordinal_in(Frame &parent, ::mlir::Operation *op);
  // `message`: the failure to record instead of the collected diagnostics.
  void end_top_level(Frame &f, ::mlir::Operation *op, bool failed, std::string message = {});
  // The passes still open will never end (a fatal signal; a crash the pass
  // manager recovered from, seen at destruction): fail them with `message`
  // (empty: the diagnostics collected) and emit their nested records.
  void abandon_open(const std::string &message);
  void emit(Node &node, const std::string &message);
  std::string take_errors();
  Fingerprint fingerprint_before(::mlir::Operation *op);
  Fingerprint fingerprint_after(::mlir::Operation *op);
  void forget_last_after();

  std::shared_ptr<Session> session_;
  std::optional<Session::PhaseScope> phase_;  // declared after session_: dies first
  ::mlir::MLIRContext *ctx_;
  bool ir_verified_;
  ::mlir::DiagnosticEngine::HandlerID handler_ = 0;
  std::mutex mu_;  // the stacks and nodes; never held while printing nested ops
  std::unordered_map<uint64_t, Stack> threads_;
  std::mutex cache_mu_;  // cache_ and last_after_
  // Last snapshot per op, valid while the op's fingerprint is unchanged.
  struct Cached {
    Fingerprint fp;
    Snapshot snap;
    bool local;
  };
  std::unordered_map<::mlir::Operation *, Cached> cache_;
  struct LastAfter {
    ::mlir::Operation *op;
    Fingerprint fp;
  };
  std::unordered_map<uint64_t, LastAfter> last_after_;  // per thread
  std::mutex diag_mu_;
  std::vector<std::string> errors_;
  unsigned unknown_order_ = 0;
};

}  // namespace lowertrace::mlir
