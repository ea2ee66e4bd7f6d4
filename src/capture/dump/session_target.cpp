// Forwards replayed dump events to a Session.
#include "lowertrace/dump.h"
#include "lowertrace/session.h"

#include <optional>

namespace lowertrace::dump {
namespace {

class SessionTarget final : public Target {
public:
  explicit SessionTarget(std::unique_ptr<Session> s) : s_(std::move(s)) {}
  ~SessionTarget() override { SessionTarget::finish({}); }

  Snapshot intern(std::string_view text) override { return s_->intern(text); }
  void set_phase(std::string_view label) override {
    // Session renames a label it sees twice (run2_<label>), so only real
    // changes open a new scope.
    if (scope_ && label == label_) return;
    scope_.reset();
    label_ = std::string(label);
    if (!label.empty()) scope_.emplace(s_->phase(label));
  }
  int begin_pass(std::string_view name, Snapshot before, std::string_view ir_lang) override {
    return s_->begin_pass(name, std::move(before), ir_lang);
  }
  void end_pass(int index, Snapshot after) override { s_->end_pass(index, std::move(after)); }
  void fail_pass(int index, std::string_view message) override { s_->fail_pass(index, message); }
  void fail_pass_with_ir(int index, std::string_view message, Snapshot after) override {
    s_->fail_pass(index, message, -1, true, std::move(after));
  }
  int skipped_pass(std::string_view name, Snapshot at, std::string_view reason) override {
    return s_->skipped_pass(name, std::move(at), reason);
  }
  void annotate(int index, std::string_view anchor, std::string_view detail) override {
    s_->annotate(index, anchor, detail);
  }
  std::string codegen(std::string_view lowered_ir, std::string_view ir_lang, std::string_view source,
                      std::string_view language, std::string_view kernel) override {
    scope_.reset();
    auto r = s_->codegen(lowered_ir, ir_lang, source, language, kernel);
    working_copy_ = r.working_copy;
    return r.source;
  }
  void finish(std::string_view error) override {
    if (done_) return;
    done_ = true;
    scope_.reset();
    s_->finish(error);
  }

private:
  std::unique_ptr<Session> s_;
  std::optional<Session::PhaseScope> scope_;
  std::string label_, working_copy_;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<Target> make_session_target(std::unique_ptr<Session> session) {
  return std::make_unique<SessionTarget>(std::move(session));
}

}  // namespace lowertrace::dump
