#include "util/fs.h"

#include "util/no_xfsz.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

namespace lowertrace::util {

namespace {
std::string errstr(const std::string &what, const std::string &path) {
  return what + " " + path + ": " + std::strerror(errno);
}

}  // namespace

std::string write_fd_all(int fd, std::string_view data) {
  NoXfsz guard;  // a file-size limit is an I/O error here, never a kill
  const char *p = data.data();
  size_t left = data.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EFBIG) guard.hit();
      return std::strerror(errno);
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  return "";
}

std::string write_file(const std::string &path, std::string_view data) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return errstr("cannot open", path);
  std::string err = write_fd_all(fd, data);
  if (::close(fd) != 0 && err.empty()) err = std::strerror(errno);
  if (!err.empty()) return "cannot write " + path + ": " + err;
  return "";
}

static std::string unique_suffix() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  char suffix[48];
  std::snprintf(suffix, sizeof suffix, ".tmp%d.%016llx", static_cast<int>(::getpid()),
                static_cast<unsigned long long>(rng()));
  return suffix;
}

std::string write_temp_beside(const std::string &path, std::string_view data, std::string *tmp_out) {
  // A hidden name in the same folder (so rename() stays atomic), created
  // exclusively and never through a link: a name planted in a shared folder
  // can neither be written through nor raced.
  std::filesystem::path p(path);
  std::string tmp = (p.parent_path() / ("." + p.filename().string() + unique_suffix())).string();
  if (p.parent_path().empty()) tmp = "." + p.filename().string() + unique_suffix();
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return errstr("cannot create", tmp);
  std::string err = write_fd_all(fd, data);
  if (::close(fd) != 0 && err.empty()) err = std::strerror(errno);
  if (!err.empty()) {
    ::unlink(tmp.c_str());
    return "cannot write " + path + ": " + err;
  }
  *tmp_out = std::move(tmp);
  return "";
}

std::string create_file(const std::string &path, std::string_view data) {
  // Written under a temporary name and renamed into place: a kill or a full
  // disk leaves the file complete or absent, never cut short under its name.
  return atomic_write(path, data);
}

std::string atomic_write(const std::string &path, std::string_view data) {
  std::string tmp;
  if (std::string err = write_temp_beside(path, data, &tmp); !err.empty()) return err;
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string err = errstr("cannot rename into", path);
    ::unlink(tmp.c_str());
    return err;
  }
  return "";
}

std::string atomic_write_stream(const std::string &path, const std::function<void(const PieceWriter &)> &produce) {
  std::string tmp;
  if (std::string err = write_temp_beside(path, {}, &tmp); !err.empty()) return err;
  int fd = ::open(tmp.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
  std::string err = fd < 0 ? errstr("cannot open", tmp) : std::string();
  if (fd >= 0) {
    std::string buf;
    constexpr std::size_t kBatch = 1u << 20;
    auto flush = [&] {
      if (err.empty() && !buf.empty()) err = write_fd_all(fd, buf);
      buf.clear();
    };
    produce([&](std::string_view piece) {
      if (!err.empty()) return;
      if (buf.size() + piece.size() < kBatch) return void(buf.append(piece));
      flush();
      if (piece.size() >= kBatch) {
        if (err.empty()) err = write_fd_all(fd, piece);
      } else {
        buf.append(piece);
      }
    });
    flush();
    if (::close(fd) != 0 && err.empty()) err = errstr("cannot write", tmp);
  }
  if (err.empty() && ::rename(tmp.c_str(), path.c_str()) != 0) err = errstr("cannot rename into", path);
  if (!err.empty()) ::unlink(tmp.c_str());
  return err;
}

std::optional<std::string> read_file(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string out;
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

std::string make_dirs(const std::string &path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) return "cannot create directory " + path + ": " + ec.message();
  return "";
}

std::string make_dirs_below(const std::string &root, const std::string &path) {
  std::filesystem::path r = std::filesystem::path(root).lexically_normal();
  std::filesystem::path p = std::filesystem::path(path).lexically_normal();
  std::filesystem::path rel = p.lexically_relative(r);
  if (rel.empty() || *rel.begin() == "..") return make_dirs(path);
  if (std::string err = make_dirs(root); !err.empty()) return err;
  std::filesystem::path cur = r;
  for (const auto &part : rel) {
    if (part == ".") continue;
    cur /= part;
    if (::mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST) return errstr("cannot create directory", cur.string());
    struct stat st;
    if (::lstat(cur.c_str(), &st) != 0) return errstr("cannot stat", cur.string());
    if (S_ISLNK(st.st_mode)) return cur.string() + " is a symbolic link: not writing through it";
    if (!S_ISDIR(st.st_mode)) return cur.string() + " is not a directory";
  }
  return "";
}

std::string sanitize_component(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-';
    out.push_back(ok ? c : '_');
  }
  // "." and ".." would name this folder or its parent; a leading '.' would hide it.
  if (out.empty() || out.find_first_not_of('.') == std::string::npos) out.insert(0, "_");
  if (out.size() > 120) out.resize(120);
  return out;
}

std::string stem(std::string_view path) {
  std::filesystem::path p{std::string(path)};
  return p.stem().string();
}

}  // namespace lowertrace::util
