// import_into_sessions: the glue the `import` and `run` commands share.
#include "lowertrace/dump.h"
#include "lowertrace/session.h"
#include "util/fs.h"
#include "util/log.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <utility>
#include <vector>

namespace lowertrace::dump {
namespace {

// "2_x" < "10_x": dump folders number their files without padding.
bool natural_less(const std::string &a, const std::string &b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t i2 = i, j2 = j;
      while (i2 < a.size() && std::isdigit(static_cast<unsigned char>(a[i2]))) ++i2;
      while (j2 < b.size() && std::isdigit(static_cast<unsigned char>(b[j2]))) ++j2;
      std::string na = a.substr(i, i2 - i), nb = b.substr(j, j2 - j);
      na.erase(0, std::min(na.find_first_not_of('0'), na.size()));
      nb.erase(0, std::min(nb.find_first_not_of('0'), nb.size()));
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = i2;
      j = j2;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

// Where a file of a dump folder goes in pipeline order. Two folder layouts
// number their files, and neither sorts right by name alone:
//   -ir-dump-directory   "<N>-<hash>-<unit>-<Pass>-{before,after}.ll": pass N
//                        prints both files, and "after" < "before" by name;
//                        "<N-1>-...-<Pass>-invalidated.ll" is pass N's after;
//   --mlir-print-ir-tree-dir  "<op dir>/[<nested op dir>/]<c0>_..._<ck>_<arg>.mlir":
//                        c0 is the top-level pass the file ran under (the
//                        nested pipeline's adaptor for a nested op), so nested
//                        files "0_k" come before the top-level "1_x", "2_x".
// Key: (first counter, folder, remaining counters, name, before-before-after).
// Files without a leading counter keep folder-then-name order, ahead of the rest.
struct SortKey {
  bool numbered = false;
  std::uint64_t first = 0;
  std::string dir;
  std::vector<std::uint64_t> rest;
  std::string name;  // without a "-before"/"-after" side
  int side = 0;      // 0 before, 1 after (or neither)

  explicit SortKey(const std::filesystem::path &p) : dir(p.parent_path().string()) {
    std::string f = p.filename().string();
    std::size_t i = 0;
    std::vector<std::uint64_t> counters;
    while (i < f.size() && std::isdigit(static_cast<unsigned char>(f[i]))) {
      std::size_t j = i;
      std::uint64_t v = 0;
      while (j < f.size() && std::isdigit(static_cast<unsigned char>(f[j])) && j - i < 18) v = v * 10 + (f[j++] - '0');
      if (j < f.size() && std::isdigit(static_cast<unsigned char>(f[j]))) break;  // absurdly long: not a counter
      counters.push_back(v);
      i = j;
      // "0_1_canonicalize": another counter follows only after '_' + digit.
      if (i + 1 < f.size() && f[i] == '_' && std::isdigit(static_cast<unsigned char>(f[i + 1]))) ++i;
      else break;
    }
    if (!counters.empty() && i < f.size() && (f[i] == '_' || f[i] == '-')) {
      numbered = true;
      first = counters.front();
      rest.assign(counters.begin() + 1, counters.end());
    }
    name = f;
    for (auto [suffix, s] : {std::pair<std::string_view, int>{"-before", 0}, {"-after", 1}, {"-invalidated", 1}}) {
      std::size_t dot = f.rfind('.');
      std::string_view stem = std::string_view(f).substr(0, dot);
      if (stem.ends_with(suffix)) {
        name = std::string(stem.substr(0, stem.size() - suffix.size())) + f.substr(stem.size());
        if (numbered) name.erase(0, i);  // the counters are compared already
        side = s;
        // opt-22 numbers a pass's "-invalidated" file one below the pass
        // ("222-...-LoopDeletionPass-invalidated.ll" after "223-...-LoopDeletionPass-before.ll").
        if (suffix == "-invalidated" && numbered) ++first;
        break;
      }
    }
  }
};

bool key_less(const SortKey &a, const SortKey &b) {
  if (a.numbered != b.numbered) return !a.numbered;
  if (a.numbered && a.first != b.first) return a.first < b.first;
  if (a.dir != b.dir) return natural_less(a.dir, b.dir);
  if (a.rest != b.rest) return a.rest < b.rest;
  if (a.name != b.name) return natural_less(a.name, b.name);
  return a.side < b.side;
}

}  // namespace

std::vector<std::string> expand_input(const std::string &path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return {path};
  std::vector<std::pair<SortKey, std::string>> files;
  for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_regular_file(ec)) files.emplace_back(SortKey(it->path()), it->path().string());
  }
  std::sort(files.begin(), files.end(), [](const auto &a, const auto &b) { return key_less(a.first, b.first); });
  std::vector<std::string> out;
  out.reserve(files.size());
  for (auto &f : files) out.push_back(std::move(f.second));
  return out;
}

ImportResult import_into_sessions(const ImportJob &job, const Config &cfg) {
  std::string script = job.script;
  if (script.empty() && !job.inputs.empty()) script = util::stem(job.inputs.front());
  std::string label = job.input_label;
  if (label.empty())
    for (const auto &i : job.inputs) label += (label.empty() ? "" : " ") + i;
  TargetFactory factory = [&](const Compilation &c) {
    SessionOptions so;
    so.script = c.kernel.empty() ? script : c.kernel;
    so.input = label;
    so.tool = job.tool;
    so.live_report = false;  // the dump survives a crash; write the report once
    so.batch_console = true;
    so.timed = false;  // a dump has no pass times
    so.release_texts = true;  // bounded memory: the raw files and the report hold the texts
    return make_session_target(std::make_unique<Session>(so, cfg));
  };
  Importer imp(job.options, factory);
  for (const auto &in : job.inputs)
    for (const auto &f : expand_input(in))
      if (std::string err = imp.feed_file(f); !err.empty()) util::warn("import: " + err);
  return imp.finish();
}

}  // namespace lowertrace::dump
