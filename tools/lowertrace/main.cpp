// lowertrace: the command-line front door. Subcommands register themselves
// (see command.h); this file only dispatches.
#include "command.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace lowertrace::cli {
static std::vector<Command> &registry() {
  static std::vector<Command> r;
  return r;
}
void register_command(const Command &c) { registry().push_back(c); }
}  // namespace lowertrace::cli

static void usage(FILE *out) {
  auto cmds = lowertrace::cli::registry();
  std::sort(cmds.begin(), cmds.end(),
            [](const auto &a, const auto &b) { return std::strcmp(a.name, b.name) < 0; });
  std::fprintf(out, "usage: lowertrace <command> [args...]\n\ncommands:\n");
  for (const auto &c : cmds) std::fprintf(out, "  %-10s %s\n", c.name, c.summary);
  std::fprintf(out, "\n`lowertrace <command> --help` describes one command.\n");
}

int main(int argc, char **argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  for (const auto &c : lowertrace::cli::registry())
    if (!std::strcmp(c.name, argv[1])) return c.run(argc - 1, argv + 1);
  std::fprintf(stderr, "lowertrace: unknown command '%s' (see lowertrace --help)\n", argv[1]);
  return 2;
}
