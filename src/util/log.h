// util/log.h - lowertrace's own stderr lines. Never stdout: that belongs to the tool.
#pragma once

#include <string_view>

namespace lowertrace::util {

inline constexpr std::string_view kPrefix = "  [lower_trace] ";

// Whether to colour stderr: NO_COLOR turns it off, FORCE_COLOR forces it,
// otherwise only when stderr is a terminal.
bool stderr_color();

// Writes text to stderr as is, in one write (the caller formats the lines).
void emit(std::string_view text);
// Writes kPrefix + line + '\n' to stderr in one write.
void info(std::string_view line);
// kPrefix + "WARNING: " + line, red when colour is on.
void warn(std::string_view line);

}  // namespace lowertrace::util
