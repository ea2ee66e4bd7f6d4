#include "report/variant_index.h"

#include "util/fs.h"
#include "util/log.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <set>
#include <sys/file.h>
#include <unistd.h>
#include <vector>

namespace lowertrace::report {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string esc(std::string_view s) {
  std::string o;
  for (char c : s) {
    switch (c) {
    case '&': o += "&amp;"; break;
    case '<': o += "&lt;"; break;
    case '>': o += "&gt;"; break;
    case '"': o += "&quot;"; break;
    default: o += c;
    }
  }
  return o;
}

std::string show(const json &v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// describe{} flattened to "group.key" -> text, e.g. "constexprs.BLOCK" -> "64".
std::map<std::string, std::string> flat(const json &d) {
  std::map<std::string, std::string> out;
  if (!d.is_object()) return out;
  for (auto &[k, v] : d.items()) {
    if (v.is_object())
      for (auto &[k2, v2] : v.items()) out[k + "." + k2] = show(v2);
    else
      out[k] = show(v);
  }
  return out;
}

std::string render(const std::vector<json> &vs) {
  std::string kernel = vs.empty() ? "" : vs.front().value("kernel", "");
  std::vector<std::map<std::string, std::string>> fl;
  std::set<std::string> keys;
  for (const auto &v : vs) {
    fl.push_back(flat(v.value("describe", json::object())));
    fl.back().erase("hash");  // the variant id is its prefix; shown in the id's tooltip
    for (auto &[k, _] : fl.back()) keys.insert(k);
  }
  // What distinguishes the variants: the facts whose values differ.
  std::vector<std::string> differ, same;
  for (const auto &k : keys) {
    std::set<std::string> vals;
    for (auto &f : fl) vals.insert(f.count(k) ? f.at(k) : "");
    (vals.size() > 1 ? differ : same).push_back(k);
  }
  std::string h = "<!doctype html><html><head><meta charset=\"utf-8\"><title>" + esc(kernel) +
                  " variants</title><style>body{font:14px system-ui,sans-serif;margin:1.5em}"
                  "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}"
                  "th{background:#f3f3f3}.d{font-weight:600}.err{color:#b00}</style></head><body>\n";
  h += "<h1>" + esc(kernel) + ": " + std::to_string(vs.size()) + " compiled variant" + (vs.size() == 1 ? "" : "s") +
       "</h1>\n<p>Each variant is one Triton compile (its own cache hash) with its own run and PTX working copy; "
       "an edit to a working copy is compiled for that variant only.</p>\n";
  h += "<table id=\"variants\"><thead><tr><th>variant</th>";
  for (const auto &k : differ) h += "<th class=\"d\">" + esc(k) + "</th>";
  h += "<th>passes</th><th>outcome</th><th>report</th><th>working copy</th></tr></thead><tbody>\n";
  for (std::size_t i = 0; i < vs.size(); ++i) {
    const json &v = vs[i];
    std::string run = ".run_records/" + v.value("run_id", "") + "/report.html";
    std::string hash = v.contains("describe") && v["describe"].is_object() ? v["describe"].value("hash", "") : "";
    h += "<tr data-variant=\"" + esc(v.value("variant", "")) + "\"><td><code title=\"Triton cache hash " + esc(hash) +
         "\">" + esc(v.value("variant", "")) + "</code></td>";
    for (const auto &k : differ) h += "<td class=\"d\">" + esc(fl[i].count(k) ? fl[i].at(k) : "") + "</td>";
    std::string err = v.value("error", "");
    h += "<td>" + std::to_string(v.value("records", 0)) + "</td>";
    h += err.empty() ? std::string("<td>") + (v.value("edited", false) ? "compiled from your edited PTX" : "ok") + "</td>"
                     : "<td class=\"err\">" + esc(err.substr(0, err.find('\n'))) + "</td>";
    h += "<td><a href=\"" + esc(run) + "\">report</a></td>";
    std::string wc = v.value("working_copy", "");
    h += "<td>" + (wc.empty() ? std::string() : "<a href=\"" + esc(wc) + "\"><code>" + esc(wc) + "</code></a>") + "</td></tr>\n";
  }
  h += "</tbody></table>\n";
  if (!same.empty() && !fl.empty()) {
    h += "<h2>Common to all variants</h2><table><tbody>\n";
    for (const auto &k : same)
      h += "<tr><th>" + esc(k) + "</th><td>" + esc(fl[0].count(k) ? fl[0].at(k) : "") + "</td></tr>\n";
    h += "</tbody></table>\n";
  }
  return h + "</body></html>\n";
}

}  // namespace

std::string record_variant(const std::string &script_dir, const std::string &variant, const std::string &facts) {
  fs::path vdir = fs::path(script_dir) / ".variants";
  if (std::string e = util::make_dirs(vdir.string()); !e.empty()) {
    util::warn("variant index: " + e);
    return {};
  }
  if (std::string e = util::atomic_write((vdir / (util::sanitize_component(variant) + ".json")).string(), facts);
      !e.empty()) {
    util::warn("variant index: " + e);
    return {};
  }
  // Processes compiling at once: one rebuilds at a time, each after its own
  // write, so the last one to finish sees every variant.
  int fd = ::open((vdir / ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0) ::flock(fd, LOCK_EX);
  std::vector<json> vs;
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(vdir, ec)) {
    if (e.path().extension() != ".json") continue;
    auto t = util::read_file(e.path().string());
    if (!t) continue;
    json j = json::parse(*t, nullptr, false);
    if (j.is_object()) vs.push_back(std::move(j));
  }
  std::sort(vs.begin(), vs.end(), [](const json &a, const json &b) {
    return a.value("variant", "") < b.value("variant", "");
  });
  std::string path = (fs::path(script_dir) / "index.html").string();
  std::string err = util::atomic_write(path, render(vs));
  if (fd >= 0) ::close(fd);
  if (!err.empty()) {
    util::warn("variant index: " + err);
    return {};
  }
  return path;
}

}  // namespace lowertrace::report
