#include "capture/triton/compile_import.h"

#include "lowertrace/dump.h"
#include "lowertrace/session.h"
#include "report/variant_index.h"
#include "util/fs.h"
#include "util/log.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

namespace lowertrace::triton {
namespace {

// What the importer learns about the run, shared with the target it owns.
struct Seen {
  std::string run_dir, script_dir, run_id, working_copy;
};

// Forwards to a Session target; names the working copy after the variant
// (codegen.<kernel>.<variant>.ptx) and records where the run lives.
class VariantTarget final : public dump::Target {
public:
  VariantTarget(std::unique_ptr<Session> s, std::string variant_kernel, std::string error, Seen *seen)
      : session_(s.get()), inner_(dump::make_session_target(std::move(s))),
        variant_kernel_(std::move(variant_kernel)), error_(std::move(error)), seen_(seen) {
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
  void finish(std::string_view error) override { inner_->finish(error.empty() ? std::string_view(error_) : error); }

private:
  Session *session_;  // owned by inner_
  std::unique_ptr<dump::Target> inner_;
  std::string variant_kernel_, error_;
  Seen *seen_;
};

// The user's diagnostics went to the capture with the dumps; give them back.
void echo_diagnostics(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  while (std::getline(in, line))
    if (dump::is_diagnostic_line(line)) {
      line += '\n';
      std::fwrite(line.data(), 1, line.size(), stderr);
    }
  std::fflush(stderr);
}

}  // namespace

CompileOutcome import_compile(const CompileCapture &c, const Config &cfg) {
  CompileOutcome out;
  echo_diagnostics(c.dump_file);
  Seen seen;
  dump::ImportOptions opts;
  opts.format = dump::Format::Triton;
  opts.stage_dir = c.stage_dir;
  std::string vk = c.kernel + "." + c.variant;
  bool made = false;
  dump::TargetFactory factory = [&](const dump::Compilation &) -> std::unique_ptr<dump::Target> {
    SessionOptions so;
    so.script = c.kernel;
    so.input = c.input;
    so.tool = "lowertrace (Python, Triton hooks)";
    so.live_report = false;
    so.batch_console = true;
    so.timed = false;
    so.release_texts = true;
    // One capture is one compile; should the importer see more, they still
    // go to this variant's folder, each as a run of its own.
    if (made) out.warnings.push_back("one Triton compile produced more than one pass sequence");
    made = true;
    return std::make_unique<VariantTarget>(std::make_unique<Session>(so, cfg), vk, c.error, &seen);
  };
  dump::Importer imp(opts, factory);
  if (std::string err = imp.feed_file(c.dump_file); !err.empty()) out.warnings.push_back("import: " + err);
  dump::ImportResult r = imp.finish();
  out.dumps = r.dumps;
  out.records = r.records;
  for (auto &w : r.warnings) out.warnings.push_back(w);
  for (const auto &cg : r.codegens) {
    out.edited = cg.source != cg.lowered;
    if (out.edited) out.source = cg.source;
  }
  out.run_dir = seen.run_dir;
  out.working_copy = seen.working_copy;
  if (!seen.script_dir.empty()) {
    nlohmann::json v;
    v["kernel"] = c.kernel;
    v["variant"] = c.variant;
    v["describe"] = nlohmann::json::parse(c.describe_json, nullptr, false);
    if (v["describe"].is_discarded()) v["describe"] = nlohmann::json::object();
    v["run_id"] = seen.run_id;
    v["working_copy"] = std::filesystem::path(seen.working_copy).filename().string();
    v["records"] = r.records;
    v["error"] = c.error;
    v["edited"] = out.edited;
    out.index_html = report::record_variant(seen.script_dir, c.variant, v.dump());
  }
  return out;
}

}  // namespace lowertrace::triton
