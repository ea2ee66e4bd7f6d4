// dump/triton_stages.h - what Triton's pipeline looks like from its dumps.
//
// MLIR_ENABLE_DUMP prints no stage markers, so stages are told by the passes
// that open them (Triton 3.4-3.6, NVIDIA and AMD back ends). Stages only move
// forward; a pass seen again later in the pipeline does not reopen a stage.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace lowertrace::dump::triton {

struct StageOpen {
  int stage;                    // 0 ttir, 1 ttgir, 2 llir
  std::string_view adopt_prev;  // the pass just before also belongs to the new stage
};
inline constexpr std::string_view kStageNames[] = {"ttir", "ttgir", "llir"};

// Stage opened by pass argument `arg`, or stage -1.
StageOpen stage_opened_by(std::string_view arg);
// First pass of a kernel compile: a ttir-stage module pass seen again restarts.
bool starts_compile(std::string_view arg);

// TRITON_KERNEL_DUMP folders: <dir>/<hash>/<kernel>.<ext>. For each kernel
// name, its hash folders oldest first (one per compile).
std::map<std::string, std::vector<std::filesystem::path>> index_stage_dir(const std::string &dir);

}  // namespace lowertrace::dump::triton
