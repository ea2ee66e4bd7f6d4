// engine/trace_json.h - trace.json, the run's index (schema: docs/trace-format.md).
#pragma once

#include "lowertrace/sink.h"

#include <string>
#include <vector>

namespace lowertrace::trace_json {

inline constexpr int kVersion = 1;

std::string serialize(const RunInfo &run, const RecordList &records,
                      const std::string &error);
// Writes the same bytes to `path` atomically (temporary + rename), streamed:
// a trace of millions of records is never held in memory. "" or the error.
std::string write(const std::string &path, const RunInfo &run, const RecordList &records,
                  const std::string &error);

}  // namespace lowertrace::trace_json
