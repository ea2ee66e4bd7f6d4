#include "capture/triton/compile_import.h"

#include "lowertrace/dump.h"
#include "lowertrace/session.h"
#include "report/variant_index.h"
#include "util/fs.h"
#include "util/log.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <filesystem>
#include <algorithm>
#include <memory>

namespace lowertrace::triton {
namespace {

// What the importer learns about the run, shared with the target it owns.
struct Seen {
  std::string run_dir, script_dir, run_id, working_copy;
  std::string error;  // the compile's exception, known at the end
};

// Forwards to a Session target; names the working copy after the variant
// (codegen.<kernel>.<variant>.ptx) and records where the run lives.
class VariantTarget final : public dump::Target {
public:
  VariantTarget(std::unique_ptr<Session> s, std::string variant_kernel, Seen *seen)
      : session_(s.get()), inner_(dump::make_session_target(std::move(s))),
        variant_kernel_(std::move(variant_kernel)), seen_(seen) {
    seen_->run_dir = session_->run().run_dir;
    seen_->script_dir = session_->run().script_dir;
    seen_->run_id = session_->run().run_id;
  }
  Snapshot intern(std::string_view t) override { return inner_->intern(t); }
  void set_phase(std::string_view l) override { inner_->set_phase(l); }
  int begin_pass(std::string_view n, Snapshot b, std::string_view lang) override {
    return inner_->begin_pass(n, std::move(b), lang);
  }
  void end_pass(int i, Snapshot a) override { inner_->end_pass(i, std::move(a)); }
  void fail_pass(int i, std::string_view m) override { inner_->fail_pass(i, m); }
  void fail_pass_with_ir(int i, std::string_view m, Snapshot a) override { inner_->fail_pass_with_ir(i, m, std::move(a)); }
  int skipped_pass(std::string_view n, Snapshot at, std::string_view r) override {
    return inner_->skipped_pass(n, std::move(at), r);
  }
  void annotate(int i, std::string_view a, std::string_view d) override { inner_->annotate(i, a, d); }
  std::string codegen(std::string_view lowered, std::string_view ir_lang, std::string_view source,
                      std::string_view language, std::string_view) override {
    std::string out = inner_->codegen(lowered, ir_lang, source, language, variant_kernel_);
    for (const auto &r : session_->records())
      if (r.phase == "codegen") seen_->working_copy = r.detail;
    return out;
  }
  void finish(std::string_view error) override { inner_->finish(error.empty() ? std::string_view(seen_->error) : error); }

private:
  Session *session_;  // owned by inner_
  std::unique_ptr<dump::Target> inner_;
  std::string variant_kernel_;
  Seen *seen_;
};

// Picks the compiler's diagnostics out of the capture as it streams by
// ("x.py:3:4: error: ..."): they were the user's to see, and are shown again
// at the end without reading the capture a second time.
class DiagnosticScan {
public:
  void feed(std::string_view bytes) {
    while (!bytes.empty()) {
      std::size_t nl = bytes.find('\n');
      if (nl == std::string_view::npos) {
        if (partial_.size() < 4096) partial_.append(bytes.substr(0, 4096 - partial_.size()));
        return;
      }
      partial_.append(bytes.substr(0, std::min<std::size_t>(nl, 4096)));
      if (dump::is_diagnostic_line(partial_)) found_ += partial_ + "\n";
      partial_.clear();
      bytes.remove_prefix(nl + 1);
    }
  }
  void echo() {
    if (!partial_.empty() && dump::is_diagnostic_line(partial_)) found_ += partial_ + "\n";
    std::fwrite(found_.data(), 1, found_.size(), stderr);
    std::fflush(stderr);
  }

private:
  std::string partial_, found_;
};

}  // namespace

struct CompileImport::Impl {
  CompileCapture c;
  Config cfg;
  Seen seen;
  std::vector<std::string> warnings;
  bool made = false;
  std::unique_ptr<dump::Importer> imp;
  std::atomic<bool> done{false};
  std::thread reader;
  DiagnosticScan diagnostics;
  bool finished = false;

  // Follows the capture file as the compile writes it.
  void follow() {
    std::FILE *f = std::fopen(c.dump_file.c_str(), "rb");
    if (!f) {
      warnings.push_back("cannot read the capture " + c.dump_file);
      return;
    }
    std::string buf(1 << 20, '\0');
    for (;;) {
      bool last = done.load(std::memory_order_acquire);  // read before the final pass
      std::size_t n;
      while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) {
        std::string_view chunk(buf.data(), n);
        diagnostics.feed(chunk);
        imp->feed(chunk);
      }
      if (last) break;
      std::clearerr(f);
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    std::fclose(f);
    imp->end_input();
  }
};

CompileImport::CompileImport(CompileCapture c, Config cfg) : impl_(std::make_unique<Impl>()) {
  Impl &m = *impl_;
  m.c = std::move(c);
  m.cfg = std::move(cfg);
  dump::ImportOptions opts;
  opts.format = dump::Format::Triton;
  opts.stage_dir = m.c.stage_dir;
  opts.in_order = true;  // one compile, one stream, print order
  std::string vk = m.c.kernel + "." + m.c.variant;
  dump::TargetFactory factory = [&m, vk](const dump::Compilation &) -> std::unique_ptr<dump::Target> {
    SessionOptions so;
    so.script = m.c.kernel;
    so.input = m.c.input;
    so.tool = "lowertrace (Python, Triton hooks)";
    so.live_report = false;
    so.batch_console = true;
    so.timed = false;
    so.release_texts = true;
    // One capture is one compile; should the importer see more, they still
    // go to this variant's folder, each as a run of its own.
    if (m.made) m.warnings.push_back("one Triton compile produced more than one pass sequence");
    m.made = true;
    return std::make_unique<VariantTarget>(std::make_unique<Session>(so, m.cfg), vk, &m.seen);
  };
  m.imp = std::make_unique<dump::Importer>(opts, factory);
  m.reader = std::thread([&m] { m.follow(); });
}

CompileImport::~CompileImport() {
  if (!impl_->finished) finish({});
}

CompileOutcome CompileImport::finish(const std::string &error) {
  Impl &m = *impl_;
  CompileOutcome out;
  if (m.finished) return out;
  m.finished = true;
  m.done.store(true, std::memory_order_release);
  if (m.reader.joinable()) m.reader.join();
  m.diagnostics.echo();
  m.seen.error = error;
  dump::ImportResult r = m.imp->finish();
  out.dumps = r.dumps;
  out.records = r.records;
  out.warnings = std::move(m.warnings);
  for (auto &w : r.warnings) out.warnings.push_back(w);
  for (const auto &cg : r.codegens) {
    out.edited = cg.source != cg.lowered;
    if (out.edited) out.source = cg.source;
  }
  out.run_dir = m.seen.run_dir;
  out.working_copy = m.seen.working_copy;
  if (!m.seen.script_dir.empty()) {
    nlohmann::json v;
    v["kernel"] = m.c.kernel;
    v["variant"] = m.c.variant;
    v["describe"] = nlohmann::json::parse(m.c.describe_json, nullptr, false);
    if (v["describe"].is_discarded()) v["describe"] = nlohmann::json::object();
    v["run_id"] = m.seen.run_id;
    v["working_copy"] = std::filesystem::path(m.seen.working_copy).filename().string();
    v["records"] = r.records;
    v["error"] = error;
    v["edited"] = out.edited;
    out.index_html = report::record_variant(m.seen.script_dir, m.c.variant, v.dump());
  }
  return out;
}

}  // namespace lowertrace::triton
