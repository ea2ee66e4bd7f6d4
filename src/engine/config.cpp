// Configuration: TL_LOWER_TRACE / TL_LOWER_TRACE_DIR and enable()/disable().
//
// Mirrors the original's rules: an omitted enable() argument falls back to the
// environment; an explicit none pins "off" (mode) or "no file" (codegen); the
// snapshot taken at enable() is what later sessions copy.
#include "lowertrace/config.h"
#include "lowertrace/session.h"
#include "util/log.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <mutex>
#include <set>

namespace lowertrace {

std::string_view to_string(Mode m) {
  switch (m) {
  case Mode::Off: return "off";
  case Mode::Terminal: return "terminal";
  case Mode::Html: return "html";
  case Mode::Both: return "both";
  }
  return "off";
}

static std::string normalise(std::string_view v) {
  size_t b = 0, e = v.size();
  while (b < e && std::isspace(static_cast<unsigned char>(v[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(v[e - 1]))) --e;
  std::string s(v.substr(b, e - b));
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

Mode parse_mode(std::string_view value, bool *unknown) {
  if (unknown) *unknown = false;
  std::string v = normalise(value);
  if (v.empty() || v == "0" || v == "off" || v == "false" || v == "no") return Mode::Off;
  if (v == "1" || v == "on" || v == "true" || v == "yes" || v == "html") return Mode::Html;
  if (v == "terminal") return Mode::Terminal;
  if (v == "both") return Mode::Both;
  if (unknown) *unknown = true;
  return Mode::Html;
}

static const char *env_either(const char *primary, const char *alias) {
  const char *v = std::getenv(primary);
  if (v) return v;
  return std::getenv(alias);
}

static Mode mode_from_env() {
  const char *v = env_either("TL_LOWER_TRACE", "LOWER_TRACE");
  if (!v) return Mode::Off;
  bool unknown = false;
  Mode m = parse_mode(v, &unknown);
  if (unknown) {
    // Warn once per distinct value: the environment is re-read by every session.
    static std::mutex mu;
    static std::set<std::string> &warned = *new std::set<std::string>;  // never destroyed: see global()
    std::lock_guard<std::mutex> lock(mu);
    if (warned.insert(v).second)
      util::warn("unknown TL_LOWER_TRACE value '" + std::string(v) +
                 "' (expected 0|1|terminal|html|both); using html");
  }
  return m;
}

static std::string dir_from_env() {
  const char *v = env_either("TL_LOWER_TRACE_DIR", "LOWER_TRACE_DIR");
  std::string s = v ? std::string(v) : std::string();
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "./tmp/lower_trace_dir";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

Config config_from_env() {
  Config c;
  c.mode = mode_from_env();
  c.trace_dir = dir_from_env();
  return c;
}

namespace {
enum class State { Auto, Enabled, Disabled };
struct Global {
  std::mutex mu;
  State state = State::Auto;
  EnableOptions overrides;  // persist across enable() calls, like the original
  Config snapshot;
};
Global &global() {
  // Never destroyed: the LLVM plugin finishes its session from a static
  // destructor at exit, which may run after a static constructed later.
  static Global &g = *new Global;
  return g;
}

Config resolve(const EnableOptions &o) {
  Config c;
  if (o.mode.has_value()) c.mode = o.mode.value();
  else if (o.mode.is_none()) c.mode = Mode::Off;
  else c.mode = mode_from_env();
  if (o.trace_dir.has_value() && !o.trace_dir.value().empty()) c.trace_dir = o.trace_dir.value();
  else c.trace_dir = dir_from_env();
  c.codegen_output = o.codegen_output;
  return c;
}
}  // namespace

void enable(const EnableOptions &opts) {
  Global &g = global();
  std::lock_guard<std::mutex> lock(g.mu);
  if (opts.mode.given()) g.overrides.mode = opts.mode;
  if (opts.trace_dir.given()) g.overrides.trace_dir = opts.trace_dir;
  if (opts.codegen_output.given()) g.overrides.codegen_output = opts.codegen_output;
  g.snapshot = resolve(g.overrides);
  g.state = State::Enabled;
}

void disable() {
  Global &g = global();
  std::lock_guard<std::mutex> lock(g.mu);
  g.overrides = EnableOptions{};
  g.state = State::Disabled;
  g.snapshot = Config{};
}

void reset() {
  if (Session *s = Session::current()) s->reset();
}

Config current_config() {
  Global &g = global();
  std::lock_guard<std::mutex> lock(g.mu);
  switch (g.state) {
  case State::Auto: return config_from_env();
  case State::Enabled: return g.snapshot;
  case State::Disabled: return Config{};
  }
  return Config{};
}

}  // namespace lowertrace
