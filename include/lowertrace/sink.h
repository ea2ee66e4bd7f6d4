// lowertrace/sink.h - what reporters receive: the run's identity and records.
//
// Sinks (raw files, terminal, trace.json, HTML) are told about each record when
// it reaches its final state, and once when the session ends. They only read.
#pragma once

#include "lowertrace/config.h"
#include "lowertrace/record.h"
#include "lowertrace/record_list.h"

#include <string>
#include <vector>

namespace lowertrace {

// Where a run lives and what it traces. Reporters get it with every call.
struct RunInfo {
  std::string script;      // <script> folder name
  std::string script_dir;  // <trace_dir>/<script>
  std::string run_id;      // run_<YYYYmmdd_HHMMSS_ffffff>_<pid>_<8 hex>
  std::string run_dir;     // <script_dir>/.run_records/<run_id>
  std::string input;       // what is traced (file name, command line)
  std::string tool;        // "lowertrace-opt", "lowertrace import", ...
  Mode mode = Mode::Off;
  std::string started;     // ISO-8601 UTC
};

// Receives records as they finish. Sinks never throw; I/O failures are warnings.
class Sink {
public:
  virtual ~Sink() = default;
  // A record reached its final state. `all` holds every record so far, by
  // index (records still open among them); valid during the call only.
  virtual void on_record(const RunInfo &run, const LowerRecord &rec, const RecordList &all) = 0;
  // The session ended (normally or with an error).
  virtual void on_finish(const RunInfo &run, const RecordList &all, const std::string &error) = 0;
};

}  // namespace lowertrace
