// util/fs.h - file helpers whose failures are values, never exceptions.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace lowertrace::util {

// Writes `data` to a temporary file beside `path` and renames it into place,
// so readers see the old or the new content, never a torn file. The
// temporary is hidden (".<name>.tmp<pid>.<random>"), created with O_EXCL and
// O_NOFOLLOW, and removed on failure.
// Returns "" on success, else a one-line reason.
std::string atomic_write(const std::string &path, std::string_view data);

// atomic_write of what `produce` hands its writer, piece by piece: for
// documents too large to build in memory first (trace.json, the final
// report). Small pieces are gathered into writes of about 1 MB.
using PieceWriter = std::function<void(std::string_view)>;
std::string atomic_write_stream(const std::string &path, const std::function<void(const PieceWriter &)> &produce);

// Writes all of `data` to `fd` (retrying short writes and EINTR); "" or the error.
std::string write_fd_all(int fd, std::string_view data);

// Plain (non-atomic) write; "" on success.
std::string write_file(const std::string &path, std::string_view data);

// Like write_file, but atomic (see atomic_write): an existing `path` is
// replaced by a new file rather than truncated, so data is never written
// through a hard link or a symlink, and a kill leaves it whole or absent.
std::string create_file(const std::string &path, std::string_view data);

// A hidden temporary beside `path` holding `data` (see atomic_write); its
// name goes to *tmp. The caller renames or links it into place.
std::string write_temp_beside(const std::string &path, std::string_view data, std::string *tmp);

std::optional<std::string> read_file(const std::string &path);

// mkdir -p; "" on success.
std::string make_dirs(const std::string &path);

// mkdir -p of `path` inside `root` (created with make_dirs), refusing any
// component below `root` that is a symbolic link: in a shared trace folder a
// link planted by someone else must never be written through. A `path` not
// under `root` is plain make_dirs.
std::string make_dirs_below(const std::string &root, const std::string &path);

// A single path component safe to use on disk: characters outside
// [A-Za-z0-9._-] become '_', and "", "." and ".." become "_", "_." and "_..".
std::string sanitize_component(std::string_view name);

// Last path component without its extension ("x/y/foo.mlir" -> "foo").
std::string stem(std::string_view path);

}  // namespace lowertrace::util
