// util/fs.h - file helpers whose failures are values, never exceptions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lowertrace::util {

// Writes `data` to a temporary file beside `path` and renames it into place,
// so readers see the old or the new content, never a torn file.
// Returns "" on success, else a one-line reason.
std::string atomic_write(const std::string &path, std::string_view data);

// Plain (non-atomic) write; "" on success.
std::string write_file(const std::string &path, std::string_view data);

// Like write_file, but an existing `path` is replaced by a new file rather
// than truncated, so that data is never written through a hard link. Costs
// nothing extra when `path` does not exist yet (the usual case).
std::string create_file(const std::string &path, std::string_view data);

std::optional<std::string> read_file(const std::string &path);

// mkdir -p; "" on success.
std::string make_dirs(const std::string &path);

// A single path component safe to use on disk: characters outside
// [A-Za-z0-9._-] become '_', and "", "." and ".." become "_", "_." and "_..".
std::string sanitize_component(std::string_view name);

// Last path component without its extension ("x/y/foo.mlir" -> "foo").
std::string stem(std::string_view path);

}  // namespace lowertrace::util
