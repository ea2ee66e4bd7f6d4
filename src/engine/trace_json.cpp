#include "engine/trace_json.h"

#include "engine/layout.h"
#include "util/fs.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>

#include <nlohmann/json.hpp>
#include <set>
#include <utility>

namespace lowertrace::trace_json {

using nlohmann::json;

// IR may hold invalid UTF-8; nlohmann would throw on dump. Replace bad bytes.
static std::string valid_utf8(std::string_view s);

// Writes the document through `emit`, a piece at a time (pieces of about
// 1 MB), so that a large trace never sits in memory whole.
static void serialize_to(const RunInfo &run, const std::vector<const LowerRecord *> &records,
                         const std::string &error, const std::function<void(std::string &)> &emit) {
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
  root["snapshots"] = json::array();
  root["records"] = json::array();

  // The two lists are written as text, one element at a time, into the
  // document dump(1) makes of the rest: a JSON tree of every record was most
  // of a large import's memory. The bytes are the same as dumping the tree.
  // Keys are sorted, so the document reads: ... "records": [] ... "snapshots": [] ...
  const std::string doc = root.dump(1);
  // Where the "[]" of each list is; our keys (quotes inside values are escaped).
  const std::size_t rec_at = doc.find("\"records\": []") + 11;
  const std::size_t snap_at = doc.find("\"snapshots\": []") + 13;
  std::string out = doc.substr(0, rec_at), snaps;
  auto append = [](std::string &list, bool first, const json &element) {
    std::string e = element.dump(1);
    list += first ? "[\n  " : ",\n  ";
    for (char c : e) {  // re-indent for depth 2 (JSON strings hold no raw newline)
      list += c;
      if (c == '\n') list += "  ";
    }
  };
  std::set<std::uint32_t> seen;
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
    j["before_known"] = r->before_known;
    j["depth"] = r->depth;
    j["parent_index"] = r->parent_index < 0 ? json(nullptr) : json(r->parent_index);
    j["wall_ms"] = r->wall_ms < 0 ? json(nullptr) : json(r->wall_ms);  // null: not measured (imports)
    j["anchor"] = valid_utf8(r->anchor);
    j["detail"] = valid_utf8(r->detail);
    j["ir_lang"] = r->ir_lang;
    j["lang"] = r->lang.empty() ? r->ir_lang : r->lang;
    auto side = [&](const Snapshot &s, bool after) -> json {
      if (!s) return nullptr;  // a failed pass has an after-text only when the IR after the failure is known
      const std::string &own = after ? r->after_file : r->before_file;
      std::string file = own.empty() ? layout::raw_file_path(*r, after) : own;
      if (seen.insert(s->id).second) {
        char hash[40];
        std::snprintf(hash, sizeof hash, "%016llx%016llx",
                      static_cast<unsigned long long>(s->hash_hi),
                      static_cast<unsigned long long>(s->hash_lo));
        append(snaps, snaps.empty(), json{{"id", s->id}, {"hash", hash}, {"bytes", s->size()}, {"file", file}});
      }
      return json{{"snapshot", s->id}, {"file", std::move(file)}};
    };
    j["before_text"] = side(r->before, false);
    j["after_text"] = side(r->after, true);
    append(out, r == records.front(), j);
    if (out.size() >= (1u << 20)) {
      emit(out);
      out.clear();
    }
  }
  out += records.empty() ? "[]" : "\n ]";
  out.append(doc, rec_at + 2, snap_at - rec_at - 2);
  emit(out);
  out.clear();
  if (snaps.empty()) snaps = "[]";
  else snaps += "\n ]";
  emit(snaps);
  out.append(doc, snap_at + 2, std::string::npos);
  out += '\n';
  emit(out);
}

std::string serialize(const RunInfo &run, const std::vector<const LowerRecord *> &records,
                      const std::string &error) {
  std::string doc;
  serialize_to(run, records, error, [&](std::string &piece) { doc += piece; });
  return doc;
}

std::string write(const std::string &path, const RunInfo &run, const std::vector<const LowerRecord *> &records,
                  const std::string &error) {
  // Written like util::atomic_write (a hidden temporary beside `path`, then a
  // rename), but streamed into the temporary.
  std::string tmp;
  if (std::string err = util::write_temp_beside(path, {}, &tmp); !err.empty()) return err;
  int fd = ::open(tmp.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
  std::string err = fd < 0 ? "cannot open " + tmp + ": " + std::strerror(errno) : std::string();
  if (fd >= 0) {
    serialize_to(run, records, error, [&](std::string &piece) {
      if (err.empty()) err = util::write_fd_all(fd, piece);
    });
    if (::close(fd) != 0 && err.empty()) err = "cannot write " + tmp + ": " + std::strerror(errno);
  }
  if (err.empty() && ::rename(tmp.c_str(), path.c_str()) != 0)
    err = "cannot rename into " + path + ": " + std::strerror(errno);
  if (!err.empty()) ::unlink(tmp.c_str());
  return err;
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
