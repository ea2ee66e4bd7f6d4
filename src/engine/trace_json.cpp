#include "engine/trace_json.h"

#include "engine/layout.h"
#include "util/fs.h"
#include "util/json_text.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>

#include <nlohmann/json.hpp>
#include <utility>

namespace lowertrace::trace_json {

using nlohmann::json;

// IR may hold invalid UTF-8; nlohmann would throw on dump. Replace bad bytes.
static std::string valid_utf8(std::string_view s);

namespace {
// A JSON string as json(valid_utf8(s)).dump() writes it; printable ASCII
// that needs no escape (nearly every value) without a JSON value.
void put_string(std::string &out, std::string_view s) {
  if (!util::append_plain_json_string(out, s)) out += json(valid_utf8(s)).dump();
}
// The members of an object that dump(1) writes at depth 1, re-indented by
// two for its place in a list: each on its own line, three spaces in.
struct Pretty {
  std::string &out;
  bool first = true;
  std::string &key(const char *k) {
    out += first ? "\n   \"" : ",\n   \"";
    first = false;
    out += k;
    out += "\": ";
    return out;
  }
  void raw(const char *k, std::string_view v) { key(k).append(v); }
  void num(const char *k, long long v) { key(k) += std::to_string(v); }
  void str(const char *k, std::string_view v) { put_string(key(k), v); }
  void close() { out += "\n  }"; }
};
}  // namespace

// Writes the document through `emit`, a piece at a time (pieces of about
// 1 MB), so that a large trace never sits in memory whole.
static void serialize_to(const RunInfo &run, const RecordList &records,
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
  std::string out = doc.substr(0, rec_at);
  // Where a record's side is on disk: its own raw file, or the file of the
  // first record with that text (SessionOptions::raw_file_per_text).
  auto file_of = [](const LowerRecord &r, bool after) {
    const std::string &own = after ? r.after_file : r.before_file;
    return own.empty() ? layout::raw_file_path(r, after) : own;
  };
  // Each record is written by hand, in the bytes element.dump(1) re-indented
  // gives (sorted keys): a JSON tree per record was most of the time
  // trace.json took for the LLVM plugin's tens of thousands of records.
  bool first = true;
  for (const LowerRecord &r : records) {
    Pretty o{out};
    out += first ? "[\n  {" : ",\n  {";
    first = false;
    o.num("add_lines", r.add_lines);
    auto side = [&](const char *key, const Snapshot &s, bool after) {
      // A failed pass has an after-text only when the IR after the failure is known.
      if (!s) return o.raw(key, "null");
      o.key(key) += "{\n    \"file\": ";
      put_string(out, file_of(r, after));
      out += ",\n    \"snapshot\": " + std::to_string(s->id) + "\n   }";
    };
    side("after_text", r.after, true);
    o.str("anchor", r.anchor);
    o.raw("before_known", r.before_known ? "true" : "false");
    side("before_text", r.before, false);
    o.raw("changed", r.changed ? "true" : "false");
    o.num("del_lines", r.del_lines);
    o.num("depth", r.depth);
    o.str("detail", r.detail);
    o.str("error_msg", r.error_msg);
    o.num("index", r.index);
    o.str("ir_lang", r.ir_lang);
    o.str("lang", r.lang.empty() ? r.ir_lang : r.lang);
    o.str("name", r.name);
    if (r.parent_index < 0) o.raw("parent_index", "null");
    else o.num("parent_index", r.parent_index);
    o.str("phase", r.phase);
    o.str("status", r.status);
    // null: not measured (imports)
    o.raw("wall_ms", r.wall_ms < 0 ? std::string("null") : json(r.wall_ms).dump());
    o.close();
    if (out.size() >= (1u << 20)) {
      emit(out);
      out.clear();
    }
  }
  out += records.empty() ? "[]" : "\n ]";
  out.append(doc, rec_at + 2, snap_at - rec_at - 2);
  // The snapshot list follows the records' first mentions, before-text
  // first, with the file of that mention: a second walk over the records,
  // so that the list (20 MB for opt -O2 on 2,000 functions) is streamed too.
  std::vector<bool> seen;
  first = true;
  for (const LowerRecord &r : records) {
    for (bool after : {false, true}) {
      const Snapshot &s = after ? r.after : r.before;
      if (!s) continue;
      if (s->id >= seen.size()) seen.resize(std::max<std::size_t>(s->id + 1, seen.size() * 2));
      if (seen[s->id]) continue;
      seen[s->id] = true;
      char hash[40];
      std::snprintf(hash, sizeof hash, "%016llx%016llx", static_cast<unsigned long long>(s->hash_hi),
                    static_cast<unsigned long long>(s->hash_lo));
      out += first ? "[\n  {" : ",\n  {";
      first = false;
      Pretty so{out};
      so.num("bytes", static_cast<long long>(s->size()));
      so.str("file", file_of(r, after));
      so.str("hash", hash);
      so.num("id", s->id);
      so.close();
    }
    if (out.size() >= (1u << 20)) {
      emit(out);
      out.clear();
    }
  }
  out += first ? "[]" : "\n ]";
  out.append(doc, snap_at + 2, std::string::npos);
  out += '\n';
  emit(out);
}

std::string serialize(const RunInfo &run, const RecordList &records,
                      const std::string &error) {
  std::string doc;
  serialize_to(run, records, error, [&](std::string &piece) { doc += piece; });
  return doc;
}

std::string write(const std::string &path, const RunInfo &run, const RecordList &records,
                  const std::string &error) {
  // Written like util::atomic_write (a hidden temporary beside `path`, then a
  // rename), but streamed into the temporary.
  return util::atomic_write_stream(path, [&](const util::PieceWriter &w) {
    serialize_to(run, records, error, [&](std::string &piece) { w(piece); });
  });
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
