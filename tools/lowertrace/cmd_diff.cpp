// `lowertrace diff <a> <b> [-U N] [--stat]`: the diff engine on two files,
// with diff(1)'s exit codes (0 same, 1 different, 2 trouble), so scripts can
// use it in place of `diff -u`.
#include "command.h"
#include "manual.h"
#include "lowertrace/diff.h"
#include "util/log.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <unistd.h>

namespace {

constexpr const char *kUsage =
    "usage: lowertrace diff <a> <b> [-U N] [--stat] [--color[=WHEN]] [--label L]...\n"
    "\n"
    "Prints a git-style unified diff of two files (\"-\" reads stdin).\n"
    "  -U N, --unified=N   N lines of context (default 3)\n"
    "  --stat              print only 'N insertions(+), M deletions(-)', plus how\n"
    "                      many changed line pairs only renumber SSA values,\n"
    "                      blocks or attribute aliases (%5->%6, ^bb1, #loc3)\n"
    "  --color[=WHEN]      always, never or auto (default: auto = stdout is a\n"
    "                      terminal and NO_COLOR is unset); --no-color = never\n"
    "  --label L           label for the ---/+++ lines (give twice: a, then b)\n"
    "Exit status: 0 same, 1 different, 2 trouble.\n";

int fail(const std::string &msg) {
  lowertrace::util::info("diff: " + msg);
  return 2;
}

// The whole file, or an error line.
std::optional<std::string> slurp(const std::string &path, std::string &err) {
  FILE *f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (!f) {
    err = "cannot open '" + path + "': " + std::strerror(errno);
    return std::nullopt;
  }
  std::string out;
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  bool bad = std::ferror(f);
  int e = errno;
  if (f != stdin) std::fclose(f);
  if (bad) {
    err = "cannot read '" + path + "': " + std::strerror(e);
    return std::nullopt;
  }
  return out;
}

std::optional<int> parse_count(const char *s) {
  char *end = nullptr;
  errno = 0;
  long v = std::strtol(s, &end, 10);
  if (!*s || *end || errno || v < 0 || v > 1000000) return std::nullopt;
  return static_cast<int>(v);
}

std::string plural(int n, const char *one, const char *many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

int run_diff(int argc, char **argv) {
  std::vector<std::string> files, labels;
  lowertrace::diff::UnifiedOptions opt;
  bool stat = false;
  std::string color = "auto";
  for (int k = 1; k < argc; ++k) {
    std::string a = argv[k];
    auto value = [&](const char *flag) -> std::optional<std::string> {
      if (k + 1 >= argc) return std::nullopt;
      (void)flag;
      return std::string(argv[++k]);
    };
    if (a == "-h" || a == "--help") {
      return lowertrace::cli::print_command_manual("diff");
    } else if (a == "--stat") {
      stat = true;
    } else if (a == "-u") {
      // diff -u compatibility: unified is the only format.
    } else if (a == "-U" || a == "--unified" || a.rfind("-U", 0) == 0 || a.rfind("--unified=", 0) == 0) {
      std::optional<std::string> v;
      if (a == "-U" || a == "--unified") v = value("-U");
      else v = a.substr(a[1] == 'U' ? 2 : 10);
      std::optional<int> n = v ? parse_count(v->c_str()) : std::nullopt;
      if (!n) return fail("-U needs a context line count (0 or more), got '" + v.value_or("") + "'");
      opt.context = *n;
    } else if (a == "--color" || a.rfind("--color=", 0) == 0) {
      color = a == "--color" ? "always" : a.substr(8);
      if (color != "always" && color != "never" && color != "auto")
        return fail("--color takes always, never or auto, got '" + color + "'");
    } else if (a == "--no-color") {
      color = "never";
    } else if (a == "--label") {
      auto v = value("--label");
      if (!v) return fail("--label needs a value");
      labels.push_back(*v);
    } else if (a.size() > 1 && a[0] == '-' && a != "-") {
      return fail("unknown option '" + a + "' (see lowertrace diff --help)");
    } else {
      files.push_back(a);
    }
  }
  if (files.size() != 2) return fail("expected two files, got " + std::to_string(files.size()) +
                                     " (usage: lowertrace diff <a> <b> [-U N] [--stat])");
  if (labels.size() > 2) return fail("--label given more than twice");
  std::string err;
  auto before = slurp(files[0], err);
  if (!before) return fail(err);
  auto after = slurp(files[1], err);
  if (!after) return fail(err);
  if (*before == *after) return 0;

  if (stat) {
    lowertrace::diff::ChangeSummary c = lowertrace::diff::classify(*before, *after);
    std::string line = plural(c.stats.add_lines, "insertion(+)", "insertions(+)") + ", " +
                       plural(c.stats.del_lines, "deletion(-)", "deletions(-)");
    if (c.renumbered) line += "; " + plural(c.renumbered, "changed line pair", "changed line pairs") +
                              " only renumber SSA/alias names";
    if (c.stats.only_final_newline) line += "; only the final newline differs";
    std::printf("%s\n", line.c_str());
    return 1;
  }
  opt.label_a = labels.size() > 0 ? labels[0] : files[0];
  opt.label_b = labels.size() > 1 ? labels[1] : files[1];
  opt.color = color == "always" || (color == "auto" && isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR"));
  std::string out = lowertrace::diff::unified(*before, *after, opt);
  if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size() || std::fflush(stdout) != 0)
    return fail(std::string("cannot write the diff: ") + std::strerror(errno));
  return 1;
}

}  // namespace

LOWERTRACE_COMMAND(diff, "diff", "unified diff of two files (histogram diff; -U N, --stat)", run_diff);
