// The environment table and enable()/disable()/reset() semantics of the original.
#include "lowertrace/config.h"
#include "lowertrace/session.h"
#include "test_util.h"

#include <gtest/gtest.h>

using namespace lowertrace;
using lt_test::EnvScope;

struct ModeCase {
  const char *value;
  Mode expected;
  bool unknown;
};

class ParseMode : public ::testing::TestWithParam<ModeCase> {};

TEST_P(ParseMode, MatchesTheOriginalTable) {
  bool unknown = true;
  EXPECT_EQ(parse_mode(GetParam().value, &unknown), GetParam().expected) << GetParam().value;
  EXPECT_EQ(unknown, GetParam().unknown) << GetParam().value;
}

INSTANTIATE_TEST_SUITE_P(
    EnvValues, ParseMode,
    ::testing::Values(ModeCase{"0", Mode::Off, false}, ModeCase{"off", Mode::Off, false},
                      ModeCase{"false", Mode::Off, false}, ModeCase{"no", Mode::Off, false},
                      ModeCase{"", Mode::Off, false}, ModeCase{"  OFF  ", Mode::Off, false},
                      ModeCase{"1", Mode::Html, false}, ModeCase{"on", Mode::Html, false},
                      ModeCase{"true", Mode::Html, false}, ModeCase{"YES", Mode::Html, false},
                      ModeCase{"html", Mode::Html, false},
                      ModeCase{"terminal", Mode::Terminal, false},
                      ModeCase{" Terminal\n", Mode::Terminal, false},
                      ModeCase{"both", Mode::Both, false}, ModeCase{"verbose", Mode::Html, true},
                      ModeCase{"2", Mode::Html, true}));

class ConfigTest : public ::testing::Test {
protected:
  // After disable() tracing stays off until enable(); each test enables.
  void SetUp() override { disable(); }
  void TearDown() override { disable(); }
};

TEST_F(ConfigTest, EnvironmentSpellings) {
  EnvScope a("TL_LOWER_TRACE", std::nullopt), b("LOWER_TRACE", "both");
  EnvScope c("TL_LOWER_TRACE_DIR", std::nullopt), d("LOWER_TRACE_DIR", "/x/y");
  Config cfg = config_from_env();
  EXPECT_EQ(cfg.mode, Mode::Both);
  EXPECT_EQ(cfg.trace_dir, "/x/y");
  EnvScope e("TL_LOWER_TRACE", "terminal"), f("TL_LOWER_TRACE_DIR", "  /a/b ");
  cfg = config_from_env();
  EXPECT_EQ(cfg.mode, Mode::Terminal) << "TL_ spelling wins";
  EXPECT_EQ(cfg.trace_dir, "/a/b") << "stripped";
}

TEST_F(ConfigTest, BlankDirFallsBackToDefault) {
  EnvScope a("TL_LOWER_TRACE_DIR", "   "), b("LOWER_TRACE_DIR", std::nullopt);
  EXPECT_EQ(config_from_env().trace_dir, "./tmp/lower_trace_dir");
}

TEST_F(ConfigTest, EnableWithNothingGivenReadsTheEnvironment) {
  EnvScope a("TL_LOWER_TRACE", "terminal"), b("TL_LOWER_TRACE_DIR", "/env/dir");
  enable();
  EXPECT_EQ(current_config().mode, Mode::Terminal);
  EXPECT_EQ(current_config().trace_dir, "/env/dir");
}

TEST_F(ConfigTest, EnableSnapshotsTheEnvironment) {
  EnvScope a("TL_LOWER_TRACE", "terminal");
  enable();
  EnvScope b("TL_LOWER_TRACE", "both");
  EXPECT_EQ(current_config().mode, Mode::Terminal) << "later env changes need a new enable()";
  enable();
  EXPECT_EQ(current_config().mode, Mode::Both);
}

TEST_F(ConfigTest, ExplicitNoneModePinsOffEvenAgainstTheEnvironment) {
  EnvScope a("TL_LOWER_TRACE", "html");
  enable({.mode = none});
  EXPECT_EQ(current_config().mode, Mode::Off);
  enable();  // the original's subtle case: the None override persists
  EXPECT_EQ(current_config().mode, Mode::Off);
  enable({.mode = Mode::Both});
  EXPECT_EQ(current_config().mode, Mode::Both);
}

TEST_F(ConfigTest, DisableForgetsOverridesAndTurnsTracingOff) {
  EnvScope a("TL_LOWER_TRACE", "terminal");
  enable({.mode = Mode::Html, .trace_dir = std::string("/forced")});
  EXPECT_EQ(current_config().trace_dir, "/forced");
  disable();
  EXPECT_EQ(current_config().mode, Mode::Off);
  enable();
  EXPECT_EQ(current_config().mode, Mode::Terminal) << "override forgotten";
  EXPECT_NE(current_config().trace_dir, "/forced");
}

TEST_F(ConfigTest, TraceDirNoneOrEmptyFallsBack) {
  EnvScope a("TL_LOWER_TRACE_DIR", "/env");
  enable({.mode = Mode::Html, .trace_dir = none});
  EXPECT_EQ(current_config().trace_dir, "/env");
  enable({.trace_dir = std::string("")});
  EXPECT_EQ(current_config().trace_dir, "/env");
}

TEST_F(ConfigTest, CodegenOutputThreeStates) {
  enable({.mode = Mode::Html});
  EXPECT_FALSE(current_config().codegen_output.given());
  enable({.codegen_output = none});
  EXPECT_TRUE(current_config().codegen_output.is_none());
  enable({.codegen_output = std::string("/tmp/k.ptx")});
  ASSERT_TRUE(current_config().codegen_output.has_value());
  EXPECT_EQ(current_config().codegen_output.value(), "/tmp/k.ptx");
}

TEST_F(ConfigTest, ResetClearsTheCurrentSessionOnly) {
  lt_test::TempDir dir;
  Config cfg;
  cfg.mode = Mode::Terminal;
  cfg.trace_dir = dir.path();
  Session s(SessionOptions{.script = "k", .install_default_sinks = false}, cfg);
  int i = s.begin_pass("p", s.intern(std::string("a\n")));
  s.end_pass(i, s.intern(std::string("b\n")));
  std::string old_run = s.run().run_dir;
  ASSERT_EQ(s.record_count(), 1u);
  reset();
  EXPECT_EQ(s.record_count(), 0u);
  EXPECT_NE(s.run().run_dir, old_run) << "restarted indices must not overwrite the old run";
  int j = s.begin_pass("q", s.intern(std::string("a\n")));
  EXPECT_EQ(j, 0) << "indices restart";
}
