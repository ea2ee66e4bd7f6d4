#include "engine/snapshot_store.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace lowertrace {

Snapshot SnapshotStore::intern(std::string &&text) {
  XXH128_hash_t h = XXH3_128bits(text.data(), text.size());
  Key key{h.high64, h.low64};
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, fresh] = by_hash_.try_emplace(key, Entry{next_id_, {}});
  // XXH3-128: equal hashes are taken as equal texts (a collision is far less
  // likely than a memory error), so a text no longer held needs no copy here.
  if (!fresh)
    if (Snapshot s = it->second.live.lock()) return s;
  auto data = std::make_shared<SnapshotData>();
  data->hash_hi = h.high64;
  data->hash_lo = h.low64;
  data->id = it->second.id;
  if (fresh) {
    ++next_id_;
    bytes_ += text.size();
  }
  data->text = std::move(text);
  it->second.live = data;
  return data;
}

std::size_t SnapshotStore::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return next_id_;
}

std::size_t SnapshotStore::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

void SnapshotStore::clear() {
  std::lock_guard<std::mutex> lock(mu_);
  by_hash_.clear();
  // Ids keep counting: a reset run must not reuse ids already on disk.
  bytes_ = 0;
}

}  // namespace lowertrace
