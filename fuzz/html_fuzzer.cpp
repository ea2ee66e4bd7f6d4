// The HTML report writer on hostile records: pass names, phases, anchors,
// errors, run metadata and IR texts straight from the input. The page must
// keep the template's structure whatever the data holds ("</script>",
// "<!--", "@@DATA@@", "@@SCRIPT@@", U+2028, invalid UTF-8, NUL):
//  - the bytes before the metadata and after the last data block are the
//    template's own (those of a page with neutral data);
//  - the metadata block holds no '<' and parses as JSON with every record;
//  - then exactly the viewer script, as in the neutral page;
//  - then one <script type="text/plain"> block per snapshot, base64 only.
#include "report/html_data.h"
#include "report/html_page.h"

#include <fuzzer/FuzzedDataProvider.h>
#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace {
using namespace lowertrace;

[[noreturn]] void fail(const char *what, const std::string &page) {
  std::fprintf(stderr, "report invariant broken: %s\n--- page tail\n%s\n", what,
               page.substr(page.size() > 4000 ? page.size() - 4000 : 0).c_str());
  std::abort();
}

Snapshot snap(std::string text, uint32_t id) {
  auto s = std::make_shared<SnapshotData>();
  s->text = std::move(text);
  s->hash_lo = std::hash<std::string>{}(s->text);
  s->hash_hi = id;  // distinct texts must not collide in the store
  s->id = id;
  return s;
}

std::string page_for(const RunInfo &run, const std::vector<LowerRecord> &recs, const std::string &error) {
  std::vector<const LowerRecord *> ptrs;
  for (const auto &r : recs) ptrs.push_back(&r);
  report::ReportData data;
  return report::page::final_page(run, ptrs, data, error);
}

const std::string kMetaOpen = "<script type=\"application/json\" id=\"lt-meta\">";
const std::string kClose = "</script>\n";

struct Parts {
  size_t meta_at = 0, meta_end = 0, viewer_at = 0, viewer_end = 0, data_end = 0;
  int blocks = 0;
};

// Splits a page into its parts; fails on anything that is not the template's shape.
Parts parse(const std::string &page) {
  Parts p;
  p.meta_at = page.find("<script");
  if (p.meta_at == std::string::npos || page.compare(p.meta_at, kMetaOpen.size(), kMetaOpen) != 0)
    fail("the first script element is not the metadata block", page);
  size_t body = p.meta_at + kMetaOpen.size();
  p.meta_end = page.find('<', body);
  if (p.meta_end == std::string::npos || page.compare(p.meta_end, kClose.size(), kClose) != 0)
    fail("a '<' inside the metadata block", page);
  p.viewer_at = page.find_first_not_of('\n', p.meta_end + kClose.size());
  if (p.viewer_at == std::string::npos) fail("the page ends after the metadata", page);
  if (page.compare(p.viewer_at, 8, "<script>") != 0) fail("the viewer script does not follow the metadata", page);
  p.viewer_end = page.find("</script>\n", p.viewer_at);
  if (p.viewer_end == std::string::npos) fail("the viewer script is not closed", page);
  size_t at = p.viewer_end + kClose.size();
  const std::string open = "<script type=\"text/plain\" id=\"z";
  while (page.compare(at, open.size(), open) == 0) {
    size_t gt = page.find("\">", at + open.size());
    if (gt == std::string::npos) fail("a data block's open tag is not closed", page);
    for (size_t k = at + open.size(); k < gt; ++k)
      if (page[k] < '0' || page[k] > '9') fail("a data block's id is not a number", page);
    size_t end = page.find('<', gt + 2);
    if (end == std::string::npos || page.compare(end, kClose.size(), kClose) != 0)
      fail("a data block holds a '<'", page);
    for (size_t k = gt + 2; k < end; ++k) {
      char c = page[k];
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/' || c == '='))
        fail("a data block is not base64", page);
    }
    at = end + kClose.size();
    ++p.blocks;
  }
  p.data_end = at;
  return p;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider in(data, size);
  RunInfo run;
  run.script = in.ConsumeRandomLengthString(64);
  run.tool = in.ConsumeRandomLengthString(32);
  run.input = in.ConsumeRandomLengthString(64);
  run.started = in.ConsumeRandomLengthString(32);
  run.run_id = in.ConsumeRandomLengthString(32);
  run.mode = Mode::Html;
  std::string error = in.ConsumeRandomLengthString(64);
  int n = in.ConsumeIntegralInRange(0, 5);
  std::vector<LowerRecord> recs(n);
  std::vector<std::string> texts;
  static const char *kStatus[] = {"completed", "failed", "skipped", "codegen"};
  uint32_t id = 0;
  Snapshot prev;
  for (int i = 0; i < n; ++i) {
    LowerRecord &r = recs[i];
    r.index = i;
    r.name = in.ConsumeRandomLengthString(48);
    r.phase = in.ConsumeRandomLengthString(24);
    r.anchor = in.ConsumeRandomLengthString(32);
    r.detail = in.ConsumeRandomLengthString(32);
    r.error_msg = in.ConsumeRandomLengthString(48);
    r.status = kStatus[in.ConsumeIntegralInRange(0, 3)];
    r.ir_lang = in.ConsumeBool() ? "mlir" : in.ConsumeRandomLengthString(8);
    r.lang = r.ir_lang;
    r.before = prev ? prev : snap(in.ConsumeRandomLengthString(512), id++);
    r.before_known = in.ConsumeBool();
    r.after = snap(in.ConsumeRandomLengthString(512), id++);
    r.changed = r.before->text != r.after->text;
    r.wall_ms = in.ConsumeFloatingPointInRange<double>(-1, 1e6);
    r.depth = i ? in.ConsumeIntegralInRange(0, 1) : 0;
    r.parent_index = r.depth ? i - 1 : -1;
    prev = in.ConsumeBool() ? r.after : nullptr;
  }
  std::string page = page_for(run, recs, error);

  // The neutral page: no records, no snapshots, empty metadata strings.
  static const std::string neutral = [] {
    RunInfo plain;
    plain.mode = Mode::Html;
    return page_for(plain, {}, "");
  }();
  static const Parts np = parse(neutral);
  Parts pp = parse(page);
  if (page.compare(0, pp.meta_at, neutral, 0, np.meta_at) != 0)
    fail("the page before the metadata is not the template's", page);
  if (page.compare(pp.viewer_at, pp.viewer_end - pp.viewer_at, neutral, np.viewer_at,
                   np.viewer_end - np.viewer_at) != 0)
    fail("the viewer script differs from the neutral page's", page);
  if (page.compare(pp.data_end, std::string::npos, neutral, np.data_end, std::string::npos) != 0)
    fail("the page after the data blocks is not the template's", page);

  nlohmann::json meta = nlohmann::json::parse(
      page.begin() + pp.meta_at + kMetaOpen.size(), page.begin() + pp.meta_end, nullptr, false);
  if (meta.is_discarded()) fail("the metadata is not JSON", page);
  if (!meta.contains("recs") || meta["recs"].size() != recs.size()) fail("records lost in the metadata", page);
  if (!meta.contains("snaps") || meta["snaps"].size() != static_cast<size_t>(pp.blocks))
    fail("snapshot list and data blocks disagree", page);
  // (Referencing the engine's to_string also pulls it in: report uses it
  // without linking the engine, see fuzz/CMakeLists.txt.)
  if (meta["run"].value("mode", "") != lowertrace::to_string(run.mode)) fail("run mode lost", page);
  return 0;
}
