#include "engine/record_table.h"

#include "engine/layout.h"

#include <algorithm>

namespace lowertrace {

namespace {
enum Field { kPhase, kName, kStatus, kError, kAnchor, kIrLang, kLang, kDetail };

// A reused record's strings keep their buffers: only what a new record
// sets differs from a default LowerRecord.
void make_fresh(LowerRecord &r) {
  for (std::string *s : {&r.phase, &r.name, &r.error_msg, &r.anchor, &r.ir_lang, &r.lang, &r.detail,
                         &r.before_file, &r.after_file})
    s->clear();
  r.status.assign(STATUS_COMPLETED);
  r.index = 0;
  r.before.reset();
  r.after.reset();
  r.changed = false;
  r.add_lines = r.del_lines = 0;
  r.before_known = true;
  r.depth = 0;
  r.parent_index = -1;
  r.wall_ms = 0;
}
}  // namespace

LowerRecord &RecordTable::open() {
  if (rows_ % kChunk == 0 && rows_ / kChunk == blocks_.size())
    blocks_.push_back(std::make_unique<Row[]>(kChunk));
  int index = static_cast<int>(rows_++);
  row(index).open = true;
  std::unique_ptr<LowerRecord> r;
  if (spare_.empty()) {
    r = std::make_unique<LowerRecord>();
  } else {
    r = std::move(spare_.back());
    spare_.pop_back();
    make_fresh(*r);
  }
  r->index = index;
  open_.emplace_back(index, std::move(r));
  return *open_.back().second;
}

const LowerRecord *RecordTable::find_open(int index) const {
  if (index < 0 || static_cast<std::size_t>(index) >= rows_ || !row(index).open) return nullptr;
  for (const auto &[i, r] : open_)
    if (i == index) return r.get();
  return nullptr;
}

LowerRecord *RecordTable::open_record(int index) { return const_cast<LowerRecord *>(find_open(index)); }

RecordTable::Id RecordTable::intern(std::string_view s, int field) {
  // Most rows repeat the previous row's phase, status, languages, name.
  if (str(last_[field]) == s) return last_[field];
  auto it = ids_.find(s);
  if (it == ids_.end()) {
    strings_.emplace_back(s);
    it = ids_.emplace(strings_.back(), static_cast<Id>(strings_.size() - 1)).first;
  }
  return last_[field] = it->second;
}

void RecordTable::close(int index, FileRef before, FileRef after) {
  auto it = std::find_if(open_.begin(), open_.end(), [&](const auto &p) { return p.first == index; });
  if (it == open_.end()) return;
  std::unique_ptr<LowerRecord> r = std::move(it->second);
  open_.erase(it);
  Row &w = row(index);
  w.before = std::move(r->before);
  w.after = std::move(r->after);
  w.wall_ms = r->wall_ms;
  w.add_lines = r->add_lines;
  w.del_lines = r->del_lines;
  w.depth = r->depth;
  w.parent_index = r->parent_index;
  w.phase = intern(r->phase, kPhase);
  w.name = intern(r->name, kName);
  w.status = intern(r->status, kStatus);
  w.error = intern(r->error_msg, kError);
  w.anchor = intern(r->anchor, kAnchor);
  w.ir_lang = intern(r->ir_lang, kIrLang);
  w.lang = intern(r->lang, kLang);
  w.detail = intern(r->detail, kDetail);
  w.before_file = before;
  w.after_file = after;
  w.changed = r->changed;
  w.before_known = r->before_known;
  w.open = false;
  spare_.push_back(std::move(r));
}

void RecordTable::set_anchor(int index, std::string_view anchor) {
  if (LowerRecord *r = open_record(index)) r->anchor = std::string(anchor);
  else if (index >= 0 && static_cast<std::size_t>(index) < rows_) row(index).anchor = intern(anchor, kAnchor);
}

void RecordTable::set_detail(int index, std::string_view detail) {
  if (LowerRecord *r = open_record(index)) r->detail = std::string(detail);
  else if (index >= 0 && static_cast<std::size_t>(index) < rows_) row(index).detail = intern(detail, kDetail);
}

void RecordTable::set_error(int index, std::string_view error) {
  if (LowerRecord *r = open_record(index)) r->error_msg = std::string(error);
  else if (index >= 0 && static_cast<std::size_t>(index) < rows_) row(index).error = intern(error, kError);
}

std::string_view RecordTable::status(int index) const {
  if (const LowerRecord *r = find_open(index)) return r->status;
  return str(row(index).status);
}

std::string_view RecordTable::error(int index) const {
  if (const LowerRecord *r = find_open(index)) return r->error_msg;
  return str(row(index).error);
}

std::string_view RecordTable::ir_lang(int index) const {
  if (const LowerRecord *r = find_open(index)) return r->ir_lang;
  return str(row(index).ir_lang);
}

int RecordTable::parent_index(int index) const {
  if (const LowerRecord *r = find_open(index)) return r->parent_index;
  return row(index).parent_index;
}

std::string RecordTable::file_path(FileRef f) const {
  // Only the parts raw_file_path reads.
  LowerRecord scratch;
  const LowerRecord *r = &scratch;
  const Row &w = row(f.index);
  if (w.open) {
    r = find_open(f.index);
  } else {
    scratch.index = f.index;
    scratch.phase.assign(str(w.phase));
    scratch.name.assign(str(w.name));
    scratch.status.assign(str(w.status));
    scratch.ir_lang.assign(str(w.ir_lang));
    scratch.lang.assign(str(w.lang));
  }
  return layout::raw_file_path(*r, f.after);
}

RecordTable::FileRef RecordTable::place_text(std::uint32_t id, int index, bool after) {
  if (id >= text_files_.size()) text_files_.resize(std::max<std::size_t>(id + 1, text_files_.size() * 2));
  FileRef &f = text_files_[id];
  if (f.index >= 0) return f;
  f = {index, after};
  return {};
}

const std::string &RecordTable::recent_path(FileRef f) {
  std::uint32_t key = f.packed();
  if (recent_[0].packed != key) {
    std::swap(recent_[0], recent_[1]);
    if (recent_[0].packed != key) recent_[0] = {key, file_path(f)};
  }
  return recent_[0].path;
}

const LowerRecord &RecordTable::at(std::size_t i, LowerRecord &out, std::uint64_t &memo) const {
  const Row &w = row(i);
  if (w.open) return *find_open(static_cast<int>(i));
  out.phase.assign(str(w.phase));
  out.name.assign(str(w.name));
  out.index = static_cast<int>(i);
  out.before = w.before;
  out.after = w.after;
  out.changed = w.changed;
  out.add_lines = w.add_lines;
  out.del_lines = w.del_lines;
  out.status.assign(str(w.status));
  out.error_msg.assign(str(w.error));
  out.before_known = w.before_known;
  out.depth = w.depth;
  out.parent_index = w.parent_index;
  out.wall_ms = w.wall_ms;
  out.anchor.assign(str(w.anchor));
  out.ir_lang.assign(str(w.ir_lang));
  out.lang.assign(str(w.lang));
  out.detail.assign(str(w.detail));
  // Consecutive records name the same files (a unit's no-op passes): a
  // path is built only when its file differs from the previous record's.
  std::uint64_t files = std::uint64_t(w.before_file.packed()) << 32 | w.after_file.packed();
  if (files != memo) {
    if (w.before_file.index < 0) out.before_file.clear();
    else if (w.before_file.packed() != memo >> 32) out.before_file = file_path(w.before_file);
    if (w.after_file.index < 0) out.after_file.clear();
    else if (w.after_file.packed() != (memo & 0xffffffffu)) out.after_file = file_path(w.after_file);
    memo = files;
  }
  return out;
}

void RecordTable::clear() {
  blocks_.clear();
  rows_ = 0;
  open_.clear();
  spare_.clear();
  strings_.assign(1, std::string());
  ids_.clear();
  ids_.emplace(std::string_view(), 0);
  std::fill(std::begin(last_), std::end(last_), 0);
  text_files_.clear();
  recent_[0] = recent_[1] = {};
}

}  // namespace lowertrace
