// dump/assembler.h - whole dumps in, pass events on one Target out.
//
// Dumps come in three shapes and the assembler works out which per family:
//   paired       Before + After for every pass (print-ir-before-all + after-all);
//   after-only   print-after-all / -print-changed / MIR: a pass's before-text is
//                the previous text of the same unit (function, loop, module);
//   before-only  Triton MLIR_ENABLE_DUMP: a pass's after-text is the next
//                pass's before-text; the last pass of a stage takes the stage
//                output, and the very last pass is kept even without one.
// Records are replayed in banner order, with nesting where the dump shows it
// (Triton's inliner running canonicalize on each function, the software
// pipeliner's internal steps).
#pragma once

#include "lowertrace/dump.h"
#include "splitter.h"

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lowertrace::dump {

class Assembler {
public:
  Assembler(Target &target, std::function<void(std::string)> warn);
  ~Assembler();

  void on_dump(Dump &&d);
  // Phase label for passes that start from now on ("" = the target's default).
  void set_phase(std::string label) { phase_ = std::move(label); }
  // Keep every record until finish() (Triton: pipeliner steps printed to
  // stderr arrive after the MLIR_DUMP_PATH file that holds their pass).
  void set_deferred(bool on) { deferred_ = on; }
  // No MLIR dump follows (a single in-order stream has reached the LLVM
  // dumps): the open MLIR passes end as finish() would end them, now, so the
  // records after them need not wait for the end of the input.
  void end_mlir();
  // A pipeliner step dump that arrived out of band: goes under the first
  // tritongpu-pipeline pass that has none yet (a step named like the first
  // step seen starts the next pass's group). False if there is none.
  bool attach_internal(Dump &&d);
  // Whether the innermost open MLIR pass is the software pipeliner.
  bool in_pipeline_pass() const;
  // Moves the last queued top-level pass into `phase` if it is named `name`
  // (a stage whose first pass is only recognisable by the one after it).
  void relabel_last(const std::string &name, const std::string &phase);
  // A compiler stage ended; `output` is its result (a Triton stage file) if known.
  // Before-only passes still waiting for an after-text take it.
  void close_stage(const std::optional<std::string> &output);
  // Resolves everything still open (the very last pass included) and emits it.
  void finish();

  int records() const { return records_; }
  int dumps() const { return dumps_; }
  // Latest text of LLVM function `fn` ("" if never seen).
  std::string llvm_function_text(const std::string &fn);

  struct Item;
  struct Stream;

private:
  Item *add_item(const Dump &d, Stream &fam, Snapshot before);
  void resolve(Item *it, Snapshot after, std::string note = {});
  void on_mlir(Dump &&d);
  void on_mlir_internal(Dump &&d);
  void on_llvm(Dump &&d, bool mir);
  void before_only_step(Family &fam, const Dump &d, Item *incoming);
  void close_open(Stream &family);  // resolves the open passes of one family, as finish() does
  void pump();  // emits finished items from the front of the queue
  bool emit(Item &it);  // true when the pass failed

  Target &t_;
  std::function<void(std::string)> warn_;
  std::string phase_;
  std::deque<std::unique_ptr<Item>> queue_;
  std::unique_ptr<Stream> mlir_, llvm_, mir_;
  struct LlvmChain;
  std::unique_ptr<LlvmChain> chain_;
  int records_ = 0, dumps_ = 0;
  bool deferred_ = false;
  std::string first_step_;
  Item *step_owner_ = nullptr;
};

}  // namespace lowertrace::dump
