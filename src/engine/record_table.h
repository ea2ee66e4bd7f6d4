// engine/record_table.h - a session's records: open ones whole, finished ones compact.
//
// A finished record is never written again, except for the few facts a front
// end adds late (Session::annotate, a more precise failure message). So it is
// kept as a row of ids: its strings are interned once per run (a few hundred
// pass, phase and function names among hundreds of thousands of records), and
// its raw-file names (SessionOptions::raw_file_per_text) are the record that
// wrote the file, not a path. A row is about a quarter of a LowerRecord and
// allocates nothing of its own. Open records (the passes still running, a
// handful) stay LowerRecords; their objects are reused for later passes.
#pragma once

#include "lowertrace/record_list.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lowertrace {

class RecordTable final : public RecordList {
public:
  // Where a text's raw file is: the record that wrote it, and which side.
  struct FileRef {
    int index = -1;  // -1: the record's own file
    bool after = false;
    std::uint32_t packed() const { return index < 0 ? 0 : static_cast<std::uint32_t>(index) * 2 + after + 1; }
  };

  // A new open record at position size(); its fields are defaults.
  LowerRecord &open();
  // The open record `index`; null if it is finished (or out of range).
  LowerRecord *open_record(int index);
  const LowerRecord *find_open(int index) const;
  // Finishes open record `index`: from here on it is held compactly. Its
  // before_file/after_file must be empty or the raw-file paths of `before`/`after`.
  void close(int index, FileRef before, FileRef after);
  void close(int index) { close(index, FileRef(), FileRef()); }

  // Late facts for a finished or open record.
  void set_anchor(int index, std::string_view anchor);
  void set_detail(int index, std::string_view detail);
  void set_error(int index, std::string_view error);
  // Of any record (index < size()).
  std::string_view status(int index) const;
  std::string_view error(int index) const;
  std::string_view ir_lang(int index) const;
  int parent_index(int index) const;

  // SessionOptions::raw_file_per_text: the file that holds snapshot `id`.
  // The first record to ask (`index`, side `after`) writes it and gets {-1};
  // later ones get that record.
  FileRef place_text(std::uint32_t id, int index, bool after);
  // The path of a text's raw file (index >= 0), as layout::raw_file_path gives it.
  std::string file_path(FileRef f) const;
  // The same for the writer (the session, as it delivers a record): the
  // last two paths are kept, as consecutive records name the same files.
  const std::string &recent_path(FileRef f);

  void clear();

protected:
  // memo: the files scratch's before_file and after_file name (packed FileRefs).
  const LowerRecord &at(std::size_t i, LowerRecord &scratch, std::uint64_t &memo) const override;
  std::size_t count() const override { return rows_; }

private:
  using Id = std::uint32_t;
  struct Row {
    Snapshot before, after;
    double wall_ms = 0;
    int add_lines = 0, del_lines = 0, depth = 0, parent_index = -1;
    Id phase = 0, name = 0, status = 0, error = 0, anchor = 0, ir_lang = 0, lang = 0, detail = 0;
    FileRef before_file, after_file;
    bool changed = false, before_known = true;
    bool open = false;  // held in open_ instead
  };
  static constexpr std::size_t kChunk = 4096;  // rows per block: no copy when the table grows

  Row &row(std::size_t i) { return blocks_[i / kChunk][i % kChunk]; }
  const Row &row(std::size_t i) const { return blocks_[i / kChunk][i % kChunk]; }
  Id intern(std::string_view s, int field);
  std::string_view str(Id id) const { return strings_[id]; }

  std::vector<std::unique_ptr<Row[]>> blocks_;
  std::size_t rows_ = 0;
  std::vector<std::pair<int, std::unique_ptr<LowerRecord>>> open_;  // few: the open passes
  std::vector<std::unique_ptr<LowerRecord>> spare_;                 // closed, for reuse
  std::deque<std::string> strings_{std::string()};                  // id 0: ""
  std::unordered_map<std::string_view, Id> ids_{{std::string_view(), 0}};
  Id last_[8] = {};  // per field: the id it had last (most rows repeat it)
  std::vector<FileRef> text_files_;  // by snapshot id (place_text)
  struct Recent {
    std::uint32_t packed = 0;
    std::string path;
  };
  Recent recent_[2];  // recent_path(); [0] the newer
};

}  // namespace lowertrace
