#include "engine/trace_json.h"

#include "engine/layout.h"

#include <nlohmann/json.hpp>
#include <set>

namespace lowertrace::trace_json {

using nlohmann::json;

// IR may hold invalid UTF-8; nlohmann would throw on dump. Replace bad bytes.
static std::string valid_utf8(std::string_view s);

std::string serialize(const RunInfo &run, const std::vector<const LowerRecord *> &records,
                      const std::string &error) {
  json root;
  root["format"] = "lowertrace-trace";
  root["version"] = kVersion;
  root["script"] = valid_utf8(run.script);
  root["run_id"] = run.run_id;
  root["tool"] = valid_utf8(run.tool);
  root["input"] = valid_utf8(run.input);
  root["mode"] = std::string(to_string(run.mode));
  root["started"] = run.started;
  root["error"] = valid_utf8(error);

  json snaps = json::array();
  std::set<std::uint32_t> seen;
  json recs = json::array();
  for (const LowerRecord *r : records) {
    json j;
    j["phase"] = valid_utf8(r->phase);
    j["name"] = valid_utf8(r->name);
    j["index"] = r->index;
    j["changed"] = r->changed;
    j["add_lines"] = r->add_lines;
    j["del_lines"] = r->del_lines;
    j["status"] = r->status;
    j["error_msg"] = valid_utf8(r->error_msg);
    j["depth"] = r->depth;
    j["parent_index"] = r->parent_index < 0 ? json(nullptr) : json(r->parent_index);
    j["wall_ms"] = r->wall_ms < 0 ? json(nullptr) : json(r->wall_ms);  // null: not measured (imports)
    j["anchor"] = valid_utf8(r->anchor);
    j["detail"] = valid_utf8(r->detail);
    j["ir_lang"] = r->ir_lang;
    j["lang"] = r->lang.empty() ? r->ir_lang : r->lang;
    auto side = [&](const Snapshot &s, bool after) -> json {
      if (!s || (after && r->status == STATUS_FAILED)) return nullptr;
      if (seen.insert(s->id).second) {
        char hash[40];
        std::snprintf(hash, sizeof hash, "%016llx%016llx",
                      static_cast<unsigned long long>(s->hash_hi),
                      static_cast<unsigned long long>(s->hash_lo));
        snaps.push_back({{"id", s->id}, {"hash", hash}, {"bytes", s->text.size()},
                         {"file", layout::raw_file_path(*r, after)}});
      }
      return json{{"snapshot", s->id}, {"file", layout::raw_file_path(*r, after)}};
    };
    j["before_text"] = side(r->before, false);
    j["after_text"] = side(r->after, true);
    recs.push_back(std::move(j));
  }
  root["snapshots"] = std::move(snaps);
  root["records"] = std::move(recs);
  return root.dump(1) + "\n";
}

static std::string valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = n > 0 && i + n <= s.size();
    for (int k = 1; ok && k < n; ++k)
      ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
    if (ok) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
    }
  }
  return out;
}

}  // namespace lowertrace::trace_json
