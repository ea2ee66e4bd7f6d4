// util/word_hasher.h - XXH3-128 over a stream of 64-bit words, for fingerprints.
//
// Words are gathered in a buffer and hashed in batches: one streaming update
// per field would cost more than the field. Shared by the MLIR and LLVM
// fingerprints (capture/mlir/fingerprint.h, capture/llvm/fingerprint.h).
#pragma once

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

namespace lowertrace::util {

class WordHasher {
public:
  WordHasher() { XXH3_128bits_reset(&state_); }
  void add(const void *p) { add(static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p))); }
  void add(std::uint64_t w) {
    if (n_ == buf_.size()) drain();
    buf_[n_++] = w;
  }
  // A string as one word (its own 64-bit hash, mixed with its length).
  void add_string(std::string_view s) { add(XXH3_64bits(s.data(), s.size()) ^ (s.size() << 1)); }
  // {high, low} 64 bits of the digest.
  std::pair<std::uint64_t, std::uint64_t> result() {
    drain();
    XXH128_hash_t h = XXH3_128bits_digest(&state_);
    return {h.high64, h.low64};
  }

private:
  void drain() {
    XXH3_128bits_update(&state_, buf_.data(), n_ * sizeof(std::uint64_t));
    n_ = 0;
  }
  XXH3_state_t state_;
  std::array<std::uint64_t, 1024> buf_;
  std::size_t n_ = 0;
};

}  // namespace lowertrace::util
