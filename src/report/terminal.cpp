// Terminal reporter: the one-line-per-pass log (every mode) and, in terminal
// and both modes, a coloured unified diff of each changed pass. Everything
// goes to stderr: stdout belongs to the traced tool.
#include "report/terminal.h"

#include "lowertrace/diff.h"
#include "util/log.h"

#include <chrono>
#include <cstdio>
#include <sys/stat.h>
#include <unistd.h>
#include <fmt/format.h>

namespace lowertrace::report {

namespace {
constexpr const char *kReset = "\x1b[0m";
constexpr const char *kRed = "\x1b[31m";
constexpr const char *kGreen = "\x1b[32m";
constexpr const char *kYellow = "\x1b[33m";
constexpr const char *kBlue = "\x1b[34m";
constexpr const char *kCyan = "\x1b[36m";
constexpr const char *kDim = "\x1b[2m";

std::string paint(bool color, const char *code, std::string_view s) {
  if (!color) return std::string(s);
  return std::string(code) + std::string(s) + kReset;
}

bool is_control(const unsigned char *p, size_t left) {
  unsigned char c = p[0];
  if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) return true;
  return c == 0xc2 && left > 1 && p[1] >= 0x80 && p[1] <= 0x9f;  // U+0080..U+009F (C1)
}

}  // namespace

std::string visible(std::string_view s) {
  const auto *p = reinterpret_cast<const unsigned char *>(s.data());
  size_t n = s.size(), i = 0;
  while (i < n && !is_control(p + i, n - i)) ++i;
  if (i == n) return std::string(s);
  std::string out(s.substr(0, i));
  for (; i < n; ++i) {
    if (!is_control(p + i, n - i)) {
      out.push_back(static_cast<char>(p[i]));
    } else if (p[i] == 0xc2) {
      out += fmt::format("\\u{:04x}", p[i + 1]);
      ++i;
    } else {
      out += fmt::format("\\x{:02x}", p[i]);
    }
  }
  return out;
}

namespace {

std::string one_line(std::string_view s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
  std::string out;
  for (char c : s) out.push_back(c == '\n' ? ' ' : c);
  if (out.size() > 300) out = out.substr(0, 300) + "...";
  return out;
}

std::string pad(int index) { return fmt::format("{:03d}", index); }

// Both exist and are one file (the script folder's link resolves to it).
bool same_file(const std::string &a, const std::string &b) {
  struct stat sa, sb;
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}
}  // namespace

std::string pass_line(const LowerRecord &r, bool color) {
  std::string name = r.status == STATUS_CODEGEN ? std::string("codegen") : r.name;
  std::string head = visible(fmt::format("{}/{}_{}: ", r.phase, pad(r.index), name));
  std::string counts = fmt::format(" (+{}/-{})", r.add_lines, r.del_lines);
  if (r.status == STATUS_FAILED)
    return head + paint(color, kRed, "FAILED (" + visible(one_line(r.error_msg)) + ")");
  if (r.status == STATUS_SKIPPED) return head + paint(color, kYellow, "SKIPPED");
  if (r.status == STATUS_CODEGEN) {
    std::string s = head + paint(color, kCyan, "CODEGEN") + counts;
    if (!r.detail.empty()) s += "  \xe2\x86\x92  " + paint(color, kBlue, visible(r.detail));
    return s;
  }
  if (r.changed) return head + paint(color, kGreen, "CHANGED") + counts;
  // An imported one-sided dump: unknown is neither a change nor a no-op.
  if (!r.before_known) return head + paint(color, kDim, "NO BEFORE-TEXT (the dump shows only the IR after)");
  return head + paint(color, kDim, "NO-OP");
}

namespace {

class TerminalSink : public Sink {
public:
  TerminalSink(Mode mode, bool batched, int batch_ms)
      : mode_(mode), color_(util::stderr_color()), batched_(batched || batch_ms > 0), batch_ms_(batch_ms) {}
  ~TerminalSink() override { flush(); }

  void on_record(const RunInfo &, const LowerRecord &r, const RecordList &) override {
    if (batched_) {
      auto now = std::chrono::steady_clock::now();
      if (buf_.empty()) first_ = now;
      buf_ += util::kPrefix;
      buf_ += pass_line(r, color_);
      buf_ += '\n';
      if (buf_.size() >= (1u << 16) || (batch_ms_ > 0 && now - first_ >= std::chrono::milliseconds(batch_ms_)))
        flush();
    } else {
      util::info(pass_line(r, color_));
    }
    bool show = r.status == STATUS_CODEGEN || (r.status == STATUS_COMPLETED && r.changed);
    if (!wants_terminal(mode_) || !show) return;
    flush();
    diff::UnifiedOptions opt;
    opt.context = 3;
    opt.color = color_;
    std::string label = visible(r.phase + "/" + (r.status == STATUS_CODEGEN ? "codegen" : r.name));
    opt.label_a = r.status == STATUS_CODEGEN ? "codegen (" + r.ir_lang + " before)" : label + " (before)";
    opt.label_b = r.status == STATUS_CODEGEN ? "codegen (" + r.lang + " after)" : label + " (after)";
    // IR may hold escape sequences (an imported dump could retitle the
    // window or clear the screen): the terminal is shown them as text.
    util::emit(diff::unified(visible(r.before_text()), visible(r.after_text()), opt));
  }

  void on_finish(const RunInfo &run, const RecordList &all, const std::string &error) override {
    flush();
    int changed = 0, failed = 0, noop = 0, unknown = 0;
    for (const LowerRecord &r : all) {
      if (r.status == STATUS_FAILED) ++failed;
      else if (r.status == STATUS_COMPLETED) (r.changed ? changed : r.before_known ? noop : unknown)++;
    }
    util::info(fmt::format("{} records: {} changed, {} no-op, {}{} failed{}", all.size(), changed, noop,
                           unknown ? fmt::format("{} without a before-text, ", unknown) : std::string(),
                           failed, error.empty() ? "" : " (" + visible(one_line(error)) + ")"));
    // Point only at what exists: with an unwritable trace folder the other
    // sinks have warned, and a path to nothing would mislead.
    if (wants_html(mode_)) {
      std::string own = run.run_dir + "/report.html", latest = run.script_dir + "/report.html";
      if (same_file(latest, own)) util::info("Final HTML report: " + paint(color_, kBlue, latest));
      else if (::access(own.c_str(), F_OK) == 0)
        util::info("Final HTML report: " + paint(color_, kBlue, own));
    } else if (::access(run.run_dir.c_str(), F_OK) == 0) {
      util::info("Raw trace files: " + paint(color_, kBlue, run.run_dir));
    }
  }

private:
  void flush() {
    if (buf_.empty()) return;
    util::emit(buf_);
    buf_.clear();
  }

  Mode mode_;
  bool color_;
  bool batched_;
  int batch_ms_;
  std::string buf_;  // batched console lines not yet written
  std::chrono::steady_clock::time_point first_;  // when the oldest of them was added
};

}  // namespace

std::shared_ptr<Sink> make_terminal_sink(Mode mode, bool batched, int batch_ms) {
  return std::make_shared<TerminalSink>(mode, batched, batch_ms);
}

}  // namespace lowertrace::report
