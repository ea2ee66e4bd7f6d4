// The `lowertrace` command's subcommands register themselves here, so each
// lives in its own file (cmd_<name>.cpp) and main.cpp lists none of them.
#pragma once

namespace lowertrace::cli {

struct Command {
  const char *name;
  const char *summary;
  int (*run)(int argc, char **argv);  // argv[0] is the subcommand name
};

void register_command(const Command &c);

struct Registrar {
  explicit Registrar(const Command &c) { register_command(c); }
};

}  // namespace lowertrace::cli

#define LOWERTRACE_COMMAND(ident, name, summary, fn)                                     \
  static ::lowertrace::cli::Registrar lt_cmd_registrar_##ident{                          \
      ::lowertrace::cli::Command{name, summary, fn}}
