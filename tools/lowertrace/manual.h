// Manual pages and --version for the `lowertrace` command (manual.cpp).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace lowertrace::cli {

// Prints the page of `command` ("" = lowertrace itself, whose COMMANDS
// section is `commands`); false when the command has no page.
bool print_manual(std::string_view command, const std::string &commands, FILE *out);
// Prints the manual of a subcommand to stdout: for its own --help branch.
inline int print_command_manual(std::string_view command) {
  return print_manual(command, {}, stdout) ? 0 : 1;
}
void print_version(const char *tool, FILE *out);

}  // namespace lowertrace::cli
