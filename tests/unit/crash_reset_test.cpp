// Runs that end badly: a crash inside a pass, reset() with the default sinks,
// a file-size limit, an unwritable trace folder, sessions destroyed out of
// order. Each must leave an honest trace and never change the process's fate.
#include "engine/crash.h"
#include "lowertrace/session.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace lowertrace;
namespace fs = std::filesystem;
using lt_test::slurp;
using lt_test::StderrCapture;
using lt_test::TempDir;

namespace {
Config cfg_for(const std::string &dir, Mode m) {
  Config c;
  c.mode = m;
  c.trace_dir = dir;
  c.codegen_output = none;
  return c;
}

nlohmann::json trace_in(const std::string &run_dir) {
  return nlohmann::json::parse(slurp(run_dir + "/trace.json"));
}

std::vector<std::string> runs_of(const std::string &script_dir) {
  std::vector<std::string> out;
  for (auto &e : fs::directory_iterator(script_dir + "/.run_records")) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// A traced run whose second pass dies of `crash()`.
void crashing_run(const std::string &dir, void (*crash)()) {
  crash::install();  // as the front ends do (no host handler here: default action)
  Session s(SessionOptions{.script = "k", .input = "in.mlir", .tool = "test"},
            cfg_for(dir, Mode::Both));
  auto ph = s.phase("pipeline");
  int a = s.begin_pass("canonicalize", s.intern(std::string("ir 0\n")));
  s.end_pass(a, s.intern(std::string("ir 1\n")));
  int b = s.begin_pass("boom", s.intern(std::string("ir 1\n")));
  (void)b;
  crash();
}

void segfault() {
  volatile int *p = nullptr;
  *p = 1;
}
void do_abort() { std::abort(); }

void expect_crash_recorded(const std::string &dir, const std::string &signame, int status,
                           int sig, const std::string &err) {
  ASSERT_TRUE(WIFSIGNALED(status)) << "the process must still die of its signal; status " << status;
  EXPECT_EQ(WTERMSIG(status), sig) << "exit status unchanged";
  auto runs = runs_of(dir + "/k");
  ASSERT_EQ(runs.size(), 1u);
  ASSERT_TRUE(fs::exists(runs[0] + "/trace.json")) << err;
  auto j = trace_in(runs[0]);
  ASSERT_EQ(j["records"].size(), 2u);
  EXPECT_EQ(j["records"][0]["status"], "completed");
  const auto &r = j["records"][1];
  EXPECT_EQ(r["name"], "boom");
  EXPECT_EQ(r["status"], "failed");
  EXPECT_EQ(r["error_msg"], "crashed: " + signame);
  ASSERT_TRUE(r["before_text"].is_object());
  EXPECT_EQ(slurp(runs[0] + "/" + r["before_text"]["file"].get<std::string>()), "ir 1\n");
  EXPECT_EQ(j["error"], "crashed: " + signame + " in pipeline/001_boom");
  // The final report, not the live one.
  EXPECT_FALSE(fs::exists(runs[0] + "/report_data"));
  std::string html = slurp(runs[0] + "/report.html");
  EXPECT_NE(html.find("\"live\":false"), std::string::npos);
  EXPECT_NE(html.find("crashed: " + signame), std::string::npos);
  EXPECT_NE(err.find("FAILED (crashed: " + signame + ")"), std::string::npos) << err;
}
}  // namespace

TEST(Crash, SegfaultInAPassEndsAsAFailedRecordAndTheProcessStillDies) {
  TempDir dir;
  auto r = lt_test::in_child([&] { crashing_run(dir / "t", segfault); });
  expect_crash_recorded(dir / "t", "SIGSEGV", r.status, SIGSEGV, r.err);
}

TEST(Crash, AbortInAPassEndsAsAFailedRecordAndTheProcessStillDies) {
  TempDir dir;
  auto r = lt_test::in_child([&] { crashing_run(dir / "t", do_abort); });
  expect_crash_recorded(dir / "t", "SIGABRT", r.status, SIGABRT, r.err);
}

TEST(Crash, SignalNames) {
  EXPECT_EQ(crash::signal_name(SIGSEGV), "SIGSEGV");
  EXPECT_EQ(crash::signal_name(SIGABRT), "SIGABRT");
  EXPECT_EQ(crash::signal_name(SIGBUS), "SIGBUS");
}

TEST(Reset, WithTheDefaultSinksEndsTheRunAndKeepsTheLiveReportGoing) {
  TempDir dir;
  StderrCapture cap;
  std::string first, second;
  {
    Session s(SessionOptions{.script = "k"}, cfg_for(dir.path(), Mode::Both));
    for (int i = 0; i < 3; ++i) {
      int p = s.begin_pass("p", s.intern("a" + std::to_string(i) + "\n"));
      s.end_pass(p, s.intern("a" + std::to_string(i + 1) + "\n"));
    }
    first = s.run().run_dir;
    reset();
    second = s.run().run_dir;
    ASSERT_NE(first, second);
    // The run before the reset is complete on disk: trace.json, final report.
    ASSERT_TRUE(fs::exists(first + "/trace.json"));
    EXPECT_EQ(trace_in(first)["records"].size(), 3u);
    EXPECT_FALSE(fs::exists(first + "/report_data")) << "left 'in progress'";
    EXPECT_NE(slurp(first + "/report.html").find("\"live\":false"), std::string::npos);
    // The next run gets live updates from its first record on.
    for (int i = 0; i < 2; ++i) {
      int p = s.begin_pass("q", s.intern("b" + std::to_string(i) + "\n"));
      s.end_pass(p, s.intern("b" + std::to_string(i + 1) + "\n"));
      EXPECT_TRUE(fs::exists(second + "/report_data/00000" + std::to_string(i) + ".js"));
    }
    EXPECT_TRUE(fs::exists(second + "/report.html"));
  }
  EXPECT_TRUE(fs::exists(second + "/unscoped/000000_q_before.mlir"));
  EXPECT_TRUE(fs::exists(first + "/unscoped/000000_p_before.mlir"));
  std::string err = cap.finish();
  EXPECT_EQ(err.find("WARNING"), std::string::npos) << err;
  auto j = trace_in(second);
  ASSERT_EQ(j["records"].size(), 2u);
  EXPECT_EQ(j["records"][0]["name"], "q");
  EXPECT_EQ(j["records"][0]["index"], 0);
  EXPECT_FALSE(fs::exists(second + "/report_data"));
  // The script folder's report is the latest run's.
  EXPECT_EQ(fs::canonical(dir / "k/report.html"), fs::canonical(second + "/report.html"));
}

TEST(Reset, SinksAddedByTheCallerSeeBothRuns) {
  struct Count : Sink {
    int recs = 0, finishes = 0;
    void on_record(const RunInfo &, const LowerRecord &, const RecordList &) override { ++recs; }
    void on_finish(const RunInfo &, const RecordList &, const std::string &) override { ++finishes; }
  };
  TempDir dir;
  auto c = std::make_shared<Count>();
  {
    Session s(SessionOptions{.script = "k", .install_default_sinks = false}, cfg_for(dir.path(), Mode::Html));
    s.add_sink(c);
    s.end_pass(s.begin_pass("p", s.intern(std::string("a"))), s.intern(std::string("b")));
    s.reset();
    s.end_pass(s.begin_pass("q", s.intern(std::string("a"))), s.intern(std::string("b")));
  }
  EXPECT_EQ(c->recs, 2);
  EXPECT_EQ(c->finishes, 2) << "one per run";
}

TEST(SessionCurrent, SessionsDestroyedInCreationOrderLeaveNoDanglingCurrent) {
  TempDir dir;
  Config cfg = cfg_for(dir.path(), Mode::Terminal);
  SessionOptions o{.script = "k", .install_default_sinks = false};
  auto *a = new Session(o, cfg);
  auto *b = new Session(o, cfg);
  EXPECT_EQ(Session::current(), b);
  delete a;
  EXPECT_EQ(Session::current(), b);
  delete b;
  EXPECT_EQ(Session::current(), nullptr) << "pointed at a freed session";
  reset();  // must not touch either
  Session c(o, cfg);
  auto *d = new Session(o, cfg);
  delete d;
  EXPECT_EQ(Session::current(), &c);
}

TEST(SessionCurrent, IsPerThread) {
  TempDir dir;
  Session a(SessionOptions{.script = "k", .install_default_sinks = false}, cfg_for(dir.path(), Mode::Terminal));
  Session *seen = &a;
  std::thread([&] { seen = Session::current(); }).join();
  EXPECT_EQ(seen, nullptr);
  EXPECT_EQ(Session::current(), &a);
}

TEST(TraceJson, AFailedPipelineEndsWithAnError) {
  TempDir dir;
  std::string run;
  {
    Session s(SessionOptions{.script = "k", .install_default_sinks = true}, cfg_for(dir.path(), Mode::Terminal));
    StderrCapture cap;
    auto ph = s.phase("pipeline");
    int p = s.begin_pass("func.func(cse)", s.intern(std::string("a")));
    int c = s.begin_pass("cse", s.intern(std::string("a")));
    s.fail_pass(c, "in.mlir:3:5: error: bad op\nmore");
    (void)p;
    s.finish();
    cap.finish();
    run = s.run().run_dir;
  }
  EXPECT_EQ(trace_in(run)["error"], "pipeline/001_cse failed: in.mlir:3:5: error: bad op");
}

TEST(Console, UnwritableTraceDirPointsAtNoReport) {
  TempDir dir;
  std::string file = dir / "plain_file";
  { std::ofstream(file) << "x"; }
  for (Mode m : {Mode::Html, Mode::Terminal}) {
    StderrCapture cap;
    {
      Session s(SessionOptions{.script = "k"}, cfg_for(file + "/sub", m));
      s.end_pass(s.begin_pass("p", s.intern(std::string("a"))), s.intern(std::string("b")));
    }
    std::string err = cap.finish();
    EXPECT_EQ(err.find("Final HTML report:"), std::string::npos) << err;
    EXPECT_EQ(err.find("Raw trace files:"), std::string::npos) << err;
    EXPECT_NE(err.find("WARNING"), std::string::npos) << err;
  }
}

TEST(Console, CodegenIoFailureDoesNotPointAtTheWorkingCopy) {
  TempDir dir;
  fs::create_directories(dir / "k.ptx");  // the working copy's name is taken by a folder
  Config cfg = cfg_for(dir / "t", Mode::Terminal);
  cfg.codegen_output = std::string(dir / "k.ptx");
  StderrCapture cap;
  Session::CodegenResult res;
  {
    Session s(SessionOptions{.script = "k"}, cfg);
    res = s.codegen("ir\n", "mlir", "ptx\n", "ptx", "kernel");
    EXPECT_EQ(s.records().at(0).detail, "");
  }
  std::string err = cap.finish();
  EXPECT_EQ(res.working_copy, "");
  EXPECT_EQ(res.source, "ptx\n");
  EXPECT_EQ(err.find("\xe2\x86\x92"), std::string::npos) << err;
}

TEST(StaleRuns, AKilledRunIsFinishedByTheNextRunInItsFolder) {
  TempDir dir;
  auto r = lt_test::in_child([&] {
    Session s(SessionOptions{.script = "k", .input = "in.mlir"}, cfg_for(dir.path(), Mode::Html));
    auto ph = s.phase("pipeline");
    for (int i = 0; i < 3; ++i)
      s.end_pass(s.begin_pass("p" + std::to_string(i), s.intern("t" + std::to_string(i) + "\n")),
                 s.intern("t" + std::to_string(i + 1) + "\n"));
    ::kill(::getpid(), SIGKILL);
  });
  ASSERT_TRUE(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGKILL);
  auto runs = runs_of(dir / "k");
  ASSERT_EQ(runs.size(), 1u);
  const std::string killed = runs[0];
  ASSERT_TRUE(fs::exists(killed + "/report_data/000002.js"));
  ASSERT_FALSE(fs::exists(killed + "/trace.json"));

  StderrCapture cap;
  {
    Session next(SessionOptions{.script = "k"}, cfg_for(dir.path(), Mode::Html));
    // Finished as the next session starts, before it records anything.
    ASSERT_TRUE(fs::exists(killed + "/trace.json"));
  }
  std::string err = cap.finish();
  EXPECT_NE(err.find("finished the killed run"), std::string::npos) << err;
  auto j = trace_in(killed);
  EXPECT_EQ(j["error"].get<std::string>().rfind("killed:", 0), 0u) << j["error"];
  EXPECT_EQ(j["input"], "in.mlir");
  ASSERT_EQ(j["records"].size(), 3u);
  EXPECT_EQ(j["records"][2]["name"], "p2");
  EXPECT_EQ(j["records"][2]["phase"], "pipeline");
  for (const auto &rec : j["records"])
    if (rec["before_text"].is_object())  // raw files the writer got to
      EXPECT_TRUE(fs::exists(killed + "/" + rec["before_text"]["file"].get<std::string>()));
  EXPECT_FALSE(fs::exists(killed + "/report_data"));
  std::string html = slurp(killed + "/report.html");
  EXPECT_NE(html.find("\"live\":false"), std::string::npos);
  EXPECT_NE(html.find("killed:"), std::string::npos);
}

TEST(StaleRuns, AKilledPluginRunKeepsItsTextsWithOneFilePerText) {
  // The LLVM plugin's options: chunks batched (the heartbeat writes what
  // waits) and no-op records without raw files of their own. The next run
  // still finds every text the killed one recorded.
  TempDir dir;
  auto r = lt_test::in_child([&] {
    ::setenv("LT_LIVE_BEAT_MS", "20", 1);
    Session s(SessionOptions{.script = "k", .input = "in.ll", .live_chunk_ms = 250, .raw_file_per_text = true},
              cfg_for(dir.path(), Mode::Html));
    auto ph = s.phase("llvm");
    s.end_pass(s.begin_pass("a", s.intern(std::string("t0\n")), "llvm"), s.intern(std::string("t1\n")));
    for (int i = 0; i < 3; ++i)
      s.end_pass(s.begin_pass("noop", s.intern(std::string("t1\n")), "llvm"), s.intern(std::string("t1\n")));
    ::usleep(400 * 1000);  // several beats: the batched records reach a chunk
    ::kill(::getpid(), SIGKILL);
  });
  ASSERT_TRUE(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGKILL);
  auto runs = runs_of(dir / "k");
  ASSERT_EQ(runs.size(), 1u);
  const std::string killed = runs[0];
  StderrCapture cap;
  { Session next(SessionOptions{.script = "k"}, cfg_for(dir.path(), Mode::Html)); }
  cap.finish();
  auto j = trace_in(killed);
  ASSERT_EQ(j["records"].size(), 4u);
  for (const auto &rec : j["records"]) {
    ASSERT_TRUE(rec["before_text"].is_object() && rec["after_text"].is_object()) << rec;
    EXPECT_EQ(slurp(killed + "/" + rec["after_text"]["file"].get<std::string>()), "t1\n");
  }
  EXPECT_EQ(j["records"][3]["before_text"]["file"], "llvm/000000_a_after.ll");
}

TEST(StaleRuns, ALiveRunIsLeftAlone) {
  TempDir dir;
  Session a(SessionOptions{.script = "k"}, cfg_for(dir.path(), Mode::Html));
  a.end_pass(a.begin_pass("p", a.intern(std::string("x\n"))), a.intern(std::string("y\n")));
  {
    StderrCapture cap;
    Session b(SessionOptions{.script = "k"}, cfg_for(dir.path(), Mode::Html));
    cap.finish();
  }
  EXPECT_TRUE(fs::exists(a.run().run_dir + "/report_data/000000.js")) << "its writer holds the lock";
  a.finish();
  EXPECT_EQ(trace_in(a.run().run_dir)["error"], "");
}
