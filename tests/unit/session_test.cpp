// Session: numbering, nesting, phases, failures, snapshots, layout on disk.
#include "lowertrace/session.h"
#include "engine/layout.h"
#include "report/terminal.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <csignal>
#include <regex>
#include <fcntl.h>
#include <filesystem>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

using namespace lowertrace;
namespace fs = std::filesystem;
using lt_test::slurp;
using lt_test::StderrCapture;
using lt_test::TempDir;

namespace {
Config cfg_for(const std::string &dir, Mode m = Mode::Terminal) {
  Config c;
  c.mode = m;
  c.trace_dir = dir;
  return c;
}

nlohmann::json trace_of(const Session &s) {
  return nlohmann::json::parse(slurp(s.run().run_dir + "/trace.json"));
}
}  // namespace

TEST(Session, DisabledSessionRecordsNothingAndWritesNothing) {
  TempDir dir;
  Session s(SessionOptions{.script = "k"}, cfg_for(dir.path(), Mode::Off));
  EXPECT_EQ(s.begin_pass("p", s.intern(std::string("x"))), -1);
  s.finish();
  EXPECT_EQ(s.record_count(), 0u);
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(Session, NestingGivesDepthParentAndParentsFirstOrder) {
  TempDir dir;
  Session s(SessionOptions{.script = "k", .install_default_sinks = false}, cfg_for(dir.path()));
  auto a = s.intern(std::string("a\n")), b = s.intern(std::string("b\n"));
  int outer = s.begin_pass("outer", a);
  int inner1 = s.begin_pass("inner1", a);
  s.end_pass(inner1, b);
  int inner2 = s.begin_pass("inner2", b);
  int innermost = s.begin_pass("innermost", b);
  s.end_pass(innermost, b);
  s.end_pass(inner2, b);
  s.end_pass(outer, b);
  auto recs = s.records();
  ASSERT_EQ(recs.size(), 4u);
  for (size_t i = 0; i < recs.size(); ++i) EXPECT_EQ(recs[i].index, static_cast<int>(i));
  EXPECT_EQ(recs[0].depth, 0);
  EXPECT_EQ(recs[0].parent_index, -1);
  EXPECT_EQ(recs[1].parent_index, outer);
  EXPECT_EQ(recs[2].parent_index, outer);
  EXPECT_EQ(recs[3].parent_index, inner2);
  EXPECT_EQ(recs[3].depth, 2);
  EXPECT_TRUE(recs[0].changed);
  EXPECT_FALSE(recs[3].changed);
}

TEST(Session, SnapshotsAreSharedBetweenConsecutivePasses) {
  TempDir dir;
  Session s(SessionOptions{.script = "k", .install_default_sinks = false}, cfg_for(dir.path()));
  int p0 = s.begin_pass("p0", s.intern(std::string("one\n")));
  s.end_pass(p0, s.intern(std::string("two\n")));
  int p1 = s.begin_pass("p1", s.intern(std::string("two\n")));
  s.end_pass(p1, s.intern(std::string("two\n")));
  auto recs = s.records();
  EXPECT_EQ(recs[0].after.get(), recs[1].before.get()) << "one copy of an identical text";
  EXPECT_EQ(recs[1].before.get(), recs[1].after.get());
  EXPECT_FALSE(recs[1].changed);
  EXPECT_EQ(recs[0].add_lines, 1);
  EXPECT_EQ(recs[0].del_lines, 1);
}

TEST(Session, FailureMarksThePassAndItsUnfinishedAncestors) {
  TempDir dir;
  Session s(SessionOptions{.script = "k", .install_default_sinks = false}, cfg_for(dir.path()));
  auto a = s.intern(std::string("a\n"));
  int top = s.begin_pass("top", a);
  int done = s.begin_pass("done", a);
  s.end_pass(done, a);
  int mid = s.begin_pass("mid", a);
  int leaf = s.begin_pass("leaf", a);
  s.fail_pass(leaf, "error: boom");
  s.fail_pass(mid, "later, less precise");  // already failed: ignored
  int after = s.begin_pass("next", a);
  s.end_pass(after, a);
  auto recs = s.records();
  EXPECT_EQ(recs[top].status, STATUS_FAILED);
  EXPECT_EQ(recs[mid].status, STATUS_FAILED);
  EXPECT_EQ(recs[leaf].status, STATUS_FAILED);
  EXPECT_EQ(recs[leaf].error_msg, "error: boom");
  EXPECT_EQ(recs[top].error_msg, "error: boom");
  EXPECT_EQ(recs[done].status, STATUS_COMPLETED) << "finished children stay completed";
  EXPECT_EQ(recs[after].depth, 0) << "the stack is empty after the failure";
  EXPECT_EQ(recs[leaf].after, nullptr);
  EXPECT_EQ(recs[leaf].before_text(), "a\n") << "the IR before the failing pass is kept";
}

TEST(Session, FailWithoutAncestorsLeavesTheParentOpen) {
  TempDir dir;
  Session s(SessionOptions{.script = "k", .install_default_sinks = false}, cfg_for(dir.path()));
  auto a = s.intern(std::string("a\n"));
  int top = s.begin_pass("top", a);
  int leaf = s.begin_pass("leaf", a);
  s.fail_pass(leaf, "nested failure", -1, /*ancestors=*/false);
  int sibling = s.begin_pass("sibling", a);
  s.end_pass(sibling, a);
  s.fail_pass(top, "top failure");
  auto recs = s.records();
  EXPECT_EQ(recs[sibling].parent_index, top);
  EXPECT_EQ(recs[top].error_msg, "top failure");
  EXPECT_EQ(recs[leaf].error_msg, "nested failure");
}

TEST(Session, FinishFailsPassesStillOpen) {
  TempDir dir;
  Session s(SessionOptions{.script = "k", .install_default_sinks = false}, cfg_for(dir.path()));
  int p = s.begin_pass("p", s.intern(std::string("a")));
  s.finish();
  EXPECT_EQ(s.records()[p].status, STATUS_FAILED);
  EXPECT_EQ(s.records()[p].error_msg, "pass did not complete");
}

TEST(Session, RepeatedPhaseLabelsGetRunPrefixes) {
  TempDir dir;
  Session s(SessionOptions{.script = "k", .install_default_sinks = false}, cfg_for(dir.path()));
  auto a = s.intern(std::string("a"));
  int u = s.begin_pass("u", a);
  s.end_pass(u, a);
  {
    auto scope = s.phase("pipeline");
    int p = s.begin_pass("p", a);
    s.end_pass(p, a);
  }
  {
    auto scope = s.phase("pipeline");
    int p = s.begin_pass("p", a);
    EXPECT_EQ(s.current_phase(), "run2_pipeline");
    s.end_pass(p, a);
  }
  auto recs = s.records();
  EXPECT_EQ(recs[0].phase, "unscoped");
  EXPECT_EQ(recs[1].phase, "pipeline");
  EXPECT_EQ(recs[2].phase, "run2_pipeline");
  EXPECT_EQ(s.current_phase(), "unscoped");
}

TEST(Session, NestedPassesKeepTheirParentsPhase) {
  TempDir dir;
  Session s(SessionOptions{.script = "k", .install_default_sinks = false}, cfg_for(dir.path()));
  auto a = s.intern(std::string("a"));
  auto scope = std::make_unique<Session::PhaseScope>(s.phase("outer"));
  int top = s.begin_pass("top", a);
  scope.reset();
  int child = s.begin_pass("child", a);
  s.end_pass(child, a);
  s.end_pass(top, a);
  EXPECT_EQ(s.records()[child].phase, "outer");
}

TEST(Layout, RawFileNamesSortInRecordOrderPastAThousand) {
  LowerRecord r;
  r.phase = "pipeline";
  r.name = "canonicalize";
  r.ir_lang = "mlir";
  r.index = 7;
  EXPECT_EQ(layout::raw_file_name(r, false), "000007_canonicalize_before.mlir");
  // With 3-digit padding "1000_" sorted before "099_" (clang -O2 on one file
  // already makes 1,208 records; an LLVM import 15,055).
  std::vector<std::string> names;
  for (int i : {5, 99, 999, 1000, 15055, 60356, 999999}) {
    r.index = i;
    names.push_back(layout::raw_file_name(r, true));
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end())) << names[2] << " " << names[3];
  EXPECT_EQ(names[3], "001000_canonicalize_after.mlir");
  EXPECT_EQ(layout::pad_index(7), "007");  // the terminal keeps the short form
}

TEST(Layout, PhaseAndPassNamesCannotEscapeTheRunFolder) {
  LowerRecord r;
  r.ir_lang = "mlir";
  for (const char *bad : {"..", ".", "../../etc", "a/b", ""}) {
    r.phase = bad;
    r.name = bad;
    std::string rel = layout::raw_file_path(r, false);
    fs::path p(rel);
    for (const auto &part : p) {
      EXPECT_NE(part.string(), "..") << rel;
      EXPECT_NE(part.string(), ".") << rel;
    }
    EXPECT_EQ(std::count(rel.begin(), rel.end(), '/'), 1) << rel;
  }
}

TEST(Layout, RunIdHasTheOriginalShape) {
  std::string id = layout::make_run_id();
  // run_YYYYmmdd_HHMMSS_ffffff_<pid>_<8 hex>
  std::regex re("run_\\d{8}_\\d{6}_\\d{6}_\\d+_[0-9a-f]{8}");
  EXPECT_TRUE(std::regex_match(id, re)) << id;
}

TEST(Layout, TerminalModeWritesRawFilesAndTraceJsonButNoHtml) {
  TempDir dir;
  std::string run_dir;
  {
    Session s(SessionOptions{.script = "demo"}, cfg_for(dir.path(), Mode::Terminal));
    StderrCapture cap;
    for (int i = 0; i < 120; ++i) {
      int p = s.begin_pass("pass", s.intern("ir " + std::to_string(i / 2) + "\n"));
      s.end_pass(p, s.intern("ir " + std::to_string((i + 1) / 2) + "\n"));
    }
    s.finish();
    cap.finish();
    run_dir = s.run().run_dir;
  }
  EXPECT_TRUE(fs::exists(run_dir + "/unscoped/000000_pass_before.mlir"));
  EXPECT_TRUE(fs::exists(run_dir + "/unscoped/000119_pass_after.mlir"));
  EXPECT_EQ(slurp(run_dir + "/unscoped/000005_pass_after.mlir"), "ir 3\n");
  EXPECT_TRUE(fs::exists(run_dir + "/trace.json"));
  EXPECT_FALSE(fs::exists(dir / "demo/report.html"));
  for (auto &e : fs::recursive_directory_iterator(dir.path()))
    EXPECT_NE(e.path().extension(), ".html") << e.path();
  // Files sort in pass order: 100_ after 099_.
  std::vector<std::string> names;
  for (auto &e : fs::directory_iterator(run_dir + "/unscoped")) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names.front(), "000000_pass_after.mlir");
  EXPECT_EQ(names.back(), "000119_pass_before.mlir");
}

// A <script> folder that is a symlink (to /etc, say) is never written
// through: the run warns and leaves the link's target untouched.
TEST(Layout, ASymlinkedScriptFolderIsNotFollowed) {
  TempDir dir;
  fs::create_directories(dir / "victim");
  fs::create_directories(dir / "trace");
  fs::create_symlink(dir / "victim", dir / "trace/demo");
  StderrCapture cap;
  {
    Session s(SessionOptions{.script = "demo"}, cfg_for(dir / "trace", Mode::Both));
    int p = s.begin_pass("pass", s.intern(std::string("a\n")));
    s.end_pass(p, s.intern(std::string("b\n")));
    s.finish();
  }
  std::string err = cap.finish();
  EXPECT_TRUE(fs::is_empty(dir / "victim")) << err;
  EXPECT_NE(err.find("symbolic link"), std::string::npos) << err;
}

TEST(Layout, IdenticalSnapshotsAreOneFileOnDisk) {
  TempDir dir;
  Session s(SessionOptions{.script = "k"}, cfg_for(dir.path()));
  StderrCapture cap;
  int p0 = s.begin_pass("a", s.intern(std::string("x\n")));
  s.end_pass(p0, s.intern(std::string("y\n")));
  int p1 = s.begin_pass("b", s.intern(std::string("y\n")));
  s.end_pass(p1, s.intern(std::string("y\n")));
  s.finish();
  cap.finish();
  struct stat s1, s2;
  ASSERT_EQ(::stat((s.run().run_dir + "/unscoped/000000_a_after.mlir").c_str(), &s1), 0);
  ASSERT_EQ(::stat((s.run().run_dir + "/unscoped/000001_b_before.mlir").c_str(), &s2), 0);
  EXPECT_EQ(s1.st_ino, s2.st_ino);
}

TEST(Layout, TraceJsonUsesTheRecordFieldNames) {
  TempDir dir;
  Session s(SessionOptions{.script = "k", .input = "in.mlir", .tool = "test"}, cfg_for(dir.path()));
  StderrCapture cap;
  int p = s.begin_pass("canonicalize", s.intern(std::string("a\nb\n")));
  s.end_pass(p, s.intern(std::string("a\nc\n")));
  int f = s.begin_pass("bad", s.intern(std::string("a\nc\n")));
  s.fail_pass(f, "error: nope");
  s.finish();
  cap.finish();
  auto j = trace_of(s);
  EXPECT_EQ(j["format"], "lowertrace-trace");
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["input"], "in.mlir");
  auto &r0 = j["records"][0];
  for (const char *k : {"phase", "name", "index", "before_text", "after_text", "changed",
                        "add_lines", "del_lines", "status", "error_msg", "depth", "parent_index",
                        "wall_ms"})
    EXPECT_TRUE(r0.contains(k)) << k;
  EXPECT_EQ(r0["status"], "completed");
  EXPECT_EQ(r0["add_lines"], 1);
  EXPECT_EQ(r0["del_lines"], 1);
  EXPECT_EQ(j["records"][1]["status"], "failed");
  EXPECT_EQ(j["records"][1]["error_msg"], "error: nope");
  EXPECT_TRUE(j["records"][1]["after_text"].is_null());
  std::string before_file = r0["before_text"]["file"];
  EXPECT_EQ(slurp(s.run().run_dir + "/" + before_file), "a\nb\n");
}

TEST(Layout, InvalidUtf8AndNulBytesAreStoredAsText) {
  TempDir dir;
  Session s(SessionOptions{.script = "k"}, cfg_for(dir.path()));
  StderrCapture cap;
  std::string weird("x\xff\xfe y\0z\n", 9);
  int p = s.begin_pass("p\xff", s.intern(std::string("a\n")));
  s.end_pass(p, s.intern(weird));
  s.finish();
  cap.finish();
  EXPECT_EQ(slurp(s.run().run_dir + "/unscoped/000000_p__after.mlir"), weird);
  auto j = trace_of(s);  // parses: invalid UTF-8 in names is replaced
  EXPECT_EQ(j["records"][0]["name"], "p\xEF\xBF\xBD");
}

TEST(Layout, UnwritableTraceDirIsOneWarningNotAFailure) {
  TempDir dir;
  std::string file = dir / "plain_file";
  { std::ofstream(file) << "x"; }
  StderrCapture cap;
  {
    Session s(SessionOptions{.script = "k"}, cfg_for(file + "/sub", Mode::Both));
    for (int i = 0; i < 5; ++i) {
      int p = s.begin_pass("p", s.intern(std::to_string(i)));
      s.end_pass(p, s.intern(std::to_string(i + 1)));
    }
    EXPECT_EQ(s.record_count(), 5u) << "records are kept in memory";
  }
  std::string err = cap.finish();
  EXPECT_NE(err.find("WARNING: could not save raw trace files"), std::string::npos) << err;
  size_t n = 0;
  for (size_t pos = 0; (pos = err.find("could not save raw", pos)) != std::string::npos; ++pos) ++n;
  EXPECT_EQ(n, 1u) << "warned once, not per pass:\n" << err;
}

// Under RLIMIT_FSIZE = `limit` bytes, traces one pass whose texts are over it.
static void trace_over_the_limit(const std::string &dir, rlim_t limit) {
  struct rlimit rl {limit, limit};
  ::setrlimit(RLIMIT_FSIZE, &rl);
  Session s(SessionOptions{.script = "k"}, cfg_for(dir + "/trace", Mode::Both));
  std::string big(limit * 5, 'x');
  int p = s.begin_pass("p", s.intern(big));
  s.end_pass(p, s.intern(big + "y"));
  s.finish();
}

TEST(Layout, FullDiskIsAWarningAndTheProgramCarriesOn) {
  // RLIMIT_FSIZE makes every write past a few bytes fail (EFBIG), as a full
  // disk would; run in a child so the limit does not leak into other tests.
  TempDir dir;
  // stderr through a pipe: the file size limit spares it
  auto [status, err] = lt_test::in_child([&] {
    std::signal(SIGXFSZ, SIG_IGN);
    trace_over_the_limit(dir.path(), 16);
    ::_exit(42);  // reached: the compile would go on
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 42);
  EXPECT_NE(err.find("WARNING"), std::string::npos) << err;
}

TEST(Layout, FileSizeLimitNeverKillsTheProcess) {
  // SIGXFSZ keeps its default action (death); only our writes are shielded.
  TempDir dir;
  auto [status, err] = lt_test::in_child([&] {
    trace_over_the_limit(dir.path(), 4096);
    const char mark[] = "session survived\n";
    (void)!::write(2, mark, sizeof mark - 1);
    // The program's own write past the limit still gets the default action.
    std::string own = dir / "own";
    int fd = ::open(own.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::string big(8192, 'z');
    if (::write(fd, big.data(), big.size()) > 0) (void)!::write(fd, big.data(), big.size());
    ::_exit(42);
  });
  ASSERT_TRUE(WIFSIGNALED(status)) << "status " << status << "\n" << err;
  EXPECT_EQ(WTERMSIG(status), SIGXFSZ) << "only the program's own write may raise it";
  EXPECT_NE(err.find("session survived"), std::string::npos) << "killed by trace I/O:\n" << err;
  EXPECT_NE(err.find("WARNING"), std::string::npos) << err;
  EXPECT_NE(err.find("File too large"), std::string::npos) << err;
}

TEST(TerminalReport, GoldenLines) {
  LowerRecord r;
  r.phase = "pipeline";
  r.name = "canonicalize";
  r.index = 3;
  r.changed = true;
  r.add_lines = 2;
  r.del_lines = 5;
  EXPECT_EQ(report::pass_line(r, false), "pipeline/003_canonicalize: CHANGED (+2/-5)");
  EXPECT_EQ(report::pass_line(r, true),
            "pipeline/003_canonicalize: \x1b[32mCHANGED\x1b[0m (+2/-5)");
  r.changed = false;
  EXPECT_EQ(report::pass_line(r, false), "pipeline/003_canonicalize: NO-OP");
  r.status = std::string(STATUS_FAILED);
  r.error_msg = "f.mlir:2:3: error: bad\nmore";
  EXPECT_EQ(report::pass_line(r, false),
            "pipeline/003_canonicalize: FAILED (f.mlir:2:3: error: bad more)");
  r.status = std::string(STATUS_SKIPPED);
  EXPECT_EQ(report::pass_line(r, false), "pipeline/003_canonicalize: SKIPPED");
  r.status = std::string(STATUS_CODEGEN);
  r.phase = "codegen";
  r.index = 12;
  r.add_lines = 40;
  r.del_lines = 30;
  r.detail = "/t/codegen.ptx";
  EXPECT_EQ(report::pass_line(r, false),
            "codegen/012_codegen: CODEGEN (+40/-30)  \xe2\x86\x92  /t/codegen.ptx");
}

// An imported dump can hold escape sequences; the terminal must show them as
// text, never act on them (retitle the window, clear the screen).
TEST(Terminal, ControlBytesFromIrAreShownNotSent) {
  EXPECT_EQ(report::visible("a\tb\n"), "a\tb\n");
  EXPECT_EQ(report::visible("\x1b]0;owned\x07"), "\\x1b]0;owned\\x07");
  EXPECT_EQ(report::visible("x\xc2\x9b" "2J\x7f"), "x\\u009b2J\\x7f");
  EXPECT_EQ(report::visible("caf\xc3\xa9"), "caf\xc3\xa9");
  TempDir dir;
  StderrCapture cap;
  {
    Session s(SessionOptions{.script = "esc"}, cfg_for(dir.path(), Mode::Terminal));
    int p = s.begin_pass("pass\x1b[2J", s.intern(std::string("a\n")));
    s.end_pass(p, s.intern(std::string("b \x1b]0;owned\x07\x1b[2J\n")));
    s.finish();
  }
  std::string err = cap.finish();
  EXPECT_EQ(err.find('\x1b'), std::string::npos) << err;
  EXPECT_EQ(err.find('\x07'), std::string::npos) << err;
  EXPECT_NE(err.find("\\x1b]0;owned\\x07"), std::string::npos) << err;
}

TEST(TerminalReport, TerminalModePrintsDiffsToStderrOnly) {
  TempDir dir;
  lt_test::EnvScope nc("NO_COLOR", "1");
  std::string err;
  {
    Session s(SessionOptions{.script = "k"}, cfg_for(dir.path(), Mode::Terminal));
    StderrCapture cap;
    int p = s.begin_pass("cse", s.intern(std::string("a\nb\nc\n")));
    s.end_pass(p, s.intern(std::string("a\nB\nc\n")));
    int q = s.begin_pass("noop", s.intern(std::string("a\nB\nc\n")));
    s.end_pass(q, s.intern(std::string("a\nB\nc\n")));
    s.finish();
    err = cap.finish();
  }
  const std::string expected =
      "  [lower_trace] unscoped/000_cse: CHANGED (+1/-1)\n"
      "--- unscoped/cse (before)\n"
      "+++ unscoped/cse (after)\n"
      "@@ -1,3 +1,3 @@\n"
      " a\n"
      "-b\n"
      "+B\n"
      " c\n"
      "  [lower_trace] unscoped/001_noop: NO-OP\n"
      "  [lower_trace] 2 records: 1 changed, 1 no-op, 0 failed\n";
  EXPECT_EQ(err.substr(0, expected.size()), expected) << err;
  EXPECT_NE(err.find("Raw trace files: "), std::string::npos);
}

// An importer batches its console lines; what it prints must not change.
TEST(TerminalReport, BatchedConsoleWritesTheSameBytes) {
  lt_test::EnvScope nc("NO_COLOR", "1");
  auto run = [](bool batched, Mode mode, std::string *mid) {
    TempDir dir;
    Session s(SessionOptions{.script = "k", .batch_console = batched}, cfg_for(dir.path(), mode));
    StderrCapture cap;
    std::string text = "x\n";
    for (int i = 0; i < 1200; ++i) {
      int p = s.begin_pass("a_rather_long_pass_name_p" + std::to_string(i), s.intern(text));
      if (i % 100 == 0) text += "line " + std::to_string(i) + "\n";
      s.end_pass(p, s.intern(text));
    }
    std::fflush(stderr);
    *mid = slurp(cap.path());
    s.finish();
    std::string out = cap.finish();
    // The closing line names the run's own temp dir.
    return out.substr(0, out.find(mode == Mode::Html ? "Final HTML report: " : "Raw trace files: "));
  };
  for (Mode mode : {Mode::Html, Mode::Terminal}) {
    std::string mid_plain, mid_batched;
    std::string plain = run(false, mode, &mid_plain);
    std::string batched = run(true, mode, &mid_batched);
    // EXPECT_TRUE, not EXPECT_EQ: a failure should not print megabytes.
    EXPECT_TRUE(batched == plain) << "batched output differs (" << batched.size() << " vs "
                                  << plain.size() << " bytes)";
    EXPECT_NE(plain.find("unscoped/1100_a_rather_long_pass_name_p1100: CHANGED (+1/-0)"), std::string::npos);
    EXPECT_NE(plain.find("unscoped/1199_a_rather_long_pass_name_p1199: NO-OP"), std::string::npos);
    // Before finish: unbatched, every line is out; batched, a prefix of them
    // (whole batches, or up to the last diff in terminal mode), never reordered.
    EXPECT_TRUE(mid_plain + "  [lower_trace] 1200 records: 12 changed, 1188 no-op, 0 failed\n" +
                    "  [lower_trace] " == plain);
    EXPECT_TRUE(mid_batched == plain.substr(0, mid_batched.size()));
    EXPECT_LT(mid_batched.size(), mid_plain.size());
    if (mode == Mode::Html) {
      EXPECT_GT(mid_batched.size(), 0u) << "a full batch goes out before the end";
    }
  }
}

// The LLVM plugin's console: batched, but no line waits past console_batch_ms
// for the next record (a few small records would otherwise sit in the buffer
// until the compiler exits), and nothing is lost or reordered.
TEST(TerminalReport, TimeBoundedConsoleBatchFlushesOldLines) {
  lt_test::EnvScope nc("NO_COLOR", "1");
  TempDir dir;
  Session s(SessionOptions{.script = "k", .console_batch_ms = 1}, cfg_for(dir.path(), Mode::Html));
  StderrCapture cap;
  int p = s.begin_pass("first", s.intern(std::string("x\n")));
  s.end_pass(p, s.intern(std::string("x\n")));
  std::fflush(stderr);
  EXPECT_EQ(slurp(cap.path()), "") << "a fresh line waits for its batch";
  ::usleep(20 * 1000);  // the first line is older than the bound now
  p = s.begin_pass("second", s.intern(std::string("x\n")));
  s.end_pass(p, s.intern(std::string("y\n")));
  std::fflush(stderr);
  EXPECT_EQ(slurp(cap.path()), "  [lower_trace] unscoped/000_first: NO-OP\n"
                               "  [lower_trace] unscoped/001_second: CHANGED (+1/-1)\n");
  p = s.begin_pass("third", s.intern(std::string("y\n")));
  s.end_pass(p, s.intern(std::string("y\n")));
  s.finish();
  std::string out = cap.finish();
  EXPECT_EQ(out.substr(0, out.find("  [lower_trace] 3 records")),
            "  [lower_trace] unscoped/000_first: NO-OP\n"
            "  [lower_trace] unscoped/001_second: CHANGED (+1/-1)\n"
            "  [lower_trace] unscoped/002_third: NO-OP\n");
}

TEST(TerminalReport, HtmlModePrintsLinesButNoDiff) {
  TempDir dir;
  lt_test::EnvScope nc("NO_COLOR", "1");
  std::string err;
  {
    Session s(SessionOptions{.script = "k"}, cfg_for(dir.path(), Mode::Html));
    StderrCapture cap;
    int p = s.begin_pass("cse", s.intern(std::string("a\nb\n")));
    s.end_pass(p, s.intern(std::string("a\nB\n")));
    s.finish();
    err = cap.finish();
  }
  EXPECT_NE(err.find("unscoped/000_cse: CHANGED (+1/-1)"), std::string::npos) << err;
  EXPECT_EQ(err.find("@@"), std::string::npos) << err;
  EXPECT_NE(err.find("Final HTML report: " + dir.path() + "/k/report.html"), std::string::npos)
      << err;
}

TEST(Codegen, RelativeWorkingCopyAndPerKernelFiles) {
  TempDir dir;
  std::string cwd = fs::current_path();
  fs::current_path(dir.path());
  Config cfg = cfg_for(dir.path() + "/t", Mode::Terminal);
  cfg.codegen_output = std::string("k.ptx");  // relative, no folder part
  {
    Session s(SessionOptions{.script = "k", .install_default_sinks = false}, cfg);
    auto a = s.codegen("ir a\n", "mlir", "ptx a\n", "ptx", "kernel_a");
    auto b = s.codegen("ir b\n", "mlir", "ptx b\n", "ptx", "kernel_b");
    EXPECT_EQ(a.working_copy, "k.ptx");
    EXPECT_EQ(b.working_copy, "k.kernel_b.ptx") << "a second kernel gets its own file";
    EXPECT_EQ(a.source, "ptx a\n");
    auto recs = s.records();
    ASSERT_EQ(recs.size(), 2u);
    EXPECT_EQ(recs[0].status, STATUS_CODEGEN);
    EXPECT_EQ(recs[0].lang, "ptx");
    EXPECT_TRUE(recs[0].changed);
  }
  EXPECT_EQ(slurp(dir / "k.ptx"), "ptx a\n");
  EXPECT_EQ(slurp(dir / "k.kernel_b.ptx"), "ptx b\n");
  EXPECT_EQ(slurp(dir / "k.ptx.original"), "ptx a\n");
  fs::current_path(cwd);
}

TEST(Codegen, TerminalModeWritesNoWorkingCopyUnlessAsked) {
  TempDir dir;
  Session s(SessionOptions{.script = "k", .install_default_sinks = false},
            cfg_for(dir.path(), Mode::Terminal));
  auto r = s.codegen("ir\n", "mlir", "src\n", "c++", "k");
  EXPECT_TRUE(r.working_copy.empty());
  EXPECT_EQ(r.source, "src\n");
  EXPECT_FALSE(fs::exists(dir / "k/codegen.k.cpp"));
}

TEST(Codegen, HtmlModeDefaultsToScriptDirAndNoneWritesNothing) {
  TempDir dir;
  {
    Session s(SessionOptions{.script = "k", .install_default_sinks = false},
              cfg_for(dir.path(), Mode::Html));
    auto r = s.codegen("ir\n", "mlir", "src\n", "ptx", "kern");
    EXPECT_EQ(r.working_copy, dir.path() + "/k/codegen.kern.ptx");
    EXPECT_EQ(slurp(r.working_copy), "src\n");
  }
  Config cfg = cfg_for(dir.path() + "/n", Mode::Html);
  cfg.codegen_output = none;
  Session s(SessionOptions{.script = "k", .install_default_sinks = false}, cfg);
  auto r = s.codegen("ir\n", "mlir", "src\n", "ptx", "kern");
  EXPECT_TRUE(r.working_copy.empty());
  EXPECT_FALSE(fs::exists(dir / "n/k/codegen.kern.ptx"));
}

TEST(Layout, OneRawFilePerTextWhenAsked) {
  // The LLVM plugin's layout: each distinct text is written once, by the
  // first record that has it; later records point at that file.
  TempDir dir;
  Session s(SessionOptions{.script = "k", .raw_file_per_text = true}, cfg_for(dir.path()));
  StderrCapture cap;
  int p0 = s.begin_pass("a", s.intern(std::string("x\n")));
  s.end_pass(p0, s.intern(std::string("y\n")));
  for (int i = 0; i < 3; ++i) {  // no-ops
    int p = s.begin_pass("noop", s.intern(std::string("y\n")));
    s.end_pass(p, s.intern(std::string("y\n")));
  }
  int p4 = s.begin_pass("b", s.intern(std::string("y\n")));
  s.end_pass(p4, s.intern(std::string("z\n")));
  s.finish();
  cap.finish();
  const std::string run = s.run().run_dir;
  std::vector<std::string> files;
  for (const auto &e : fs::directory_iterator(run + "/unscoped")) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"000000_a_after.mlir", "000000_a_before.mlir", "000004_b_after.mlir"}));
  nlohmann::json t = trace_of(s);
  ASSERT_EQ(t["records"].size(), 5u);
  for (const auto &r : t["records"])
    for (const char *side : {"before_text", "after_text"}) {
      std::string file = r[side]["file"];
      auto id = r[side]["snapshot"].get<int>();
      EXPECT_TRUE(fs::exists(run + "/" + file)) << file;
      EXPECT_EQ(slurp(run + "/" + file), id == 0 ? "x\n" : id == 1 ? "y\n" : "z\n") << file;
    }
  EXPECT_EQ(t["records"][2]["before_text"]["file"], "unscoped/000000_a_after.mlir");
  EXPECT_EQ(t["snapshots"].size(), 3u);
}
