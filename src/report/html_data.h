// report/html_data.h - what the viewer reads: record metadata and snapshots.
//
// Each distinct IR text becomes one numbered snapshot, stored once, gzip +
// base64. A snapshot that follows another (a pass's after-text, whose
// before-text is already stored) is stored as a line delta against it, so a
// 1,000-pass trace costs about one IR plus its edits; a full copy is stored
// every kMaxChain links so the browser never replays a long chain.
//
// Delta payload (before gzip): a JSON array of groups [keep, drop, [lines...]]
// applied to the base split on '\n'; base lines after the last group are kept.
#pragma once

#include "report/source_lines.h"

#include "lowertrace/record.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace lowertrace::report {

class ReportData {
public:
  // Source locations seen in the texts stored so far (see source_lines.h).
  SourceRefs refs;

  static constexpr int kMaxChain = 24;

  struct Stored {
    int key = 0;
    int base = -1;        // key of the delta base, -1 for a full text
    int chain = 0;        // deltas to replay from the nearest full text
    std::string payload;  // base64(gzip(text or delta JSON)); empty once spilled
    std::uint64_t spilled_at = 0;  // where spill() put it, when `spilled_len` > 0
    std::uint32_t spilled_len = 0;
    // No text is kept: a delta is made against the base the caller passes
    // (a record's before-text, alive when its after-text is stored), so the
    // report holds payloads only, never the run's IR texts.
  };

  // Stores `s` (once) and returns its key, or -1 for no snapshot. `base`, when
  // already stored, is the preferred delta base. Newly stored keys are appended
  // to `fresh` so a chunk can carry exactly what it introduced.
  // Snapshots are told apart by content hash (XXH3-128), so a stand-in
  // without its text (SnapshotData::released) finds its stored key.
  // `inserted_lines`, when known (>= 0), is how many lines of `s` are new
  // against `base`; when that is most of `s`, it is stored whole.
  int ref(const Snapshot &s, const Snapshot &base, std::vector<int> *fresh = nullptr,
          int inserted_lines = -1);

  const Stored &stored(int key) const { return stored_.at(static_cast<size_t>(key)); }
  size_t size() const { return stored_.size(); }

  // Moves the payloads of `keys` to the file `path` (created at the first
  // call, appended to after), keeping where they are: a live report has
  // written them into a chunk already, and the final page reads them back.
  // A long run's payloads (100 MB for opt -O2 on 2,000 functions) then stay
  // out of the compiler's memory. Returns an error, and then keeps them.
  std::string spill(const std::vector<int> &keys, const std::string &path);
  // The payload of `key`, from memory or from the spill file (into `buf`).
  // Empty on a read error (the viewer then says the snapshot is missing).
  std::string_view payload(int key, std::string &buf) const;

  ReportData() = default;
  ReportData(const ReportData &) = delete;
  ReportData &operator=(const ReportData &) = delete;
  ~ReportData();

  // The record's metadata, with snapshot keys; refs its snapshots.
  nlohmann::json record_json(const LowerRecord &rec, std::vector<int> *fresh = nullptr);
  // The same as script-safe JSON text, byte for byte what
  // codec::script_safe_json(record_json(rec)) gives, written directly: a
  // JSON tree per record (tens of thousands for clang -O2) and its
  // serialisation were a visible part of the plugin's cost. `files`: with
  // the record's "bf"/"af" (where a killed run's texts are, for live chunks).
  std::string record_text(const LowerRecord &rec, std::vector<int> *fresh = nullptr, bool files = false);

private:
  int find(const Snapshot &s) const;
  int spill_fd_ = -1;
  std::uint64_t spill_end_ = 0;
  std::vector<Stored> stored_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::vector<int>> by_hash_;
  // Noise pairs per (before, after) snapshot pair: a record is serialised
  // for its live chunk and again for the final page; classify it once.
  std::map<std::array<std::uint64_t, 4>, int> noise_;  // by (before, after) content hash
};

// Line delta from `base` to `text` as the payload JSON described above.
std::string line_delta(std::string_view base, std::string_view text);

}  // namespace lowertrace::report
