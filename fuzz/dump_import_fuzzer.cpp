// Dump importers (MLIR, LLVM, Triton and auto-detection): any bytes, fed
// whole or in arbitrary chunks, must give the same compilations and the same
// events, and never crash, leak or trip a sanitizer. The RecordingTarget
// (tests/unit/dump_recording.h) also throws on out-of-order pass events.
//
// Input: byte 0 picks the format (and a chunking seed), the rest is the dump.
#include "dump_recording.h"

#include <cstdint>
#include <cstdlib>
#include <sstream>

namespace {
using namespace lowertrace::dump;
using lowertrace::dump::testing::Imported;

std::string describe(const Imported &im) {
  std::ostringstream os;
  os << im.result.dumps << ' ' << im.result.records << ' ' << im.result.compilations << ' '
     << int(im.result.detected) << ' ' << im.result.codegens.size() << '\n';
  for (const auto &w : im.result.warnings) os << "warning: " << w << '\n';
  for (size_t t = 0; t < im.targets.size(); ++t) {
    os << "# " << im.compilations[t].kernel << ' ' << im.compilations[t].ordinal << ' '
       << im.targets[t]->finished << '\n';
    for (const auto &r : im.targets[t]->recs)
      os << r.phase << '|' << r.name << '|' << r.status << '|' << r.error << '|' << r.anchor << '|'
         << r.detail << '|' << r.lang << '|' << r.depth << r.before_known << r.after_known << '\n'
         << r.before.size() << ':' << r.before << '\n' << r.after.size() << ':' << r.after << '\n';
  }
  return os.str();
}

// Feeds `text` in pseudo-random chunk sizes from 1 to 64 bytes (seeded), so a
// banner or a line end falls on every kind of chunk boundary over a run.
Imported import_chunked(std::string_view text, Format fmt, unsigned seed) {
  auto out = std::make_shared<Imported>();
  ImportOptions o;
  o.format = fmt;
  {
    Importer imp(o, [out](const Compilation &c) {
      auto t = std::make_shared<testing::RecordingTarget>();
      out->targets.push_back(t);
      out->compilations.push_back(c);
      return std::make_unique<testing::Proxy>(t);
    });
    size_t i = 0;
    while (i < text.size()) {
      seed = seed * 1103515245u + 12345u;
      size_t n = 1 + (seed >> 16) % 64;
      imp.feed(text.substr(i, n));
      i += n;
    }
    out->result = imp.finish();
  }
  return *out;
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  setenv("NO_COLOR", "1", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  static const Format kFormats[] = {Format::Auto, Format::Mlir, Format::Llvm, Format::Triton};
  Format fmt = kFormats[data[0] & 3];
  std::string_view text(reinterpret_cast<const char *>(data) + 1, size - 1);
  Imported whole = testing::import_text(text, fmt, text.size() + 1);
  Imported chunked = import_chunked(text, fmt, data[0] >> 2);
  if (describe(whole) != describe(chunked)) {
    std::fprintf(stderr, "whole and chunked imports differ\n--- whole\n%s\n--- chunked\n%s\n",
                 describe(whole).c_str(), describe(chunked).c_str());
    std::abort();
  }
  return 0;
}
