#include "report/html_codec.h"

#include <libdeflate.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>

namespace lowertrace::report::codec {

std::string gzip_base64(std::string_view data) {
  // libdeflate: the same gzip stream DecompressionStream('gzip') reads, at a
  // fraction of zlib's cost (compressing every snapshot was a tenth of the
  // tracing overhead, BENCHMARKS.md). Level 1: most of the size win; the
  // report stays far under its size budget.
  //
  // One compressor per thread. The pointer is trivially destructible and the
  // holder that frees it clears it, so a call after the thread's thread_locals
  // are gone (the LLVM plugin's report is written from a static destructor at
  // exit, after the main thread's thread_locals) uses a temporary compressor
  // instead of a freed one.
  thread_local libdeflate_compressor *cached = nullptr;
  thread_local bool thread_ending = false;
  struct Holder {
    ~Holder() {
      libdeflate_free_compressor(cached);
      cached = nullptr;
      thread_ending = true;
    }
  };
  std::unique_ptr<libdeflate_compressor, void (*)(libdeflate_compressor *)> temp(nullptr, libdeflate_free_compressor);
  libdeflate_compressor *c = cached;
  if (!c) {
    c = libdeflate_alloc_compressor(1);
    if (!c) return {};
    if (thread_ending) {
      temp.reset(c);
    } else {
      thread_local Holder holder;  // constructed once per thread, on its first compression
      cached = c;
    }
  }
  std::string out(libdeflate_gzip_compress_bound(c, data.size()), '\0');
  size_t n = libdeflate_gzip_compress(c, data.data(), data.size(), out.data(), out.size());
  if (n == 0) return {};
  out.resize(n);
  return base64(out);
}

std::string base64(std::string_view in) {
  static constexpr char tbl[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  auto b = [&](size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(in[k])); };
  for (; i + 3 <= in.size(); i += 3) {
    std::uint32_t v = b(i) << 16 | b(i + 1) << 8 | b(i + 2);
    out += tbl[v >> 18];
    out += tbl[(v >> 12) & 63];
    out += tbl[(v >> 6) & 63];
    out += tbl[v & 63];
  }
  if (size_t rest = in.size() - i) {
    std::uint32_t v = b(i) << 16 | (rest == 2 ? b(i + 1) << 8 : 0);
    out += tbl[v >> 18];
    out += tbl[(v >> 12) & 63];
    out += rest == 2 ? tbl[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// FIPS 180-4. Small and only used on the viewer's few kilobytes of script/CSS.
std::string sha256(std::string_view data) {
  static constexpr std::uint32_t k[64] = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
      0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
      0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
      0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
      0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
      0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
      0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
      0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
      0xc67178f2};
  std::uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  auto rotr = [](std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
  std::string msg(data);
  std::uint64_t bits = static_cast<std::uint64_t>(data.size()) * 8;
  msg += static_cast<char>(0x80);
  while (msg.size() % 64 != 56) msg += '\0';
  for (int i = 7; i >= 0; --i) msg += static_cast<char>((bits >> (8 * i)) & 0xff);
  for (size_t off = 0; off < msg.size(); off += 64) {
    std::uint32_t w[64];
    for (int i = 0; i < 16; ++i) {
      const auto *p = reinterpret_cast<const unsigned char *>(msg.data() + off + 4 * i);
      w[i] = std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
    }
    for (int i = 16; i < 64; ++i) {
      std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; ++i) {
      std::uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
      std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  std::string out(32, '\0');
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j) out[4 * i + j] = static_cast<char>((h[i] >> (24 - 8 * j)) & 0xff);
  return out;
}

std::string csp_hash(std::string_view text) { return "'sha256-" + base64(sha256(text)) + "'"; }

std::string script_safe_json(const nlohmann::json &j) {
  std::string s = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(s.size() + s.size() / 16);
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '<') out += "\\u003c";
    else if (c == '>') out += "\\u003e";
    else if (c == '&') out += "\\u0026";
    else if (c == '\xe2' && i + 2 < s.size() && s[i + 1] == '\x80' &&
             (s[i + 2] == '\xa8' || s[i + 2] == '\xa9')) {
      out += s[i + 2] == '\xa8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else out += c;
  }
  return out;
}

}  // namespace lowertrace::report::codec
