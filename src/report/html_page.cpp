#include "report/html_page.h"

#include "report/html_codec.h"
#include "report/source_lines.h"

#include <filesystem>

#include <algorithm>
#include <string_view>
#include <unordered_set>
#include <utility>

namespace lowertrace::web {
extern const std::string_view report_html;
extern const std::string_view viewer_css;
extern const std::string_view diff_js;
extern const std::string_view syntax_js;
extern const std::string_view viewer_js;
// Features over the viewer (each plugs in through LTViewer.plug).
extern const std::string_view links_js;
extern const std::string_view inflate_js;
extern const std::string_view search_js;
extern const std::string_view anchors_js;
extern const std::string_view timing_js;
extern const std::string_view locations_js;
extern const std::string_view compare_js;
extern const std::string_view features_css;
}  // namespace lowertrace::web

namespace lowertrace::report::page {

namespace {
// The strings below are built once and never destroyed: the LLVM plugin
// writes its final report from a static destructor at process exit, after
// any function-local static constructed later than it has been destroyed
// (a destroyed hash here made every plugin report a blank, CSP-blocked page).
const std::string &script_text() {
  // One inline script, so one hash; diff and syntax first, the viewer uses them.
  static const std::string &s = *new std::string([] {
    std::string t;
    for (std::string_view part : {web::diff_js, web::syntax_js, web::viewer_js, web::links_js, web::inflate_js,
                                  web::search_js, web::anchors_js, web::timing_js,
                                  web::locations_js, web::compare_js})
      t.append(part).append("\n");
    return t;
  }());
  return s;
}

const std::string &style_text() {
  static const std::string &s =
      *new std::string(std::string(web::viewer_css) + "\n" + std::string(web::features_css));
  return s;
}

std::string csp(bool live) {
  // Nothing may load except the viewer itself (and, while live, the chunk files
  // beside the page). Data URLs only for the favicon-less page's nothing.
  std::string c = "default-src 'none'; base-uri 'none'; form-action 'none'; img-src data:; ";
  // The assets are fixed at build time: hash them once per process.
  static const std::string &style = *new std::string(codec::csp_hash(style_text()));
  static const std::string &script = *new std::string(codec::csp_hash(script_text()));
  c += "style-src " + style + "; ";
  c += "script-src " + script;
  if (live) c += " 'self' file:";
  return c;
}

// The metadata comes before the viewer and the snapshot payloads after it, so
// the viewer draws the sidebar and the first pass while the browser is still
// parsing megabytes of payloads; a payload not parsed yet is awaited.
//
// One pass over the template, appending each piece: a value is never searched
// again, so what the data contains (a pass named "@@DATA@@", say) cannot be
// mistaken for a key. Replacing keys one after another in the growing page
// used to splice the payloads into such a name inside the metadata.
using Emit = std::function<void(std::string_view)>;
void fill_to(bool live, const Emit &emit, const std::function<void()> &meta, const std::function<void()> &data) {
  const std::string csp_text = csp(live);
  const std::pair<std::string_view, std::string_view> keys[] = {
      {"@@CSP@@", csp_text}, {"@@STYLE@@", style_text()}, {"@@SCRIPT@@", script_text()}};
  std::string_view tpl = web::report_html;
  size_t pos = 0;
  while (pos < tpl.size()) {
    size_t at = tpl.find("@@", pos);
    if (at == std::string_view::npos) break;
    emit(tpl.substr(pos, at - pos));
    bool matched = false;
    for (const auto &[key, value] : keys) {
      if (tpl.compare(at, key.size(), key) != 0) continue;
      emit(value);
      pos = at + key.size();
      matched = true;
      break;
    }
    for (const auto &[key, write] : {std::pair<std::string_view, const std::function<void()> *>{"@@META@@", &meta},
                                     {"@@DATA@@", &data}}) {
      if (matched || tpl.compare(at, key.size(), key) != 0) continue;
      (*write)();
      pos = at + key.size();
      matched = true;
    }
    if (!matched) {
      emit(tpl.substr(at, 2));
      pos = at + 2;
    }
  }
  emit(tpl.substr(std::min(pos, tpl.size())));
}

std::string fill(bool live, const std::string &meta, const std::string &data) {
  std::string html;
  html.reserve(web::report_html.size() + meta.size() + data.size() + script_text().size() +
               style_text().size());
  Emit emit = [&](std::string_view piece) { html.append(piece); };
  fill_to(live, emit, [&] { emit(meta); }, [&] { emit(data); });
  return html;
}
}  // namespace

nlohmann::json run_json(const RunInfo &run) {
  return {{"script", run.script}, {"input", run.input},     {"tool", run.tool},
          {"mode", std::string(to_string(run.mode))},       {"started", run.started},
          {"run_id", run.run_id}};
}

std::string live_shell(const RunInfo &run, const std::vector<std::string> &chunk_dirs,
                       int beat_ms) {
  nlohmann::json meta = {{"run", run_json(run)}, {"live", true}, {"chunkDirs", chunk_dirs},
                         {"recs", nlohmann::json::array()}, {"snaps", nlohmann::json::array()}};
  if (beat_ms > 0) meta["beatMs"] = beat_ms;
  return fill(true,
              "<script type=\"application/json\" id=\"lt-meta\">" +
                  codec::script_safe_json(meta) + "</script>\n",
              "");
}

std::string chunk_js(const std::vector<std::string> &recs, const ReportData &data,
                     const std::vector<int> &fresh_keys) {
  // Payloads are base64 (no quotes, backslashes or '<'), so they are spliced
  // in directly: running megabytes through the JSON serializer's escaping
  // was a visible part of the tracing cost.
  std::string out = "__ltChunk({\"recs\":[";
  for (size_t i = 0; i < recs.size(); ++i) {
    if (i) out += ',';
    out += recs[i];
  }
  out += "],\"snaps\":[";
  std::string buf;
  for (size_t i = 0; i < fresh_keys.size(); ++i) {
    const auto &st = data.stored(fresh_keys[i]);
    if (i) out += ',';
    out += '[' + std::to_string(st.key) + ',' + std::to_string(st.base) + ",\"";
    out += data.payload(st.key, buf);
    out += "\"]";
  }
  out += "]});\n";
  return out;
}

void final_page_to(const RunInfo &run, const RecordList &recs, ReportData &data,
                   const std::string &error, const nlohmann::json &extra, const Emit &emit) {
  // The record and snapshot lists are written as text, one element at a
  // time, into the slots of the rest of the metadata: a JSON tree of a
  // million records was most of an import's memory.
  nlohmann::json meta = {{"run", run_json(run)}, {"live", false},
                         {"recs", nlohmann::json::array()}, {"snaps", nlohmann::json::array()}};
  if (!error.empty()) meta["error"] = error;
  if (extra.is_object())
    for (const auto &[k, v] : extra.items()) meta[k] = v;
  // Relative source paths are tried against the traced input's folder too.
  // Texts a session released were scanned when they were delivered.
  for (const LowerRecord &r : recs) {
    data.refs.add(r.before);
    data.refs.add(r.after);
  }
  std::string base = run.input.empty() ? std::string()
                                       : std::filesystem::path(run.input).parent_path().string();
  if (auto src = data.refs.lines(base); !src.empty()) meta["src"] = std::move(src);
  const std::string json = codec::script_safe_json(meta);
  // Keys are sorted ("recs" before "snaps") and ours; quotes inside values are escaped.
  const std::size_t recs_at = json.find("\"recs\":[]") + 8, snaps_at = json.find("\"snaps\":[]") + 9;
  auto write_meta = [&] {
    std::string head = "<script type=\"application/json\" id=\"lt-meta\">";
    head.append(json, 0, recs_at);
    bool first = true;
    for (const LowerRecord &r : recs) {
      if (!first) head += ',';
      first = false;
      head += data.record_text(r);
      if (head.size() >= (1u << 20)) {
        emit(head);
        head.clear();
      }
    }
    head.append(json, recs_at, snaps_at - recs_at);
    for (size_t k = 0; k < data.size(); ++k) {
      const auto &st = data.stored(static_cast<int>(k));
      if (k) head += ',';
      head += '[' + std::to_string(st.key) + ',' + std::to_string(st.base) + ']';
    }
    head.append(json, snaps_at, std::string::npos);
    head += "</script>\n";
    emit(head);
  };
  auto write_data = [&] {
    // Base64 has no '<', so a payload can never close its element.
    std::string buf;
    for (size_t k = 0; k < data.size(); ++k) {
      const auto &st = data.stored(static_cast<int>(k));
      emit("<script type=\"text/plain\" id=\"z" + std::to_string(st.key) + "\">");
      emit(data.payload(st.key, buf));
      emit("</script>\n");
    }
  };
  fill_to(false, emit, write_meta, write_data);
}

std::string final_page(const RunInfo &run, const RecordList &recs,
                       ReportData &data, const std::string &error, const nlohmann::json &extra) {
  std::string html;
  final_page_to(run, recs, data, error, extra, [&](std::string_view piece) { html.append(piece); });
  return html;
}

}  // namespace lowertrace::report::page
