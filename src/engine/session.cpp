// Session: numbering, nesting, phases and snapshots for one traced compilation.
//
// Every public method takes the session lock, so front ends may call from any
// thread; sinks are invoked with the lock held and must not call back.
#include "lowertrace/session.h"

#include "engine/codegen_workflow.h"
#include "engine/layout.h"
#include "engine/record_table.h"
#include "engine/session_registry.h"
#include "engine/stale_runs.h"
#include "engine/snapshot_store.h"
#include "lowertrace/diff.h"
#include "report/html.h"
#include "report/terminal.h"
#include "util/fatal.h"
#include "util/fs.h"
#include "util/log.h"

#include <algorithm>
#include <system_error>
#include <thread>
#include <chrono>
#include <errno.h>
#include <exception>
#include <filesystem>
#include <unordered_map>

namespace lowertrace {

namespace {
using Clock = std::chrono::steady_clock;

std::string program_name() {
  std::string s = util::stem(program_invocation_short_name ? program_invocation_short_name : "");
  return s.empty() ? std::string("kernel") : s;
}

}  // namespace


Session::Session(SessionOptions opts) : Session(std::move(opts), current_config()) {}

Session::Session(SessionOptions opts, Config cfg)
    : cfg_(std::move(cfg)), store_(std::make_unique<SnapshotStore>()),
      table_(std::make_unique<RecordTable>()) {
  registry::add(this);
  release_texts_ = opts.release_texts;
  if (!cfg_.enabled()) return;
  opts_.install_default_sinks = opts.install_default_sinks;
  opts_.live_report = opts.live_report;
  opts_.batch_console = opts.batch_console;
  opts_.console_batch_ms = opts.console_batch_ms;
  opts_.live_chunk_ms = opts.live_chunk_ms;
  opts_.raw_file_per_text = opts.raw_file_per_text;
  run_.script = util::sanitize_component(opts.script.empty() ? program_name() : opts.script);
  run_.script_dir = cfg_.trace_dir + "/" + run_.script;
  run_.run_id = layout::make_run_id();
  run_.run_dir = run_.script_dir + "/.run_records/" + run_.run_id;
  run_.input = std::move(opts.input);
  run_.tool = std::move(opts.tool);
  run_.mode = cfg_.mode;
  run_.started = layout::now_iso8601();
  timed_ = opts.timed;
  // Earlier runs here whose compiler was killed get their trace.json and
  // final report now; a live report of theirs then reads as ended.
  if (opts_.install_default_sinks && opts_.live_report) stale_runs::finish_stale(run_.script_dir);
  install_default_sinks();
}

void Session::install_default_sinks() {
  if (!opts_.install_default_sinks) return;
  std::vector<std::shared_ptr<Sink>> d;
  d.push_back(layout::make_layout_sink(opts_.raw_file_per_text));  // raw files in every mode
  if (wants_html(cfg_.mode)) d.push_back(report::make_html_sink(opts_.live_report, opts_.live_chunk_ms));
  console_ = report::make_terminal_sink(cfg_.mode, opts_.batch_console, opts_.console_batch_ms);
  d.push_back(console_);
  sinks_.erase(sinks_.begin(), sinks_.begin() + static_cast<std::ptrdiff_t>(default_sinks_));
  sinks_.insert(sinks_.begin(), d.begin(), d.end());
  default_sinks_ = d.size();
}

Session::~Session() {
  finish();
  registry::remove(this);
}

Session *Session::current() { return registry::current(); }

Snapshot Session::intern(std::string text) { return store_->intern(std::move(text)); }
Snapshot Session::intern(std::string_view text) { return store_->intern(std::string(text)); }

void Session::add_sink(std::shared_ptr<Sink> sink) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  sinks_.push_back(std::move(sink));
}

// A stand-in for `s` without its text (see SessionOptions::release_texts).
// Pass k's after-text is pass k+1's before-text: the last stand-in is reused.
static Snapshot released(const Snapshot &s, Snapshot &last) {
  if (!s || s->released) return s;
  if (last && last->id == s->id) return last;
  auto r = std::make_shared<SnapshotData>();
  r->hash_hi = s->hash_hi;
  r->hash_lo = s->hash_lo;
  r->id = s->id;
  r->released = true;
  r->released_size = s->text.size();
  last = r;
  return r;
}

void Session::deliver(int index) {
  LowerRecord &rec = *table_->open_record(index);
  RecordTable::FileRef before_file, after_file;
  if (opts_.raw_file_per_text) {
    // The first record (in delivery order) with a text writes its file; later
    // ones point at it. Decided here, so raw files, trace.json and the live
    // report's chunks agree.
    auto place = [&](const Snapshot &s, bool after, std::string &file, RecordTable::FileRef &ref) {
      if (!s) return;
      ref = table_->place_text(s->id, index, after);
      if (ref.index >= 0) file = table_->recent_path(ref);
    };
    place(rec.before, false, rec.before_file, before_file);
    if (rec.status != STATUS_FAILED || rec.after) place(rec.after, true, rec.after_file, after_file);
  }
  const RecordList &all = *table_;  // by index: index order, parents first
  delivering_ = true;
  struct Done {
    bool &flag;
    ~Done() { flag = false; }
  } done{delivering_};
  for (auto &s : sinks_) {
    try {
      s->on_record(run_, rec, all);
    } catch (const std::exception &e) {
      util::warn(std::string("trace sink failed: ") + e.what());
    } catch (...) {
      util::warn("trace sink failed");
    }
  }
  // Delivered records are closed: sinks that write texts took them already.
  if (release_texts_) {
    rec.before = released(rec.before, last_released_);
    rec.after = released(rec.after, last_released_);
  }
  table_->close(index, before_file, after_file);
}

int Session::begin_pass(std::string_view name, Snapshot before, std::string_view ir_lang) {
  if (!enabled()) return -1;
  std::lock_guard<std::recursive_mutex> lock(mu_);
  if (finished_) return -1;
  // A nested pass belongs to its parent's phase even if a scope changed since.
  const std::string &phase = stack_.empty() ? phase_ : table_->open_record(stack_.back())->phase;
  int parent = stack_.empty() ? -1 : stack_.back();
  LowerRecord &rec = table_->open();  // status: completed
  rec.name.assign(name);
  rec.before_known = before != nullptr;
  rec.before = std::move(before);
  rec.ir_lang.assign(ir_lang);
  rec.depth = static_cast<int>(stack_.size());
  rec.parent_index = parent;
  rec.phase.assign(phase);
  int idx = rec.index;
  stack_.push_back(idx);
  starts_[idx] = Clock::now();
  return idx;
}

static void fill_stats(LowerRecord &r) {
  // Interned: same text <=> same snapshot id. Unknown before-text: not a change.
  r.changed = r.before_known && r.before != r.after && !(r.before && r.after && r.before->id == r.after->id);
  if (r.changed) {
    diff::Stats st = diff::stats(r.before_text(), r.after_text());
    r.add_lines = st.add_lines;
    r.del_lines = st.del_lines;
  } else {
    r.add_lines = r.del_lines = 0;
  }
}

double Session::elapsed_ms(int idx) {
  auto it = starts_.find(idx);
  if (it == starts_.end()) return timed_ ? 0 : -1;
  if (!timed_) {
    starts_.erase(it);
    return -1;
  }
  double ms = std::chrono::duration<double, std::milli>(Clock::now() - it->second).count();
  starts_.erase(it);
  return ms;
}

void Session::end_pass(int index, Snapshot after, double wall_ms) {
  if (index < 0 || !enabled()) return;
  std::lock_guard<std::recursive_mutex> lock(mu_);
  auto pos = std::find(stack_.begin(), stack_.end(), index);
  if (pos == stack_.end()) return;  // already closed (e.g. failed through a child)
  // Children left open by a front end that lost an event end with their parent.
  while (stack_.back() != index) {
    int child = stack_.back();
    stack_.pop_back();
    LowerRecord &c = *table_->open_record(child);
    c.status = std::string(STATUS_FAILED);
    c.error_msg = "pass did not complete (unmatched end of its parent)";
    c.wall_ms = elapsed_ms(child);
    deliver(child);
  }
  stack_.pop_back();
  LowerRecord &r = *table_->open_record(index);
  r.after = std::move(after);
  double measured = elapsed_ms(index);
  r.wall_ms = wall_ms >= 0 ? wall_ms : measured;
  fill_stats(r);
  deliver(index);
}

void Session::fail_pass(int index, std::string_view message, double wall_ms, bool ancestors,
                        Snapshot after_failure) {
  if (index < 0 || !enabled()) return;
  std::lock_guard<std::recursive_mutex> lock(mu_);
  auto pos = std::find(stack_.begin(), stack_.end(), index);
  if (pos == stack_.end()) {
    // Already failed through a child: keep the more precise message.
    if (index < static_cast<int>(table_->size()) && table_->status(index) == STATUS_FAILED &&
        table_->error(index).empty())
      table_->set_error(index, message);
    return;
  }
  // The failing pass, anything still open inside it, and every ancestor.
  std::string msg = message.empty() ? std::string("pass failed") : std::string(message);
  while (!stack_.empty()) {
    int i = stack_.back();
    if (!ancestors && i != index && std::find(stack_.begin(), stack_.end(), index) == stack_.end())
      break;  // `index` is closed; leave its ancestors open
    stack_.pop_back();
    LowerRecord &r = *table_->open_record(i);
    r.status = std::string(STATUS_FAILED);
    r.error_msg = msg;
    r.after = i == index ? after_failure : nullptr;
    r.changed = false;
    double measured = elapsed_ms(i);
    r.wall_ms = (i == index && wall_ms >= 0) ? wall_ms : measured;
    deliver(i);
  }
}

int Session::skipped_pass(std::string_view name, Snapshot at, std::string_view reason) {
  if (!enabled()) return -1;
  std::lock_guard<std::recursive_mutex> lock(mu_);
  // Same language as the pass before it: a skipped pass sees the same IR.
  std::string lang = table_->empty() ? std::string("mlir") : std::string(table_->ir_lang(table_->size() - 1));
  int idx = begin_pass(name, at, lang);
  if (idx < 0) return -1;
  stack_.pop_back();
  LowerRecord &r = *table_->open_record(idx);
  r.after = std::move(at);
  r.status = std::string(STATUS_SKIPPED);
  r.detail = std::string(reason);
  r.wall_ms = elapsed_ms(idx);
  deliver(idx);
  return idx;
}

void Session::skip_open_pass(int index, std::string_view reason) {
  if (index < 0 || !enabled()) return;
  std::lock_guard<std::recursive_mutex> lock(mu_);
  if (stack_.empty() || stack_.back() != index) return;
  stack_.pop_back();
  LowerRecord &r = *table_->open_record(index);
  r.after = r.before;
  r.status = std::string(STATUS_SKIPPED);
  r.detail = std::string(reason);
  r.wall_ms = elapsed_ms(index);
  deliver(index);
}

void Session::annotate(int index, std::string_view anchor, std::string_view detail) {
  if (index < 0 || !enabled()) return;
  std::lock_guard<std::recursive_mutex> lock(mu_);
  if (index >= static_cast<int>(table_->size())) return;
  if (!anchor.empty()) table_->set_anchor(index, anchor);
  if (!detail.empty()) table_->set_detail(index, detail);
}

Session::PhaseScope Session::phase(std::string_view label) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  std::string l(label.empty() ? std::string_view("unscoped") : label);
  int n = 1;
  auto it = std::find_if(phase_counts_.begin(), phase_counts_.end(),
                         [&](const auto &p) { return p.first == l; });
  if (it == phase_counts_.end()) phase_counts_.emplace_back(l, 1);
  else n = ++it->second;
  std::string prev = phase_;
  phase_ = n > 1 ? "run" + std::to_string(n) + "_" + l : l;
  return PhaseScope(this, std::move(prev));
}

Session::PhaseScope::~PhaseScope() {
  if (!s_) return;
  std::lock_guard<std::recursive_mutex> lock(s_->mu_);
  s_->phase_ = std::move(prev_);
}

std::string Session::current_phase() const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  return phase_;
}

Session::CodegenResult Session::codegen(std::string_view lowered_ir, std::string_view ir_lang,
                                        std::string_view source, std::string_view language,
                                        std::string_view kernel) {
  CodegenResult out{std::string(source), "", ""};
  if (!enabled()) return out;
  std::lock_guard<std::recursive_mutex> lock(mu_);
  if (finished_) return out;

  // Where the working copy lives. Each kernel gets its own file: the original
  // shared one file between kernels and lost edits.
  std::string ext = codegen::extension_for(language);
  std::string path;
  const auto &co = cfg_.codegen_output;
  if (co.has_value() && !co.value().empty()) {
    path = co.value();
    std::string k(kernel);
    auto it = std::find(codegen_kernels_.begin(), codegen_kernels_.end(), k);
    size_t nth = it - codegen_kernels_.begin();
    if (it == codegen_kernels_.end()) codegen_kernels_.push_back(k);
    if (nth > 0) {
      size_t dot = path.find_last_of('.');
      size_t slash = path.find_last_of('/');
      std::string suffix = "." + util::sanitize_component(k);
      if (dot != std::string::npos && (slash == std::string::npos || dot > slash))
        path.insert(dot, suffix);
      else
        path += suffix;
    }
  } else if (!co.is_none() && wants_html(cfg_.mode)) {
    path = run_.script_dir + "/codegen" +
           (kernel.empty() ? std::string() : "." + util::sanitize_component(kernel)) + "." + ext;
  }

  int idx = begin_pass("codegen", store_->intern(std::string(lowered_ir)), ir_lang);
  std::string prefix = "codegen/" + layout::pad_index(idx) + "_codegen: ";
  std::string parent = std::filesystem::path(path).parent_path().string();
  if (!path.empty() && !parent.empty()) {
    if (std::string err = util::make_dirs_below(layout::trace_root(run_.script_dir), parent); !err.empty()) {
      util::warn("codegen file I/O failed: " + err);
      path.clear();
    }
  }
  if (!path.empty()) {
    codegen::Outcome oc = codegen::resolve(path, source);
    bool io_failed = false;
    for (const std::string &m : oc.messages) {
      if (m.rfind("WARNING: ", 0) == 0) {
        util::warn(prefix + m.substr(9));
        io_failed = true;
      } else {
        util::info(prefix + m);
      }
    }
    out.source = std::move(oc.source);
    out.tag = std::move(oc.tag);
    // The record and the console point at the working copy only if it is there.
    if (io_failed) path.clear();
    out.working_copy = path;
  }
  stack_.pop_back();
  LowerRecord &r = *table_->open_record(idx);
  r.phase = "codegen";
  r.after = store_->intern(std::string(out.source));
  r.lang = std::string(language);
  r.anchor = std::string(kernel);
  r.detail = path;
  r.status = std::string(STATUS_CODEGEN);
  r.wall_ms = elapsed_ms(idx);
  fill_stats(r);
  r.changed = true;  // as in the original: codegen always counts as a change
  deliver(idx);
  return out;
}

void Session::reset() {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  // The run so far is over: give it its trace.json and final report, as if
  // the session had ended, before its records are forgotten.
  bool ended = enabled() && !finished_ && !table_->empty();
  if (ended) end_run({}, false);
  table_->clear();
  stack_.clear();
  phase_counts_.clear();
  phase_ = "unscoped";
  starts_.clear();
  codegen_kernels_.clear();
  store_->clear();
  // Indices restart at 0, so the next records go to a fresh run folder: the
  // original reused the folder and overwrote earlier raw files.
  if (enabled()) {
    run_.run_id = layout::make_run_id();
    run_.run_dir = run_.script_dir + "/.run_records/" + run_.run_id;
    run_.started = layout::now_iso8601();
    // The default sinks hold per-run state (chunk numbering, written files).
    if (ended) install_default_sinks();
  }
}

namespace {
// The most precise failure: the first failed record, or its deepest failed
// descendant (children follow their parents in index order). -1: none.
int first_failure(const RecordTable &all) {
  int c = -1;
  for (int i = 0, n = static_cast<int>(all.size()); i < n; ++i) {
    if (all.status(i) != STATUS_FAILED) continue;
    if (c < 0 || all.parent_index(i) == c) c = i;
  }
  return c;
}
std::string path_of(const LowerRecord &r) {
  return r.phase + "/" + layout::pad_index(r.index) + "_" + r.name;
}
// "pipeline/003_cse failed: <first line>", "" when nothing failed.
std::string failure_error(const RecordTable &all) {
  int c = first_failure(all);
  if (c < 0) return "";
  LowerRecord r = all[c];
  std::string msg = r.error_msg.substr(0, r.error_msg.find('\n'));
  return path_of(r) + " failed" + (msg.empty() ? std::string() : ": " + msg);
}
}  // namespace

void Session::end_run(std::string_view error, bool inline_only) {
  if (!stack_.empty())
    fail_pass(stack_.front(), error.empty() ? std::string_view("pass did not complete") : error);
  const RecordTable &all = *table_;
  std::string err(error);
  if (err.empty()) err = failure_error(all);
  auto finish_one = [&](Sink &s) {
    try {
      s.on_finish(run_, all, err);
    } catch (const std::exception &e) {
      util::warn(std::string("trace sink failed: ") + e.what());
    } catch (...) {
      util::warn("trace sink failed");
    }
  };
  // The sinks' final work is independent (raw files + trace.json, the
  // report, a caller's sink) and, for a large import, most of the run's tail:
  // do it side by side. The console goes last: its closing line points at
  // what the others wrote.
  std::vector<std::thread> workers;
  for (auto &s : sinks_) {
    if (s == console_) continue;
    if (inline_only) {
      finish_one(*s);
      continue;
    }
    try {
      workers.emplace_back([&finish_one, s] { finish_one(*s); });
    } catch (const std::system_error &) {
      finish_one(*s);  // no thread to be had: finish it here
    }
  }
  for (auto &w : workers) w.join();
  if (console_) finish_one(*console_);
}

void Session::finish(std::string_view error) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  if (finished_) return;
  finished_ = true;
  if (!enabled()) return;
  end_run(error, false);
}

bool Session::finish_after_crash(std::string_view message) {
  // Another thread may hold the lock for a moment (it keeps running while
  // this one handles the signal); never wait for ever inside a crash.
  std::unique_lock<std::recursive_mutex> lock(mu_, std::defer_lock);
  auto until = Clock::now() + std::chrono::seconds(2);
  while (!lock.try_lock()) {
    if (Clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (finished_ || !enabled()) return true;
  // The lock was ours already: the crash is inside a sink, whose state is
  // half-updated. Leave the run as it is on disk.
  if (delivering_) return false;
  finished_ = true;
  std::string err(message);
  if (!stack_.empty()) {
    err += " in " + path_of(*table_->open_record(stack_.back()));
    // The pass that was running gets the signal; its ancestors say where.
    int inner = stack_.back();
    fail_pass(inner, message, -1, /*ancestors=*/false);
    if (!stack_.empty()) fail_pass(stack_.front(), err);
  } else if (int c = first_failure(*table_); c >= 0 && table_->error(c) == message) {
    err += " in " + path_of((*table_)[c]);  // a front end failed it already (flusher)
  }
  end_run(err, /*inline_only=*/true);
  return true;
}

std::vector<LowerRecord> Session::records() const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  std::vector<LowerRecord> out;
  out.reserve(table_->size());
  for (const LowerRecord &r : *table_) out.push_back(r);
  return out;
}

std::size_t Session::record_count() const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  return table_->size();
}

}  // namespace lowertrace
