// The HTML report's C++ side: encodings, snapshot deltas, page assembly and
// the sink's on-disk life cycle (chunks while live, one file at the end).
#include "report/html.h"
#include "report/html_codec.h"
#include "report/html_data.h"
#include "report/html_page.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace lowertrace;
namespace fs = std::filesystem;

namespace {

std::string hex(std::string_view b) {
  static const char *d = "0123456789abcdef";
  std::string s;
  for (unsigned char c : b) { s += d[c >> 4]; s += d[c & 15]; }
  return s;
}

std::string unbase64(std::string_view s) {
  std::string out;
  int val = 0, bits = -8;
  for (char c : s) {
    const char *tbl = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char *p = std::strchr(tbl, c);
    if (c == '=' || !p) break;
    val = (val << 6) + static_cast<int>(p - tbl);
    bits += 6;
    if (bits >= 0) { out += static_cast<char>((val >> bits) & 0xff); bits -= 8; }
  }
  return out;
}

std::string gunzip(std::string_view z) {
  z_stream zs{};
  EXPECT_EQ(inflateInit2(&zs, 15 + 16), Z_OK);
  std::string out;
  char buf[4096];
  zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(z.data()));
  zs.avail_in = static_cast<uInt>(z.size());
  int rc;
  do {
    zs.next_out = reinterpret_cast<Bytef *>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof buf - zs.avail_out);
  } while (rc == Z_OK);
  inflateEnd(&zs);
  EXPECT_EQ(rc, Z_STREAM_END);
  return out;
}

// The viewer's applyDelta, in C++.
std::string apply_delta(std::string_view base, const std::string &delta) {
  std::vector<std::string> b, out;
  size_t start = 0;
  for (;;) {
    size_t nl = base.find('\n', start);
    if (nl == std::string_view::npos) { b.emplace_back(base.substr(start)); break; }
    b.emplace_back(base.substr(start, nl - start));
    start = nl + 1;
  }
  size_t i = 0;
  for (const auto &g : nlohmann::json::parse(delta)) {
    for (int k = 0; k < g[0].get<int>(); ++k) out.push_back(b[i++]);
    i += g[1].get<size_t>();
    for (const auto &l : g[2]) out.push_back(l.get<std::string>());
  }
  while (i < b.size()) out.push_back(b[i++]);
  std::string t;
  for (size_t k = 0; k < out.size(); ++k) t += (k ? "\n" : "") + out[k];
  return t;
}

Snapshot snap(std::string text, std::uint32_t id = 0) {
  auto d = std::make_shared<SnapshotData>();
  d->text = std::move(text);
  d->hash_hi = std::hash<std::string>{}(d->text);
  d->hash_lo = d->text.size();
  d->id = id;
  return d;
}

std::string numbered(int n, int changed_at = -1) {
  std::string t;
  for (int i = 0; i < n; ++i) t += (i == changed_at ? "changed " : "line ") + std::to_string(i) + "\n";
  return t;
}

std::string read(const fs::path &p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

TEST(HtmlCodec, Base64Vectors) {
  EXPECT_EQ(report::codec::base64(""), "");
  EXPECT_EQ(report::codec::base64("f"), "Zg==");
  EXPECT_EQ(report::codec::base64("fo"), "Zm8=");
  EXPECT_EQ(report::codec::base64("foo"), "Zm9v");
  EXPECT_EQ(report::codec::base64("foobar"), "Zm9vYmFy");
}

TEST(HtmlCodec, Sha256Vectors) {
  EXPECT_EQ(hex(report::codec::sha256("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex(report::codec::sha256("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // Two blocks of padding.
  EXPECT_EQ(hex(report::codec::sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(HtmlCodec, GzipRoundTrip) {
  std::string text = numbered(500) + std::string("\0\xff tail", 7);
  EXPECT_EQ(gunzip(unbase64(report::codec::gzip_base64(text))), text);
  EXPECT_EQ(gunzip(unbase64(report::codec::gzip_base64(""))), "");
}

TEST(HtmlCodec, ScriptSafeJson) {
  nlohmann::json j = {{"s", "</script><!-- a&b \u2028 \u2029 >"}};
  std::string s = report::codec::script_safe_json(j);
  EXPECT_EQ(s.find_first_of("<>&"), std::string::npos) << s;
  EXPECT_EQ(s.find("\xe2\x80\xa8"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(s), j);
  // Invalid UTF-8 is replaced, not thrown.
  nlohmann::json bad = {{"s", std::string("ok \xff\xfe")}};
  EXPECT_NO_THROW(report::codec::script_safe_json(bad));
}

TEST(HtmlData, DeltaRebuildsTheText) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {numbered(100), numbered(100, 50)},
      {numbered(100), "new first\n" + numbered(100)},
      {numbered(100), numbered(100) + "tail"},   // no trailing newline after
      {numbered(10) + "x", numbered(10) + "x\n"},  // only the newline differs
      {"", numbered(3)},
      {numbered(3), ""},
      {"a\nb\nc\n", "c\nb\na\n"},
      // JSON-special bytes in inserted lines: quotes, backslashes, controls.
      {"a\n", std::string("loc(\"k.py\":1:2) \\n \t tab \x01 \x1f end\nq\"\\\"\n")},
      {"a\n", std::string("nul \0 inside\n", 14)},
  };
  for (const auto &[a, b] : cases) EXPECT_EQ(apply_delta(a, report::line_delta(a, b)), b) << a << "|" << b;
}

TEST(HtmlData, SnapshotsStoredOnceAndAsDeltas) {
  report::ReportData d;
  auto a = snap(numbered(2000)), a2 = snap(numbered(2000)), b = snap(numbered(2000, 7));
  int ka = d.ref(a, nullptr);
  EXPECT_EQ(d.ref(a2, nullptr), ka) << "same text, other object: stored once";
  int kb = d.ref(b, a);
  EXPECT_NE(kb, ka);
  EXPECT_EQ(d.stored(kb).base, ka);
  EXPECT_LT(d.stored(kb).payload.size(), d.stored(ka).payload.size());
  EXPECT_EQ(apply_delta(a->text, gunzip(unbase64(d.stored(kb).payload))), b->text);
  // A long chain of small edits gets a full copy every kMaxChain links.
  Snapshot prev = b;
  int fulls = 0;
  for (int i = 0; i < 3 * report::ReportData::kMaxChain; ++i) {
    auto next = snap(numbered(2000, 100 + i));
    int k = d.ref(next, prev);
    EXPECT_LT(d.stored(k).chain, report::ReportData::kMaxChain);
    fulls += d.stored(k).base < 0;
    prev = next;
  }
  EXPECT_GE(fulls, 2);
}

TEST(HtmlPage, FinalPageIsSafeAndHashed) {
  LowerRecord r;
  r.phase = "<img src=x onerror=alert(1)>";
  r.name = "</script><script>alert(2)</script>";
  r.error_msg = "<!-- \u2028";
  r.before = snap("x </script> y\n");
  r.after = snap("x </script> z\n");
  r.changed = true;
  RunInfo run;
  run.input = "</script>";
  report::ReportData data;
  std::string html = report::page::final_page(run, std::vector<const LowerRecord *>{&r}, data, "");
  // The only '</script' in the page are the elements' own end tags.
  size_t opens = 0, closes = 0;
  for (size_t p = 0; (p = html.find("<script", p)) != std::string::npos; ++p) ++opens;
  for (size_t p = 0; (p = html.find("</script", p)) != std::string::npos; ++p) ++closes;
  EXPECT_EQ(opens, closes);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find("<!-- "), std::string::npos);
  // The CSP names the inline viewer by its hash.
  size_t s0 = html.rfind("<script>") + 8, s1 = html.find("</script>", s0);
  std::string script = html.substr(s0, s1 - s0);
  EXPECT_NE(html.find("script-src " + report::codec::csp_hash(script)), std::string::npos);
  EXPECT_EQ(html.find("unsafe-inline"), std::string::npos);
}

// Template keys inside the data (libFuzzer's minimal input was "@@DATA@@" in
// a pass name) must stay text: filling the template used to splice the
// payloads into the metadata at that spot, and nothing rendered.
TEST(HtmlPage, TemplateKeysInTheDataStayText) {
  for (const char *key : {"@@DATA@@", "@@META@@", "@@SCRIPT@@", "@@STYLE@@", "@@CSP@@", "@@"}) {
    LowerRecord r;
    r.phase = key;
    r.name = std::string("a") + key + "b";
    r.error_msg = key;
    r.before = snap(std::string(key) + "\n", 0);
    r.after = snap(std::string("x ") + key + "\n", 1);
    r.changed = true;
    RunInfo run;
    run.input = key;
    run.script = key;
    report::ReportData data;
    std::string html = report::page::final_page(run, std::vector<const LowerRecord *>{&r}, data, key);
    // The metadata is valid JSON holding the name as given...
    size_t m0 = html.find("id=\"lt-meta\">");
    ASSERT_NE(m0, std::string::npos) << key;
    m0 = html.find('>', m0) + 1;
    size_t m1 = html.find("</script>", m0);
    auto meta = nlohmann::json::parse(html.substr(m0, m1 - m0), nullptr, false);
    ASSERT_FALSE(meta.is_discarded()) << key;
    EXPECT_EQ(meta["recs"][0]["n"], r.name) << key;
    EXPECT_EQ(meta["run"]["input"], key) << key;
    // ...the viewer script is there once, after it, with its hash in the CSP...
    size_t s0 = html.rfind("<script>") + 8, s1 = html.find("</script>", s0);
    ASSERT_GT(s0, m1) << key;
    EXPECT_NE(html.find("script-src " + report::codec::csp_hash(html.substr(s0, s1 - s0))), std::string::npos)
        << key;
    // ...and every snapshot payload follows the viewer.
    EXPECT_GT(html.find("id=\"z0\""), s1) << key;
    EXPECT_GT(html.find("id=\"z1\""), s1) << key;
  }
}

TEST(HtmlSink, LiveChunksThenOneFile) {
  fs::path root = fs::temp_directory_path() / ("lt-html-sink-" + std::to_string(::getpid()));
  fs::remove_all(root);
  RunInfo run;
  run.mode = Mode::Html;
  run.script_dir = (root / "k").string();
  run.run_id = "run_x";
  run.run_dir = (root / "k" / ".run_records" / "run_x").string();
  auto sink = report::make_html_sink();
  std::vector<std::unique_ptr<LowerRecord>> recs;
  std::vector<const LowerRecord *> all;
  Snapshot cur = snap(numbered(300));
  for (int i = 0; i < 3; ++i) {
    auto r = std::make_unique<LowerRecord>();
    r->index = i;
    r->phase = "pipeline";
    r->name = "p" + std::to_string(i);
    r->before = cur;
    cur = snap(numbered(300, i));
    r->after = cur;
    r->changed = true;
    all.push_back(r.get());
    recs.push_back(std::move(r));
    sink->on_record(run, *all.back(), all);
    fs::path chunk = fs::path(run.run_dir) / "report_data" / ("00000" + std::to_string(i) + ".js");
    ASSERT_TRUE(fs::exists(chunk)) << chunk;
    EXPECT_EQ(read(chunk).rfind("__ltChunk(", 0), 0u);
  }
  std::string shell = read(fs::path(run.run_dir) / "report.html");
  EXPECT_NE(shell.find("\"live\":true"), std::string::npos);
  EXPECT_NE(shell.find(".run_records/run_x/report_data/"), std::string::npos)
      << "the shell also finds its chunks when opened through the script-folder link";
  EXPECT_TRUE(fs::is_symlink(fs::path(run.script_dir) / "report.html"));
  sink->on_finish(run, all, "");
  EXPECT_FALSE(fs::exists(fs::path(run.run_dir) / "report_data"));
  std::string final_html = read(fs::path(run.script_dir) / "report.html");
  EXPECT_NE(final_html.find("\"live\":false"), std::string::npos);
  EXPECT_EQ(final_html.find(" src="), std::string::npos);
  // 4 distinct snapshots: the first text and three edits.
  for (int k = 0; k < 4; ++k) EXPECT_NE(final_html.find("id=\"z" + std::to_string(k) + "\""), std::string::npos);
  EXPECT_EQ(final_html.find("id=\"z4\""), std::string::npos);
  fs::remove_all(root);
}

TEST(HtmlSink, TerminalModeWritesNothing) {
  fs::path root = fs::temp_directory_path() / ("lt-html-term-" + std::to_string(::getpid()));
  RunInfo run;
  run.mode = Mode::Terminal;
  run.script_dir = (root / "k").string();
  run.run_dir = (root / "k" / "run").string();
  LowerRecord r;
  auto sink = report::make_html_sink();
  std::vector<const LowerRecord *> all{&r};
  sink->on_record(run, r, all);
  sink->on_finish(run, all, "");
  EXPECT_FALSE(fs::exists(root));
}
