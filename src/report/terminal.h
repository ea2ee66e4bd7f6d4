// report/terminal.h - the console: one line per pass, unified diffs, the closing line.
#pragma once

#include "lowertrace/sink.h"

#include <memory>
#include <string>
#include <string_view>

namespace lowertrace::report {

// "<phase>/<NNN>_<Pass>: CHANGED (+a/-d)" and friends, without the prefix.
std::string pass_line(const LowerRecord &rec, bool color);

// `s` with control bytes shown as text ("\x1b", "\u009b"); tab and newline
// kept. Everything lowertrace prints from IR goes through it.
std::string visible(std::string_view s);

// Prints pass lines in every mode and, in terminal/both, a coloured unified
// diff of each changed pass. All to stderr; `batched` collects output and
// writes it in large pieces (and at the end) instead of line by line.
// `batch_ms` > 0: batched too, but no line waits longer than that (checked at
// each record; the compiler's own stderr stays interleaved to within it).
std::shared_ptr<Sink> make_terminal_sink(Mode mode, bool batched = false, int batch_ms = 0);

}  // namespace lowertrace::report
