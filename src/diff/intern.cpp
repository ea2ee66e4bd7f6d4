// diff/intern.cpp - maps lines to dense integer ids with one open-addressing
// table (faster than std::unordered_map for 100k-line inputs, no per-node
// allocation).
#include "core.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace lowertrace::diff::detail {
namespace {

// XXH3 is several times cheaper than std::hash on IR-sized lines, and hashing
// every line of both texts is most of what interning costs.
inline std::size_t hash_line(std::string_view s) { return XXH3_64bits(s.data(), s.size()); }

class Table {
 public:
  explicit Table(std::size_t expected) {
    std::size_t cap = 16;
    while (cap < expected * 2) cap <<= 1;
    slots_.assign(cap, kEmpty);
    mask_ = cap - 1;
  }

  Id get(std::string_view s) {
    std::size_t h = hash_line(s);
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      Id &slot = slots_[i];
      if (slot == kEmpty) {
        slot = static_cast<Id>(keys_.size());
        keys_.push_back(s);
        if (keys_.size() * 2 > slots_.size()) grow();
        return static_cast<Id>(keys_.size() - 1);
      }
      if (keys_[slot] == s) return slot;
    }
  }
  Id size() const { return static_cast<Id>(keys_.size()); }

 private:
  static constexpr Id kEmpty = ~Id{0};
  void grow() {
    std::vector<Id> old = std::move(slots_);
    slots_.assign(old.size() * 2, kEmpty);
    mask_ = slots_.size() - 1;
    for (Id id : old) {
      if (id == kEmpty) continue;
      std::size_t i = hash_line(keys_[id]) & mask_;
      while (slots_[i] != kEmpty) i = (i + 1) & mask_;
      slots_[i] = id;
    }
  }
  std::vector<Id> slots_;
  std::vector<std::string_view> keys_;
  std::size_t mask_ = 0;
};

}  // namespace

Interned intern(const std::vector<std::string_view> &a, const std::vector<std::string_view> &b,
                bool a_noeol_last, bool b_noeol_last) {
  Table t(a.size() + b.size());
  Interned out;
  out.a.reserve(a.size());
  out.b.reserve(b.size());
  for (auto s : a) out.a.push_back(t.get(s));
  for (auto s : b) out.b.push_back(t.get(s));
  Id next = t.size();
  // An unterminated last line gets a fresh id; if both texts end with the same
  // unterminated line they share it (it is equal and stays context).
  Id a_last = 0;
  if (a_noeol_last && !out.a.empty()) {
    a_last = out.a.back();
    out.a.back() = next++;
  }
  if (b_noeol_last && !out.b.empty()) {
    if (a_noeol_last && !out.a.empty() && out.b.back() == a_last)
      out.b.back() = out.a.back();
    else
      out.b.back() = next++;
  }
  out.alphabet = next;
  return out;
}

}  // namespace lowertrace::diff::detail
