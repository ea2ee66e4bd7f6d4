// report/html.h - the HTML report: one self-contained page per run.
//
// During a run the report on disk must open after every pass and show every
// completed pass, even after a SIGKILL, while the total bytes written stay
// O(final size). At the end it is one self-contained file.
#pragma once

#include "lowertrace/sink.h"

#include <memory>
#include <string>
#include <vector>

namespace lowertrace::report {

// Writes <run_dir>/report.html (and whatever side files it needs while the run
// is in progress), and points <script_dir>/report.html at it (atomic symlink
// swap, copy as fallback).
// `live`: also keep the report openable after every record (chunk files).
// `chunk_ms` > 0: records arriving within `chunk_ms` of the last chunk share
// the next one (written by the next record after the interval, or by the
// heartbeat); 0: one chunk per record.
std::shared_ptr<Sink> make_html_sink(bool live = true, int chunk_ms = 0);

// While a run's report is live its sink holds an flock on
// report_data/<kWriterLock>; see engine/stale_runs.h for who reads it.
inline constexpr const char *kWriterLock = "writer.lock";
// report_data/<kSpillFile>: payloads already written into chunks, kept out of
// memory until the final page (ReportData::spill). Only the writer reads it.
inline constexpr const char *kSpillFile = "payloads.spill";

// Writes a complete, self-contained report for `recs` to `path` in one go.
// Returns "" on success, else a one-line reason.
std::string write_html_report(const RunInfo &run, const RecordList &recs,
                              const std::string &path);

}  // namespace lowertrace::report
