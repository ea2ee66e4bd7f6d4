// engine/codegen_workflow.cpp - see codegen_workflow.h for the decision table.
//
// Failure ordering: every step that could lose a user's text comes after the
// step that saves it (backups before W is overwritten), and W is written
// before O. If we die or fail between the two writes, W holds the new output
// and O the old one, which the next run resolves as SYNCED (harmless). The
// other order would leave W = old output != O, which the next run would take
// for a user edit and compile (PATCHED) - a stale source.
//
// Backup naming: "<W>.bak.<N>" and "<W>.original.bak.<N>", where N is one more
// than the highest number already used by either family. A CONFLICT writes
// both files with the same N, so `diff W.original.bak.N W.bak.N` shows the
// user's edit; numbers only grow, and a backup file is created with link(2),
// which fails instead of replacing an existing file, so nothing (not even a
// process that ignores our lock) can make us overwrite an earlier backup.
#include "engine/codegen_workflow.h"

#include "util/fs.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lowertrace::codegen {

namespace fs = std::filesystem;

namespace {

// Python's str.rstrip(): trailing ' ', \t, \n, \r, \v, \f do not count.
std::string_view rstrip(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}
bool same_text(std::string_view a, std::string_view b) { return rstrip(a) == rstrip(b); }

// Thrown only inside this file and always caught in resolve().
struct IoError {
  std::string what;
};

std::string errno_text(const std::string &what, const std::string &path) {
  return what + " " + path + ": " + std::strerror(errno);
}

// Whether a path exists at all (any file type); a failing stat other than
// "not there" is an I/O error, not absence.
bool exists(const std::string &path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0) return true;
  if (errno == ENOENT) return false;
  throw IoError{errno_text("cannot stat", path)};
}

std::string read(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) throw IoError{errno_text("cannot stat", path)};
  if (!S_ISREG(st.st_mode)) throw IoError{"cannot read " + path + ": not a regular file"};
  std::optional<std::string> text = util::read_file(path);
  if (!text) throw IoError{errno_text("cannot read", path)};
  return std::move(*text);
}

void write(const std::string &path, std::string_view data) {
  if (std::string err = util::atomic_write(path, data); !err.empty()) throw IoError{err};
}

// --- locking -------------------------------------------------------------

// One mutex per canonical path, for threads of this process. flock() would
// also exclude them (separate open()s are separate lock owners), but the mutex
// makes in-process callers queue cheaply and keeps working where flock is a
// no-op (some network file systems). Entries are never erased: a handful of
// paths per process.
std::mutex &path_mutex(const std::string &key) {
  static std::mutex registry_mu;
  // Never destroyed, so a session finished at process exit can still use it.
  static auto &registry = *new std::map<std::string, std::unique_ptr<std::mutex>>;
  std::lock_guard<std::mutex> g(registry_mu);
  auto &slot = registry[key];
  if (!slot) slot = std::make_unique<std::mutex>();
  return *slot;
}

// Exclusive flock on "<W>.lock" for other processes; released by close().
class FileLock {
public:
  explicit FileLock(const std::string &path) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw IoError{errno_text("cannot open lock file", path)};
    while (::flock(fd_, LOCK_EX) != 0) {
      if (errno == EINTR) continue;
      std::string err = errno_text("cannot lock", path);
      ::close(fd_);
      throw IoError{err};
    }
  }
  ~FileLock() { ::close(fd_); }
  FileLock(const FileLock &) = delete;
  FileLock &operator=(const FileLock &) = delete;

private:
  int fd_ = -1;
};

// --- backups -------------------------------------------------------------

// Highest N among "<name>.bak.<N>" and "<name>.original.bak.<N>" in `dir`.
unsigned long highest_backup(const fs::path &dir, const std::string &name) {
  const std::string families[] = {name + ".bak.", name + ".original.bak."};
  unsigned long best = 0;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) throw IoError{"cannot list " + dir.string() + ": " + ec.message()};
  for (const auto &entry : it) {
    std::string f = entry.path().filename().string();
    for (const std::string &prefix : families) {
      if (f.size() <= prefix.size() || f.compare(0, prefix.size(), prefix) != 0) continue;
      std::string_view num = std::string_view(f).substr(prefix.size());
      if (num.size() > 9 || !std::all_of(num.begin(), num.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
      best = std::max(best, std::stoul(std::string(num)));
    }
  }
  return best;
}

// Creates `dest` with `data`; false (and nothing written) if `dest` exists.
bool create_new(const std::string &dest, std::string_view data) {
  // Exclusively created under a random hidden name: a predictable name could
  // be a planted symlink, and writing through it would overwrite its target.
  std::string tmp;
  if (std::string err = util::write_temp_beside(dest, data, &tmp); !err.empty()) throw IoError{err};
  int rc = ::link(tmp.c_str(), dest.c_str());
  int link_errno = errno;
  ::unlink(tmp.c_str());
  if (rc == 0) return true;
  if (link_errno == EEXIST) return false;
  // No hard links here (some FUSE/vfat): fall back to O_EXCL, which still
  // never replaces a file, at the price of a possibly torn backup on a crash.
  int fd = ::open(dest.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (errno == EEXIST) return false;
    throw IoError{errno_text("cannot create backup", dest)};
  }
  std::string err = util::write_fd_all(fd, data);
  ::close(fd);
  if (!err.empty()) throw IoError{"cannot write " + dest + ": " + err};
  return true;
}

// Writes each (suffix-less base path, text) pair as "<base>.bak.<N>" with one
// shared, fresh N. Returns the paths written, in the order given.
std::vector<std::string> back_up(const std::string &w,
                                 const std::vector<std::pair<std::string, std::string>> &items) {
  fs::path wp(w);
  fs::path dir = wp.parent_path().empty() ? fs::path(".") : wp.parent_path();
  unsigned long n = highest_backup(dir, wp.filename().string());
  for (int attempt = 0; attempt < 1000; ++attempt) {
    ++n;
    std::vector<std::string> written;
    bool clash = false;
    for (const auto &[base, text] : items) {
      std::string dest = base + ".bak." + std::to_string(n);
      if (!create_new(dest, text)) {
        clash = true;  // someone outside the lock took this number; try the next
        break;
      }
      written.push_back(dest);
    }
    if (!clash) return written;
    // Keep what was written under this number: it is a valid (if unpaired)
    // backup and removing it could race with its other writer.
  }
  throw IoError{"cannot find a free backup name for " + w};
}

// --- the decision --------------------------------------------------------

void resolve_locked(const std::string &w, std::string_view gen, const std::string &prefix,
                    Outcome &out) {
  const std::string o = baseline_path(w);
  write(latest_path(w), gen);

  if (!exists(w)) {
    write(w, gen);
    write(o, gen);
    out.tag = "INIT";
    out.messages.push_back("codegen source initialized at: " + w);
    return;
  }
  std::string working = read(w);
  if (!exists(o)) {
    if (same_text(working, gen)) {
      // Nothing of the user's to save: only the baseline is missing.
      write(o, gen);
      out.tag = "INIT";
      out.messages.push_back("codegen source initialized at: " + w);
      return;
    }
    out.backups = back_up(w, {{w, working}});
    write(w, gen);
    write(o, gen);
    out.tag = "INIT-BACKUP";
    out.messages.push_back(prefix + "INIT-BACKUP \u2014 " + w + " existed without baseline, backed up to " +
                           out.backups.front());
    return;
  }
  std::string baseline = read(o);

  const bool user_edited = !same_text(working, baseline);
  const bool codegen_changed = !same_text(gen, baseline);
  if (!user_edited && !codegen_changed) return;  // silent
  if (!user_edited) {
    write(w, gen);
    write(o, gen);
    out.tag = "REGENERATED";
    out.messages.push_back(prefix + "REGENERATED (codegen changed, no user edits)");
    return;
  }
  if (!codegen_changed) {
    out.source = std::move(working);
    out.tag = "PATCHED";
    out.messages.push_back(prefix + "PATCHED (user edits)");
    return;
  }
  if (same_text(working, gen)) {
    write(o, gen);
    out.source = std::move(working);
    out.tag = "SYNCED";
    out.messages.push_back(prefix + "SYNCED (user edits and codegen changed to the same source)");
    return;
  }
  out.backups = back_up(w, {{w, working}, {o, baseline}});
  write(w, gen);
  write(o, gen);
  out.tag = "CONFLICT";
  out.messages.push_back(prefix + "CONFLICT (codegen restored; user edits saved in " + out.backups[0] +
                         ", baseline in " + out.backups[1] + ")");
  out.messages.push_back(prefix + "  to see your edits: diff " + out.backups[1] + " " + out.backups[0]);
}

std::string lock_key(const std::string &w) {
  std::error_code ec;
  fs::path abs = fs::absolute(w, ec);
  if (ec) return w;
  fs::path canon = fs::weakly_canonical(abs, ec);
  return ec ? abs.lexically_normal().string() : canon.string();
}

}  // namespace

Outcome resolve(const std::string &working_copy, std::string_view generated, std::string_view label) {
  Outcome out;
  out.source.assign(generated);
  const std::string prefix = label.empty() ? std::string() : std::string(label) + ": ";
  try {
    std::lock_guard<std::mutex> in_process(path_mutex(lock_key(working_copy)));
    fs::path parent = fs::path(working_copy).parent_path();
    if (!parent.empty())
      if (std::string err = util::make_dirs(parent.string()); !err.empty()) throw IoError{err};
    FileLock across_processes(lock_path(working_copy));
    resolve_locked(working_copy, generated, prefix, out);
  } catch (const IoError &e) {
    out = Outcome{};
    out.source.assign(generated);
    out.messages.push_back("WARNING: codegen file I/O failed: " + e.what);
  } catch (const std::exception &e) {  // bad_alloc, filesystem_error: still never fail the host
    out = Outcome{};
    out.source.assign(generated);
    out.messages.push_back(std::string("WARNING: codegen file I/O failed: ") + e.what());
  }
  return out;
}

std::string extension_for(std::string_view language) {
  std::string l;
  for (char c : language) l.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  static const std::pair<std::string_view, std::string_view> table[] = {
      {"ptx", "ptx"},        {"llvm-ir", "ll"},     {"llvm", "ll"},     {"ll", "ll"},
      {"llvmir", "ll"},      {"llir", "ll"},        {"asm", "s"},       {"assembly", "s"},
      {"s", "s"},            {"c++", "cpp"},        {"cpp", "cpp"},     {"cxx", "cpp"},
      {"cuda", "cu"},        {"cu", "cu"},          {"hip", "hip"},     {"mlir", "mlir"},
      {"c", "c"},            {"metal", "metal"},    {"wgsl", "wgsl"},   {"opencl", "cl"},
      {"cl", "cl"},          {"spirv", "spvasm"},   {"spir-v", "spvasm"}, {"mir", "mir"},
      {"tir", "tir"},        {"ttir", "ttir"},      {"ttgir", "ttgir"}, {"amdgcn", "amdgcn"},
      {"python", "py"},      {"py", "py"},          {"json", "json"},
  };
  for (const auto &[name, ext] : table)
    if (l == name) return std::string(ext);
  return "txt";
}

}  // namespace lowertrace::codegen
