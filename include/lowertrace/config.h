// lowertrace/config.h - how tracing is switched on: the environment and enable().
//
// The original reads TL_LOWER_TRACE / TL_LOWER_TRACE_DIR, and lets code override
// them with enable(mode, trace_dir, codegen_output), where an omitted argument
// falls back to the environment and an explicit None means "off"/"no file".
// Setting<T> carries that three-way distinction in C++.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lowertrace {

enum class Mode { Off, Terminal, Html, Both };

std::string_view to_string(Mode m);
inline bool wants_terminal(Mode m) { return m == Mode::Terminal || m == Mode::Both; }
inline bool wants_html(Mode m) { return m == Mode::Html || m == Mode::Both; }

// Parses a TL_LOWER_TRACE value exactly like the original: 0/off/false/no/"" -> Off;
// 1/on/true/yes/html -> Html; terminal; both; anything else -> Html with *unknown set.
Mode parse_mode(std::string_view value, bool *unknown = nullptr);

struct None {};
inline constexpr None none{};

// A value that is either not given (fall back), explicitly none, or set.
template <class T> class Setting {
public:
  Setting() = default;
  Setting(None) : state_(State::None) {}
  Setting(T v) : state_(State::Value), value_(std::move(v)) {}
  template <class U, class = std::enable_if_t<std::is_constructible_v<T, U &&> &&
                                              !std::is_same_v<std::decay_t<U>, None>>>
  Setting(U &&v) : state_(State::Value), value_(T(std::forward<U>(v))) {}

  bool given() const { return state_ != State::Unset; }
  bool is_none() const { return state_ == State::None; }
  bool has_value() const { return state_ == State::Value; }
  const T &value() const { return *value_; }

private:
  enum class State { Unset, None, Value } state_ = State::Unset;
  std::optional<T> value_;
};

struct EnableOptions {
  Setting<Mode> mode;               // none = off (and stays off until disable() or a mode)
  Setting<std::string> trace_dir;   // none or empty = environment / default
  Setting<std::string> codegen_output;  // none = never write codegen files
};

// The snapshot a Session copies when it starts.
struct Config {
  Mode mode = Mode::Off;
  std::string trace_dir = "./tmp/lower_trace_dir";
  // Codegen working copy: unset -> default (<script_dir>/codegen.<ext> in html/both,
  // none in terminal); none -> never; value -> always this path.
  Setting<std::string> codegen_output;
  bool enabled() const { return mode != Mode::Off; }
};

// Reads TL_LOWER_TRACE (or LOWER_TRACE) and TL_LOWER_TRACE_DIR (or LOWER_TRACE_DIR).
// Prints a one-line warning to stderr for an unknown mode value.
Config config_from_env();

// Takes a snapshot of (overrides, environment) now; later sessions copy it.
void enable(const EnableOptions &opts = {});
// Forgets the overrides and turns tracing off until enable() is called again.
void disable();
// Clears the records of the current thread's session, if any (see
// Session::current()), after ending its run so far (Session::reset()).
void reset();

// What a session starting now would use. Before any enable()/disable() this is
// config_from_env(), read once per process.
Config current_config();

}  // namespace lowertrace
