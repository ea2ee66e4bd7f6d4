// lowertrace/record_list.h - a run's records, by index, as sinks read them.
//
// A session holds its finished records compactly: the LLVM plugin makes
// 300,000 of them on opt -O2 over 2,000 functions, and a LowerRecord each
// (ten strings) was the largest part of a traced compile's memory. A record
// is rebuilt when it is read, so a list hands records out by value, or
// through an iterator that rebuilds each one in place: the reference an
// iterator gives is valid until the iterator moves on.
//
// A list can also be a view of records held elsewhere, as LowerRecords.
#pragma once

#include "lowertrace/record.h"

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

namespace lowertrace {

class RecordList {
public:
  RecordList() = default;
  // A view of `recs` (position = index), which must outlive the list.
  RecordList(const std::vector<const LowerRecord *> &recs) : view_(&recs) {}  // NOLINT: implicit
  RecordList(const RecordList &) = delete;
  RecordList &operator=(const RecordList &) = delete;
  virtual ~RecordList() = default;

  std::size_t size() const { return view_ ? view_->size() : count(); }
  bool empty() const { return size() == 0; }
  // A copy of the record at position `i` (< size()).
  LowerRecord operator[](std::size_t i) const {
    LowerRecord scratch;
    std::uint64_t memo = 0;
    const LowerRecord &r = at(i, scratch, memo);
    if (&r == &scratch) return scratch;
    return r;
  }

  class iterator {
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = LowerRecord;
    using difference_type = std::ptrdiff_t;
    using pointer = const LowerRecord *;
    using reference = const LowerRecord &;
    iterator(const RecordList *list, std::size_t i) : list_(list), i_(i) {}
    iterator(const iterator &o) : list_(o.list_), i_(o.i_) {}  // the copy rebuilds its own
    iterator &operator=(const iterator &o) {
      list_ = o.list_;
      i_ = o.i_;
      cur_ = nullptr;
      return *this;
    }
    const LowerRecord &operator*() const {
      if (!cur_) cur_ = &list_->at(i_, scratch_, memo_);
      return *cur_;
    }
    const LowerRecord *operator->() const { return &**this; }
    iterator &operator++() {
      ++i_;
      cur_ = nullptr;
      return *this;
    }
    std::size_t position() const { return i_; }
    bool operator==(const iterator &o) const { return i_ == o.i_; }
    bool operator!=(const iterator &o) const { return i_ != o.i_; }

  private:
    const RecordList *list_;
    std::size_t i_;
    mutable LowerRecord scratch_;  // reused: its strings keep their buffers
    mutable std::uint64_t memo_ = 0;  // what scratch_ holds (see at())
    mutable const LowerRecord *cur_ = nullptr;
  };
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, size()}; }

protected:
  // The record at position `i`: one held as a LowerRecord, or `scratch`
  // rebuilt from a compact form (its strings' buffers are reused). `memo`
  // belongs to `scratch` (0 with a new one): what the list noted about the
  // record last rebuilt there, so that parts it shares need no rebuilding.
  virtual const LowerRecord &at(std::size_t i, LowerRecord &scratch, std::uint64_t &memo) const {
    (void)scratch;
    (void)memo;
    return *(*view_)[i];
  }
  virtual std::size_t count() const { return 0; }

private:
  const std::vector<const LowerRecord *> *view_ = nullptr;
};

}  // namespace lowertrace
