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

#include "lowertrace/record.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <set>
#include <unordered_set>

#include <string>
#include <string_view>
#include <vector>

namespace lowertrace::report {

inline constexpr size_t kMaxSourceLines = 4000;
inline constexpr size_t kMaxSourceLineBytes = 400;
inline constexpr size_t kMaxSourceFileBytes = 32u << 20;

// (file as written, DIFile directory) -> wanted line numbers.
using Wanted = std::map<std::pair<std::string, std::string>, std::set<int>>;

// Collects the locations of texts as they go by (a session that releases its
// texts, an import, has them only while each record is delivered).
class SourceRefs {
public:
  void add(const Snapshot &snap);  // each distinct snapshot scanned once
  void add_text(std::string_view text);
  // {"<file as written in the IR>": {"<line>": "<text>", ...}, ...}; {} if none.
  nlohmann::json lines(const std::string &base_dir) const;

private:
  Wanted want_;
  std::unordered_set<std::string> seen_;  // MLIR loc pieces met before
  std::unordered_set<std::uint32_t> scanned_;
};

// {"<file as written in the IR>": {"<line>": "<text>", ...}, ...}; {} if none.
nlohmann::json source_lines(const std::vector<std::string_view> &texts,
                            const std::string &base_dir);

}  // namespace lowertrace::report
