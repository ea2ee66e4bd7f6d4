// report/terminal.h - the console: one line per pass, unified diffs, the closing line.
#pragma once

#include "lowertrace/sink.h"

#include <memory>
#include <string>

namespace lowertrace::report {

// "<phase>/<NNN>_<Pass>: CHANGED (+a/-d)" and friends, without the prefix.
std::string pass_line(const LowerRecord &rec, bool color);

// Prints pass lines in every mode and, in terminal/both, a coloured unified
// diff of each changed pass. All to stderr; `batched` collects output and
// writes it in large pieces (and at the end) instead of line by line.
std::shared_ptr<Sink> make_terminal_sink(Mode mode, bool batched = false);

}  // namespace lowertrace::report
