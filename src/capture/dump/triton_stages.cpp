#include "triton_stages.h"

#include <algorithm>
#include <system_error>

namespace lowertrace::dump::triton {

StageOpen stage_opened_by(std::string_view arg) {
  if (arg == "inline") return {0, {}};
  if (arg == "convert-triton-to-tritongpu") return {1, {}};
  // make_llir (3.6) starts with combine-tensor-select-and-if, which make_ttgir
  // also runs; only the pass after it tells the stages apart.
  if (arg == "tritongpu-allocate-warp-groups") return {2, "tritongpu-combine-tensor-select-and-if"};
  if (arg == "convert-scf-to-cf" || arg == "allocate-shared-memory-nv" ||
      arg == "allocate-shared-memory" || arg == "convert-triton-gpu-to-llvm" ||
      arg == "convert-triton-amdgpu-to-llvm")
    return {2, {}};
  return {-1, {}};
}

bool starts_compile(std::string_view arg) { return arg == "inline"; }

std::map<std::string, std::vector<std::filesystem::path>> index_stage_dir(const std::string &dir) {
  namespace fs = std::filesystem;
  std::map<std::string, std::vector<std::pair<fs::file_time_type, fs::path>>> found;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return {};
  for (const auto &hash : fs::directory_iterator(dir, ec)) {
    if (!hash.is_directory(ec)) continue;
    for (const auto &f : fs::directory_iterator(hash.path(), ec)) {
      // Every compile writes <kernel>.source or .ttir first; key on those.
      std::string ext = f.path().extension().string();
      if (ext != ".ttir" && ext != ".ttgir") continue;
      if (ext == ".ttgir" && fs::exists(f.path().parent_path() / (f.path().stem().string() + ".ttir")))
        continue;
      found[f.path().stem().string()].emplace_back(fs::last_write_time(f.path(), ec), hash.path());
    }
  }
  std::map<std::string, std::vector<fs::path>> out;
  for (auto &[k, v] : found) {
    std::sort(v.begin(), v.end());
    for (auto &p : v) out[k].push_back(p.second);
  }
  return out;
}

}  // namespace lowertrace::dump::triton
