// import_into_sessions: the glue the `import` and `run` commands share.
#include "lowertrace/dump.h"
#include "lowertrace/session.h"
#include "util/fs.h"
#include "util/log.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

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

}  // namespace

std::vector<std::string> expand_input(const std::string &path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return {path};
  std::vector<std::string> out;
  for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_regular_file(ec)) out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end(), [&](const std::string &a, const std::string &b) {
    // Parent folder first (tree-dir nests op folders), then the file name.
    fs::path pa(a), pb(b);
    if (pa.parent_path() != pb.parent_path()) return natural_less(pa.parent_path().string(), pb.parent_path().string());
    return natural_less(pa.filename().string(), pb.filename().string());
  });
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
    return make_session_target(std::make_unique<Session>(so, cfg));
  };
  Importer imp(job.options, factory);
  for (const auto &in : job.inputs)
    for (const auto &f : expand_input(in))
      if (std::string err = imp.feed_file(f); !err.empty()) util::warn("import: " + err);
  return imp.finish();
}

}  // namespace lowertrace::dump
