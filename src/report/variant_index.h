// report/variant_index.h - <trace_dir>/<kernel>/index.html: every compiled
// variant of one kernel, what tells them apart, and a link to each run.
//
// A kernel compiled with other constexprs, dtypes, num_warps/num_stages or an
// autotune config is another variant with a run of its own. Variants arrive
// one by one, possibly from several processes at once (inductor's compile
// workers), so each is kept as <kernel>/.variants/<variant>.json (atomic
// write) and the index is rebuilt from all of them under a file lock.
#pragma once

#include <string>

namespace lowertrace::report {

// Records (or replaces) `variant`'s facts (a JSON object: kernel, variant,
// describe{...}, run_id, working_copy, records, error, edited) and rewrites the
// index. Returns the index path, or "" after an I/O failure (a warning).
std::string record_variant(const std::string &script_dir, const std::string &variant, const std::string &json);

}  // namespace lowertrace::report
