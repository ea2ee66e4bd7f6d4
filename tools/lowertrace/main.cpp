// lowertrace: the command-line front door. Subcommands register themselves
// (see command.h); this file only dispatches, and answers --help/--version.
#include "command.h"
#include "manual.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace lowertrace::cli {
static std::vector<Command> &registry() {
  static std::vector<Command> r;
  return r;
}
void register_command(const Command &c) { registry().push_back(c); }
}  // namespace lowertrace::cli

static std::vector<lowertrace::cli::Command> sorted_commands() {
  auto cmds = lowertrace::cli::registry();
  std::sort(cmds.begin(), cmds.end(),
            [](const auto &a, const auto &b) { return std::strcmp(a.name, b.name) < 0; });
  return cmds;
}

// The COMMANDS section of the manual comes from the registry, so a new
// command is listed without editing the page.
static std::string command_list() {
  std::string s;
  for (const auto &c : sorted_commands()) {
    char line[256];
    std::snprintf(line, sizeof line, "    %-12s %s\n", c.name, c.summary);
    s += line;
  }
  return s;
}

static void short_usage(FILE *out) {
  std::fprintf(out, "usage: lowertrace <command> [args...]\n\ncommands:\n%s\n"
                    "`lowertrace --help` is the manual; `lowertrace <command> --help` describes one command.\n",
               command_list().c_str());
}

static const lowertrace::cli::Command *find(const char *name) {
  for (const auto &c : lowertrace::cli::registry())
    if (!std::strcmp(c.name, name)) return &c;
  return nullptr;
}

int main(int argc, char **argv) {
  using namespace lowertrace::cli;
  if (argc < 2) {
    short_usage(stderr);
    return 2;
  }
  std::string_view a1 = argv[1];
  if (a1 == "--help" || a1 == "-h" || (a1 == "help" && argc == 2)) {
    print_manual("", command_list(), stdout);
    return 0;
  }
  if (a1 == "--version" || a1 == "-V") {
    print_version("lowertrace", stdout);
    return 0;
  }
  if (a1 == "help") {
    const Command *c = find(argv[2]);
    if (!c) {
      std::fprintf(stderr, "lowertrace: unknown command '%s' (see lowertrace --help)\n", argv[2]);
      return 2;
    }
    if (print_manual(c->name, {}, stdout)) return 0;
    char *args[] = {argv[2], const_cast<char *>("--help"), nullptr};
    return c->run(2, args);  // a command without a page answers its own --help
  }
  if (const Command *c = find(argv[1])) {
    // `<command> --help` gets the page, before the command parses anything
    // (the commands' own --help branches print the same page).
    if (argc == 3 && (!std::strcmp(argv[2], "--help") || !std::strcmp(argv[2], "-h")) &&
        print_manual(c->name, {}, stdout))
      return 0;
    return c->run(argc - 1, argv + 1);
  }
  std::fprintf(stderr, "lowertrace: unknown command '%s' (see lowertrace --help)\n", argv[1]);
  return 2;
}
