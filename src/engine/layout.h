// engine/layout.h - where a run lives on disk.
//
//   <trace_dir>/<script>/report.html               -> latest run's report (symlink)
//   <trace_dir>/<script>/.run_records/<run_id>/trace.json
//   <trace_dir>/<script>/.run_records/<run_id>/<phase>/<NNN>_<Pass>_{before,after}.<ext>
//
// File indices are zero-padded to 6 digits so that files sort in record order
// up to 999,999 records (clang -O2 on one C++ file makes 60,000); phase and
// pass names are sanitised so that "." and ".." cannot escape the run folder.
// Identical snapshots are hard-linked, so each distinct IR text is on disk once.
#pragma once

#include "lowertrace/sink.h"

#include <memory>
#include <string>

namespace lowertrace::layout {

// run_<YYYYmmdd_HHMMSS_ffffff>_<pid>_<8 hex>
std::string make_run_id();
std::string now_iso8601();

// "007", "123", "1234": the index as the terminal shows it.
std::string pad_index(int index);

// "000007", "001234": the index in raw file names.
std::string file_index(int index);

// The trace folder a <script> folder lives in: below it, no link is followed.
std::string trace_root(const std::string &script_dir);

// "<NNNNNN>_<Pass>_before.mlir" (codegen: "<NNNNNN>_codegen_after.ptx")
std::string raw_file_name(const LowerRecord &rec, bool after);

// Relative to the run folder: "<phase>/<file>".
std::string raw_file_path(const LowerRecord &rec, bool after);

// Raw before/after files for every record, and trace.json at the end.
// `per_text`: the session gives each distinct text one file
// (SessionOptions::raw_file_per_text), so no text is written twice and none
// is linked: the sink need not remember where each text went.
std::shared_ptr<Sink> make_layout_sink(bool per_text = false);

}  // namespace lowertrace::layout
