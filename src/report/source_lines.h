// report/source_lines.h - the source lines an IR's locations point at, so a
// self-contained report can show them.
//
// Locations: MLIR loc("file":line:col) (aliases #locN = loc(...) included),
// LLVM !DILocation(line: L, scope: !S) resolved through scopes to a
// !DIFile(filename:, directory:), PTX .loc F L C with .file F "name". A file
// is read if it is readable when the report is written: as written, then
// relative to the DIFile directory or `base_dir`. Bounded: at most kMaxLines
// lines in all and kMaxLineBytes per line; files over kMaxFileBytes are skipped.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace lowertrace::report {

inline constexpr size_t kMaxSourceLines = 4000;
inline constexpr size_t kMaxSourceLineBytes = 400;
inline constexpr size_t kMaxSourceFileBytes = 32u << 20;

// {"<file as written in the IR>": {"<line>": "<text>", ...}, ...}; {} if none.
nlohmann::json source_lines(const std::vector<std::string_view> &texts,
                            const std::string &base_dir);

}  // namespace lowertrace::report
