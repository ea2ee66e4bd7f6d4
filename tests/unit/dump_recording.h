// A dump::Target that records events, so parser tests need no engine.
#pragma once

#include "lowertrace/dump.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace lowertrace::dump::testing {

struct Rec {
  std::string phase, name, before, after, status, error, anchor, detail, lang;
  int depth = 0;
  bool before_known = true;  // begin_pass got a before-text (not null)
  bool after_known = false;  // end_pass, or a failure with the IR after it
};

class RecordingTarget : public Target {
public:
  std::vector<Rec> recs;
  std::vector<int> stack;
  std::string phase;
  std::vector<std::string> codegens;
  bool finished = false;

  Snapshot intern(std::string_view text) override {
    auto s = std::make_shared<SnapshotData>();
    s->text = std::string(text);
    return s;
  }
  void set_phase(std::string_view label) override { phase = std::string(label); }
  int begin_pass(std::string_view name, Snapshot before, std::string_view lang) override {
    Rec r;
    r.phase = phase;
    r.name = std::string(name);
    r.before = std::string(text_of(before));
    r.before_known = before != nullptr;
    r.lang = std::string(lang);
    r.status = "open";
    r.depth = static_cast<int>(stack.size());
    recs.push_back(r);
    stack.push_back(static_cast<int>(recs.size()) - 1);
    return stack.back();
  }
  void end_pass(int index, Snapshot after) override {
    if (stack.empty() || stack.back() != index) throw std::runtime_error("end_pass out of order");
    stack.pop_back();
    recs[index].after = std::string(text_of(after));
    recs[index].after_known = after != nullptr;
    recs[index].status = "completed";
  }
  void fail_pass_with_ir(int index, std::string_view msg, Snapshot after) override {
    fail_pass(index, msg);
    recs[index].after = std::string(text_of(after));
    recs[index].after_known = after != nullptr;
  }
  void fail_pass(int index, std::string_view msg) override {
    while (!stack.empty()) {  // like Session: the pass and its open ancestors
      int i = stack.back();
      stack.pop_back();
      recs[i].status = "failed";
      if (recs[i].error.empty()) recs[i].error = std::string(msg);
      if (i == index) break;
    }
    for (int i : stack) recs[i].status = "failed";
    stack.clear();
  }
  int skipped_pass(std::string_view name, Snapshot at, std::string_view reason) override {
    Rec r;
    r.phase = phase;
    r.name = std::string(name);
    r.before = r.after = std::string(text_of(at));
    r.status = "skipped";
    r.error = std::string(reason);
    r.depth = static_cast<int>(stack.size());
    recs.push_back(r);
    return static_cast<int>(recs.size()) - 1;
  }
  void annotate(int index, std::string_view anchor, std::string_view detail) override {
    recs[index].anchor = std::string(anchor);
    recs[index].detail = std::string(detail);
  }
  std::string codegen(std::string_view lowered, std::string_view, std::string_view source,
                      std::string_view, std::string_view kernel) override {
    codegens.push_back(std::string(kernel));
    Rec r;
    r.phase = "codegen";
    r.name = "codegen";
    r.before = std::string(lowered);
    r.after = std::string(source);
    r.status = "codegen";
    recs.push_back(r);
    return std::string(source);
  }
  void finish(std::string_view) override { finished = true; }
};

// Forwards to a RecordingTarget that outlives the importer.
class Proxy : public Target {
public:
  explicit Proxy(std::shared_ptr<RecordingTarget> t) : t_(std::move(t)) {}
  Snapshot intern(std::string_view s) override { return t_->intern(s); }
  void set_phase(std::string_view l) override { t_->set_phase(l); }
  int begin_pass(std::string_view n, Snapshot b, std::string_view l) override { return t_->begin_pass(n, b, l); }
  void end_pass(int i, Snapshot a) override { t_->end_pass(i, a); }
  void fail_pass(int i, std::string_view m) override { t_->fail_pass(i, m); }
  void fail_pass_with_ir(int i, std::string_view m, Snapshot a) override { t_->fail_pass_with_ir(i, m, a); }
  int skipped_pass(std::string_view n, Snapshot a, std::string_view r) override { return t_->skipped_pass(n, a, r); }
  void annotate(int i, std::string_view a, std::string_view d) override { t_->annotate(i, a, d); }
  std::string codegen(std::string_view a, std::string_view b, std::string_view c, std::string_view d,
                      std::string_view e) override {
    return t_->codegen(a, b, c, d, e);
  }
  void finish(std::string_view e) override { t_->finish(e); }

private:
  std::shared_ptr<RecordingTarget> t_;
};

struct Imported {
  std::vector<std::shared_ptr<RecordingTarget>> targets;
  std::vector<Compilation> compilations;
  ImportResult result;
  const std::vector<Rec> &recs(std::size_t i = 0) const { return targets.at(i)->recs; }
};

// Imports `text` fed in chunks of `chunk` bytes.
inline Imported import_text(std::string_view text, Format fmt = Format::Auto, std::size_t chunk = 4096,
                            std::string stage_dir = {}) {
  auto out = std::make_shared<Imported>();
  ImportOptions o;
  o.format = fmt;
  o.stage_dir = std::move(stage_dir);
  {
    Importer imp(o, [out](const Compilation &c) {
      auto t = std::make_shared<RecordingTarget>();
      out->targets.push_back(t);
      out->compilations.push_back(c);
      return std::make_unique<Proxy>(t);
    });
    for (std::size_t i = 0; i < text.size(); i += chunk) imp.feed(text.substr(i, chunk));
    out->result = imp.finish();
  }
  return *out;
}

inline std::string read_all(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The repository's copies of the shared fixtures (tests/data/fixtures).
inline std::string fixtures_dir() {
  const char *e = std::getenv("LT_FIXTURES");
  if (e && *e) return e;
  return std::string(LT_SOURCE_DIR) + "/tests/data/fixtures";
}

}  // namespace lowertrace::dump::testing
