// Property: random sequences of user edits and codegen changes never lose an edit.
//
// An "edit" is a text the user wrote that no codegen ever produced. Once the
// workflow has seen it (it was in W when resolve() ran), it must stay in W or
// in a backup until the user overwrites it themselves. Along the way every
// outcome must follow the decision table, and backups must never change.
#include "engine/codegen_workflow.h"

#include "codegen_test_util.h"

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>

namespace lowertrace::codegen {
namespace {

using testing::get;
using testing::put;
using testing::TempDir;

std::string rstrip(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

struct Model {
  std::string dir, w;
  std::set<std::string> protected_edits;       // seen by resolve(), not yet overwritten by the user
  std::map<std::string, std::string> backups;  // every backup seen so far, with its first content
  std::set<std::string> saved;                 // the contents of `backups`

  // Picks up new backup files (old ones are checked once, in verify_backups()).
  void scan_backups() {
    for (const auto &e : std::filesystem::directory_iterator(dir)) {
      std::string n = e.path().filename().string();
      if (n.find(".bak.") == std::string::npos || backups.count(n)) continue;
      backups[n] = *get(e.path().string());
      saved.insert(backups[n]);
    }
  }
  // Backups are never rewritten or removed.
  void verify_backups() const {
    for (const auto &[n, t] : backups) EXPECT_EQ(get(dir + "/" + n), t) << n << " changed or vanished";
  }
  // The user is about to replace or delete W: an edit only W held is theirs to lose.
  void user_replaces_w() {
    std::optional<std::string> cur = get(w);
    if (cur && protected_edits.count(*cur) && !saved.count(*cur)) protected_edits.erase(*cur);
  }
  // The property: no edit the workflow has seen is lost.
  ::testing::AssertionResult nothing_lost() {
    scan_backups();
    std::optional<std::string> now = get(w);
    for (const std::string &e : protected_edits)
      if (now != e && !saved.count(e)) return ::testing::AssertionFailure() << "lost \"" << e << "\"";
    return ::testing::AssertionSuccess();
  }
};

// What the table says, from the state before the call.
std::string expected_tag(const std::optional<std::string> &w, const std::optional<std::string> &o,
                         const std::string &gen) {
  if (!w) return "INIT";
  if (!o) return rstrip(*w) == rstrip(gen) ? "INIT" : "INIT-BACKUP";
  bool edited = rstrip(*w) != rstrip(*o), changed = rstrip(gen) != rstrip(*o);
  if (!edited && !changed) return "";
  if (!edited) return "REGENERATED";
  if (!changed) return "PATCHED";
  return rstrip(*w) == rstrip(gen) ? "SYNCED" : "CONFLICT";
}

void run_sequence(unsigned seed, int steps, std::map<std::string, int> &tags_seen) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  TempDir d;
  Model m;
  m.dir = d.path();
  m.w = d / "codegen.ptx";
  std::mt19937 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  // A few generator versions, some differing only in trailing whitespace.
  const std::vector<std::string> gens = {"v0\n", "v0\n\n", "v1\n", "v1", "v2\n", "v3 \n"};
  int edit_no = 0;

  for (int step = 0; step < steps; ++step) {
    int action = pick(20);
    if (action < 10) {  // a compile run
      std::string gen = gens[pick(static_cast<int>(gens.size()))];
      std::optional<std::string> w0 = get(m.w), o0 = get(m.w + ".original");
      if (w0 && w0->rfind("edit ", 0) == 0) m.protected_edits.insert(*w0);
      Outcome out = resolve(m.w, gen);
      std::string want = expected_tag(w0, o0, gen);
      ASSERT_EQ(out.tag, want) << "step " << step;
      ++tags_seen[want];
      bool from_w = want == "PATCHED" || want == "SYNCED";
      ASSERT_EQ(out.source, from_w ? *w0 : gen) << "step " << step;
      ASSERT_EQ(get(m.w + ".latest"), gen);
      ASSERT_TRUE(get(m.w) && get(m.w + ".original"));
      if (want != "PATCHED") {
        ASSERT_EQ(rstrip(*get(m.w)), rstrip(*get(m.w + ".original")));
      }
      ASSERT_TRUE(m.nothing_lost()) << "step " << step;
    } else if (action < 14) {  // a fresh edit
      m.user_replaces_w();
      put(m.w, "edit " + std::to_string(edit_no++) + "\n");
    } else if (action < 15) {  // trailing-whitespace-only change: not an edit
      if (auto cur = get(m.w)) {
        m.user_replaces_w();
        put(m.w, *cur + "  \n");
      }
    } else if (action < 16) {  // the user types exactly what a future codegen will produce
      m.user_replaces_w();
      put(m.w, gens[pick(static_cast<int>(gens.size()))]);
    } else if (action < 17) {  // revert to the baseline
      if (auto o = get(m.w + ".original")) {
        m.user_replaces_w();
        put(m.w, *o);
      }
    } else if (action < 18) {
      m.user_replaces_w();
      std::filesystem::remove(m.w);
    } else if (action < 19) {
      std::filesystem::remove(m.w + ".original");
    } else {  // re-run with the same output as the baseline (common in practice)
      if (auto o = get(m.w + ".original")) {
        std::optional<std::string> w0 = get(m.w);
        if (w0 && w0->rfind("edit ", 0) == 0) m.protected_edits.insert(*w0);
        Outcome out = resolve(m.w, *o);
        ASSERT_EQ(out.tag, expected_tag(w0, o, *o));
        ASSERT_TRUE(m.nothing_lost()) << "step " << step;
      }
    }
  }
  m.verify_backups();
}

TEST(CodegenProperty, UserEditsAreNeverLost) {
  std::map<std::string, int> tags_seen;
  for (unsigned seed = 1; seed <= 16; ++seed) {
    run_sequence(seed, 200, tags_seen);
    if (HasFatalFailure()) return;
  }
  // The sequences must actually reach every case of the table.
  for (const char *t : {"", "INIT", "INIT-BACKUP", "REGENERATED", "PATCHED", "SYNCED", "CONFLICT"})
    EXPECT_GT(tags_seen[t], 0) << "case \"" << t << "\" never happened";
}

}  // namespace
}  // namespace lowertrace::codegen
