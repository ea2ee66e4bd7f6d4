// engine_consumer <a> <b>: a front end of its own, built with only
// `pkg-config --cflags --libs lowertrace` (no LLVM/MLIR). It records one
// "pass" turning file a into file b and prints the unified diff; tracing
// (TL_LOWER_TRACE) must add the trace files and change nothing on stdout.
#include <lowertrace/diff.h>
#include <lowertrace/session.h>
#include <lowertrace/version.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

static std::string slurp(const char *path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: engine_consumer <a> <b>  (lowertrace %s)\n",
                 LOWERTRACE_VERSION_STRING);
    return 2;
  }
  std::string a = slurp(argv[1]), b = slurp(argv[2]);
  {
    lowertrace::SessionOptions so;
    so.script = "engine_consumer";
    so.tool = "engine_consumer";
    lowertrace::Session session(so);
    if (session.enabled()) {
      int i = session.begin_pass("a-to-b", session.intern(a));
      session.end_pass(i, session.intern(b), 1.0);
    }
  }
  lowertrace::diff::UnifiedOptions uo;
  std::cout << lowertrace::diff::unified(a, b, uo);
  return 0;
}
