// engine/snapshot_store.h - each distinct IR text stored once (content hash).
//
// The store only numbers texts: it holds them weakly, so a text lives as long
// as some record (or front end) holds its Snapshot. Interning a text again
// after that gives a new Snapshot with the same id, so raw files and reports
// still see one text.
#pragma once

#include "lowertrace/record.h"

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace lowertrace {

class SnapshotStore {
public:
  // Returns the Snapshot for `text`, creating it (with the next id) if new.
  Snapshot intern(std::string &&text);
  std::size_t size() const;
  std::size_t bytes() const;  // sum of distinct texts
  void clear();

private:
  struct Key {
    std::uint64_t hi, lo;
    bool operator==(const Key &) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key &k) const { return static_cast<std::size_t>(k.lo ^ k.hi); }
  };
  mutable std::mutex mu_;
  struct Entry {
    std::uint32_t id;
    std::weak_ptr<const SnapshotData> live;
  };
  std::unordered_map<Key, Entry, KeyHash> by_hash_;
  std::uint32_t next_id_ = 0;
  std::size_t bytes_ = 0;
};

}  // namespace lowertrace
