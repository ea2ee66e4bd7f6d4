// lowertrace/record.h - the data every front end produces and every reporter reads.
//
// A LowerRecord is the result of running one pass (or one codegen step). Its IR
// texts are interned Snapshots: each distinct text is stored once per session,
// so the after-text of pass k and the before-text of pass k+1 share storage.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace lowertrace {

// Status values, spelled exactly as the original tool spells them.
inline constexpr std::string_view STATUS_COMPLETED = "completed";
inline constexpr std::string_view STATUS_FAILED = "failed";
inline constexpr std::string_view STATUS_SKIPPED = "skipped";
inline constexpr std::string_view STATUS_CODEGEN = "codegen";

// One immutable IR text, content-addressed (XXH3-128) and numbered in the
// order the session first saw it.
struct SnapshotData {
  std::string text;
  std::uint64_t hash_hi = 0, hash_lo = 0;
  std::uint32_t id = 0;
  // A session that releases texts (an import: the raw files hold them) keeps
  // finished records with a stand-in: same id and hash, no text.
  bool released = false;
  std::uint64_t released_size = 0;
  std::uint64_t size() const { return released ? released_size : text.size(); }
};
using Snapshot = std::shared_ptr<const SnapshotData>;

inline std::string_view text_of(const Snapshot &s) {
  return s ? std::string_view(s->text) : std::string_view();
}

struct LowerRecord {
  std::string phase;  // "unscoped", "pipeline", "run2_pipeline", "codegen", ...
  std::string name;   // pass name as the user knows it (MLIR: the pass argument)
  int index = 0;      // allocated when the pass starts; monotonic in a session
  Snapshot before;    // IR handed to the pass
  Snapshot after;     // IR it produced (failed: empty; codegen: the source used)
  bool changed = false;
  int add_lines = 0;  // equal to the '+' lines the rendered diff shows
  int del_lines = 0;
  std::string status{STATUS_COMPLETED};
  std::string error_msg;
  // False when the IR before the pass is unknown (an imported one-sided dump:
  // the first after-only dump of a unit). Such a record has no before-text
  // and is never "changed": unknown is not changed.
  bool before_known = true;

  // Extensions over the original.
  int depth = 0;          // number of enclosing traced passes
  int parent_index = -1;  // index of the nearest enclosing pass, -1 at top level
  double wall_ms = 0;     // wall time of the pass itself; < 0: not measured (imports)
  std::string anchor;     // what it ran on: "builtin.module", "func.func x2000 (3 changed)"
  std::string ir_lang;    // language of before (mlir, llvm, mir, ptx, ...); after for codegen: lang
  std::string lang;       // language of after
  std::string detail;     // free-form: pass class name, pipeline text, codegen tag
  // Where the text is, relative to the run folder, when the record has no raw
  // file of its own for it (SessionOptions::raw_file_per_text): the file of
  // the first record that had this text. Empty: the record's own raw file.
  std::string before_file, after_file;

  std::string_view before_text() const { return text_of(before); }
  std::string_view after_text() const { return text_of(after); }
};

}  // namespace lowertrace
