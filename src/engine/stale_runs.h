// engine/stale_runs.h - runs whose writer died are finished by the next one.
//
// A SIGKILLed compiler (or one whose crash nothing could handle) leaves its
// run folder live: chunk files in report_data/, no trace.json, no final
// report. While a run's report is live its writer holds an flock on
// report_data/writer.lock (the kernel drops it when the process dies, however
// it dies). When a session starts in a <script> folder, it finishes every run
// there whose report is live but whose lock is free: trace.json (error
// "killed: ...") and the final report, built from the chunk files' records
// and the raw files on disk; report_data/ goes. The page then reads as ended.
#pragma once

#include <string>

namespace lowertrace::stale_runs {

// Finishes the stale runs under <script_dir>/.run_records. Returns how many.
// Failures are one warning each; a run it cannot read is left as it is.
int finish_stale(const std::string &script_dir);

}  // namespace lowertrace::stale_runs
