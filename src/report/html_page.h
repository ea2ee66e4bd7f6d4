// report/html_page.h - assembles report pages from the embedded viewer (web/).
//
// Two kinds of page share one template:
//  - the live shell, written once when a run's first record arrives: the viewer
//    plus run metadata; it loads report_data/NNNNNN.js chunk files itself, in
//    order, until one is missing, so it never has to be rewritten;
//  - the final page: the viewer plus every record and snapshot inline, in
//    non-executable data blocks (<script type="application/json"/"text/plain">).
// The only executable inline script is the viewer, allowed by its SHA-256 in
// the Content-Security-Policy.
#pragma once

#include "lowertrace/sink.h"
#include "report/html_data.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace lowertrace::report::page {

nlohmann::json run_json(const RunInfo &run);

// The live shell. `chunk_dirs`: where the chunk files may be, relative to the
// page (the run folder, and the script folder that holds the symlink or copy).
// `beat_ms`: how often the writer rewrites report_data/beat.js (see heartbeat.h).
std::string live_shell(const RunInfo &run, const std::vector<std::string> &chunk_dirs,
                       int beat_ms = 0);

// One chunk file: the records and the snapshots they introduced.
// `recs`: each record's ReportData::record_text.
std::string chunk_js(const std::vector<std::string> &recs, const ReportData &data,
                     const std::vector<int> &fresh_keys);

// The self-contained final page for `recs` (refs their snapshots in `data`).
// It embeds the source lines the IR's locations name (source_lines.h).
// `extra`: more metadata keys for the viewer, e.g. "open" (the pass to open
// when the link names none) and "labels" (names of the two sides of a diff).
std::string final_page(const RunInfo &run, const RecordList &recs,
                       ReportData &data, const std::string &error,
                       const nlohmann::json &extra = nlohmann::json::object());
// The same page handed to `emit` piece by piece (util::atomic_write_stream),
// never whole in memory: for tens of megabytes of report at a compiler's exit.
void final_page_to(const RunInfo &run, const RecordList &recs, ReportData &data,
                   const std::string &error, const nlohmann::json &extra,
                   const std::function<void(std::string_view)> &emit);

}  // namespace lowertrace::report::page
