// engine/trace_json.h - trace.json, the run's index (schema: docs/trace-format.md).
#pragma once

#include "lowertrace/sink.h"

#include <string>
#include <vector>

namespace lowertrace::trace_json {

inline constexpr int kVersion = 1;

std::string serialize(const RunInfo &run, const std::vector<const LowerRecord *> &records,
                      const std::string &error);

}  // namespace lowertrace::trace_json
