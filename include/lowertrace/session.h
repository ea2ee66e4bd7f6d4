// lowertrace/session.h - one traced compilation.
//
// A front end (MLIR instrumentation, LLVM plugin, dump importer) owns a Session
// and reports pass events to it; the Session numbers passes, interns snapshots,
// tracks nesting and phases, and hands each finished record to its sinks (raw
// files, terminal, report). It knows nothing about LLVM or MLIR.
//
// Events must be reported in a consistent order (begin before end, children
// between their parent's begin and end); a front end that sees concurrent
// events serialises them first. The Session locks internally, so it may be
// called from any thread.
#pragma once

#include "lowertrace/config.h"
#include "lowertrace/record.h"
#include "lowertrace/sink.h"

#include <chrono>
#include <functional>
#include <unordered_map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace lowertrace {

class SnapshotStore;
class RecordTable;

struct SessionOptions {
  std::string script;  // default: program name (argv[0] stem), "kernel" if empty
  std::string input;
  std::string tool;
  bool install_default_sinks = true;  // raw files, terminal lines, trace.json, report
  // Keep report.html openable after every pass (crash safety while a compiler
  // runs). An importer, whose input survives a crash, turns it off and gets
  // only the final report.
  bool live_report = true;
  // Live report: at most one chunk file per this many ms (0: one per record).
  // For front ends with tens of thousands of records (the LLVM plugin), where
  // a file per record was a large part of the cost.
  int live_chunk_ms = 0;
  // One raw file per distinct text instead of two per record: a record whose
  // text already has a file points at it (LowerRecord::before_file) and gets
  // no file or link of its own. For the LLVM plugin, whose runs have tens of
  // thousands of records and a few thousand distinct texts.
  bool raw_file_per_text = false;
  // Write console lines in batches instead of one write per line. For an
  // importer, which has no compiler output to interleave with; tens of
  // thousands of records otherwise cost as many syscalls.
  bool batch_console = false;
  // Console lines in batches that no line waits in longer than this many ms
  // (0: see batch_console). For the LLVM plugin: a line per pass, tens of
  // thousands per compile, was as many writes to stderr on the compiler's
  // thread, while the compiler's own stderr stays interleaved to within it.
  int console_batch_ms = 0;
  // Measure each pass's wall time. An importer replays a dump, which holds no
  // pass times (its own parsing time is no pass's): records get wall_ms -1.
  bool timed = true;
  // Drop a record's IR texts once its sinks have it (they keep the id, hash
  // and size): memory then holds the open passes' texts, not every text of the
  // run. For an importer, whose input can be gigabytes of IR; records() then
  // returns records without texts.
  bool release_texts = false;
};

class Session {
public:
  // Copies current_config(). A session whose mode is Off records nothing.
  explicit Session(SessionOptions opts = {});
  Session(SessionOptions opts, Config cfg);
  ~Session();  // calls finish() if not yet finished
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  bool enabled() const { return cfg_.enabled(); }
  const Config &config() const { return cfg_; }
  const RunInfo &run() const { return run_; }

  // Interns an IR text; identical texts return the same Snapshot.
  Snapshot intern(std::string text);
  Snapshot intern(std::string_view text);

  // --- pass events -------------------------------------------------------
  // Starts a pass nested under the innermost open pass; returns its index.
  // A null `before` means the IR before the pass is unknown (an importer's
  // one-sided dump): the record says so and never counts as changed.
  int begin_pass(std::string_view name, Snapshot before, std::string_view ir_lang = "mlir");
  // Finishes the innermost open pass (must be `index`).
  void end_pass(int index, Snapshot after, double wall_ms = -1);
  // Marks `index`, anything still open inside it and (with `ancestors`) every
  // unfinished ancestor failed with `message`. Without `ancestors` the parent
  // stays open, for front ends that report the parent's outcome themselves.
  // `after_failure`: the IR the failing pass left, when known (kept on `index` only).
  void fail_pass(int index, std::string_view message, double wall_ms = -1, bool ancestors = true,
                 Snapshot after_failure = nullptr);
  // A pass that did not run (e.g. filtered or skipped by the pass manager).
  int skipped_pass(std::string_view name, Snapshot at, std::string_view reason = {});
  // The innermost open pass `index` turned out not to run (a legacy pass asks
  // the pass gate only once it has started): it ends as skipped, on its before-text.
  void skip_open_pass(int index, std::string_view reason);
  // Extra facts for a record still open or just finished.
  void annotate(int index, std::string_view anchor, std::string_view detail = {});

  // --- phases ------------------------------------------------------------
  // RAII: passes begun while a scope is alive get its label; a label seen
  // again in this session becomes run<N>_<label>.
  class PhaseScope {
  public:
    PhaseScope(PhaseScope &&o) noexcept : s_(o.s_), prev_(std::move(o.prev_)) { o.s_ = nullptr; }
    ~PhaseScope();
  private:
    friend class Session;
    PhaseScope(Session *s, std::string prev) : s_(s), prev_(std::move(prev)) {}
    Session *s_;
    std::string prev_;
  };
  PhaseScope phase(std::string_view label);
  std::string current_phase() const;

  // --- codegen -----------------------------------------------------------
  struct CodegenResult {
    std::string source;  // what the host must compile
    std::string tag;     // "", INIT, INIT-BACKUP, REGENERATED, PATCHED, SYNCED, CONFLICT
    std::string working_copy;  // path, empty when no file is kept
  };
  // Records the codegen step (status codegen) and runs the three-file
  // edit-and-recompile workflow. `language`: ptx, llvm-ir, asm, c++, ...
  CodegenResult codegen(std::string_view lowered_ir, std::string_view ir_lang,
                        std::string_view source, std::string_view language,
                        std::string_view kernel = {});

  // --- lifecycle ---------------------------------------------------------
  void add_sink(std::shared_ptr<Sink> sink);
  // Ends the current run (its trace.json and final report are written, every
  // sink gets on_finish) if it recorded anything, then clears records, index
  // and phase counters. Later records form a new run in a fresh run folder,
  // so restarted indices never overwrite earlier raw files; the default sinks
  // start afresh, sinks added with add_sink() are kept and see the new run.
  void reset();
  // Idempotent. Fails every pass still open with `error` (or "pass did not complete").
  // Without `error`, a run with a failed pass ends with that failure as its error.
  void finish(std::string_view error = {});
  // For a fatal-signal handler (engine/crash.h): fails the passes still open
  // with `message` (e.g. "crashed: SIGSEGV") and finishes the run on this
  // thread, waiting a bounded time for locks and writers. Returns false if it
  // could not (e.g. the crash happened inside this session's own reporting).
  bool finish_after_crash(std::string_view message);

  std::vector<LowerRecord> records() const;  // copy, ordered by index
  std::size_t record_count() const;

  // The innermost (most recently created) Session created on this thread and
  // still alive, whatever order sessions are destroyed in.
  static Session *current();

private:
  void deliver(int index);  // hands a finished record to the sinks (lock held)
  void install_default_sinks();
  // Fails what is open, then runs every sink's on_finish (lock held).
  // `inline_only`: on this thread, no helper threads (crash handler).
  void end_run(std::string_view error, bool inline_only);
  double elapsed_ms(int index);  // since begin_pass(index); forgets the start

  Config cfg_;
  RunInfo run_;
  mutable std::recursive_mutex mu_;
  std::unique_ptr<SnapshotStore> store_;
  std::unique_ptr<RecordTable> table_;  // every record, position = index (engine/record_table.h)
  std::vector<int> stack_;                          // open passes, innermost last
  std::vector<std::shared_ptr<Sink>> sinks_;
  std::shared_ptr<Sink> console_;  // one of sinks_, finished after the others
  std::string phase_ = "unscoped";
  std::vector<std::pair<std::string, int>> phase_counts_;
  std::unordered_map<int, std::chrono::steady_clock::time_point> starts_;
  std::vector<std::string> codegen_kernels_;  // order of first codegen per kernel
  bool timed_ = true;
  bool finished_ = false;
  SessionOptions opts_;  // kept for reset(): which default sinks to recreate
  std::size_t default_sinks_ = 0;  // sinks_[0, default_sinks_) are the defaults
  bool delivering_ = false;  // a sink is running (a crash there cannot finish)
  bool release_texts_ = false;
  Snapshot last_released_;  // the newest stand-in (release_texts)
};

// One-shot helper: the counterpart of the original's lower_trace(func, passes).
// Implemented by each front end (see lowertrace/mlir.h).

}  // namespace lowertrace
