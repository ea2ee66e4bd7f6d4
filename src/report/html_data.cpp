#include "report/html_data.h"

#include "lowertrace/diff.h"
#include "report/html_codec.h"
#include "util/fs.h"
#include "util/json_text.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <functional>

namespace lowertrace::report {

namespace {
// Split on '\n' keeping the piece after the last newline (possibly empty), so
// join('\n') gives back the exact text, trailing newline or not.
std::vector<std::string_view> pieces(std::string_view t) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (;;) {
    size_t nl = t.find('\n', start);
    if (nl == std::string_view::npos) {
      out.push_back(t.substr(start));
      return out;
    }
    out.push_back(t.substr(start, nl - start));
    start = nl + 1;
  }
}

// Newlines in t (memchr is vectorised in libc; a byte loop was not).
size_t count_lines(std::string_view t) {
  size_t n = 0;
  const char *p = t.data(), *end = p + t.size();
  while (p < end && (p = static_cast<const char *>(std::memchr(p, '\n', end - p)))) {
    ++n;
    ++p;
  }
  return n;
}

std::pair<std::uint64_t, std::uint64_t> hash_of(const SnapshotData &d) {
  if (d.hash_hi || d.hash_lo) return {d.hash_hi, d.hash_lo};
  return {std::hash<std::string>{}(d.text), d.text.size()};
}
}  // namespace

namespace {
// JSON string literal for one IR line. Hand-written because this runs over
// every inserted line of every snapshot, where building nlohmann::json values
// and serialising them was the largest cost of the report. Bytes >= 0x80 pass
// through; the viewer decodes with TextDecoder, which replaces invalid UTF-8.
void append_json_string(std::string &out, std::string_view s) {
  static const char *hex = "0123456789abcdef";
  out.push_back('"');
  size_t run = 0;  // start of the pending run of bytes that need no escape
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c != '"' && c != '\\' && c >= 0x20) continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else {
      out += "\\u00";
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}
}  // namespace

// [[keep, drop, [inserted lines...]], ...]
std::string line_delta(std::string_view base, std::string_view text) {
  auto a = pieces(base), b = pieces(text);
  // The shared diff gives a near-minimal script even when edits are scattered
  // (renumbered SSA names), where a prefix/suffix trim would store everything.
  auto ops = diff::diff_lines(a, b);
  std::string out = "[";
  std::uint32_t keep = 0, drop = 0;
  std::string ins;
  bool open = false, first = true;
  auto flush = [&] {
    if (open) {
      if (!first) out.push_back(',');
      first = false;
      out.push_back('[');
      out += std::to_string(keep);
      out.push_back(',');
      out += std::to_string(drop);
      out += ",[";
      out += ins;
      out += "]]";
    }
    keep = drop = 0;
    ins.clear();
    open = false;
  };
  for (const auto &op : ops) {
    if (op.kind == diff::Op::Equal) {
      if (open) flush();
      keep += op.a_len;
    } else if (op.kind == diff::Op::Delete) {
      drop += op.a_len;
      open = true;
    } else {
      for (std::uint32_t j = 0; j < op.b_len; ++j) {
        if (!ins.empty()) ins.push_back(',');
        append_json_string(ins, b[op.b_pos + j]);
      }
      open = true;
    }
  }
  flush();
  out.push_back(']');
  return out;
}

ReportData::~ReportData() {
  if (spill_fd_ >= 0) ::close(spill_fd_);
}

std::string ReportData::spill(const std::vector<int> &keys, const std::string &path) {
  if (spill_fd_ < 0) {
    spill_fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (spill_fd_ < 0) return "cannot create " + path + ": " + std::strerror(errno);
  }
  std::string batch;
  std::vector<std::pair<int, std::uint64_t>> placed;
  for (int k : keys) {
    Stored &st = stored_.at(static_cast<size_t>(k));
    if (st.payload.empty() || st.payload.size() > UINT32_MAX) continue;
    placed.emplace_back(k, spill_end_ + batch.size());
    batch += st.payload;
  }
  // Appended in order (the file is only ever written here), with the
  // project's write: a file-size limit is an error, never a SIGXFSZ kill.
  if (auto err = util::write_fd_all(spill_fd_, batch); !err.empty()) return "cannot write " + path + ": " + err;
  spill_end_ += batch.size();
  for (auto [k, at] : placed) {
    Stored &st = stored_[static_cast<size_t>(k)];
    st.spilled_at = at;
    st.spilled_len = static_cast<std::uint32_t>(st.payload.size());
    std::string().swap(st.payload);
  }
  return {};
}

std::string_view ReportData::payload(int key, std::string &buf) const {
  const Stored &st = stored(key);
  if (st.spilled_len == 0) return st.payload;
  buf.resize(st.spilled_len);
  for (std::size_t done = 0; done < buf.size();) {
    ssize_t n = ::pread(spill_fd_, buf.data() + done, buf.size() - done,
                        static_cast<off_t>(st.spilled_at + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return {};
    done += static_cast<std::size_t>(n);
  }
  return buf;
}

int ReportData::find(const Snapshot &s) const {
  auto it = by_hash_.find(hash_of(*s));
  if (it == by_hash_.end()) return -1;
  return it->second.empty() ? -1 : it->second.front();
}

int ReportData::ref(const Snapshot &s, const Snapshot &base, std::vector<int> *fresh,
                    int inserted_lines) {
  if (!s) return -1;
  if (int k = find(s); k >= 0) return k;
  if (s->released) return -1;  // its text went before it was stored: nothing to show
  Stored st;
  st.key = static_cast<int>(stored_.size());
  int bk = base && !base->released ? find(base) : -1;
  // When most lines were inserted the delta would be rejected below anyway;
  // the caller's +/- counts let us skip computing it.
  if (bk >= 0 && inserted_lines >= 0 && 2 * static_cast<size_t>(inserted_lines) > count_lines(s->text))
    bk = -1;
  if (bk >= 0 && stored_[bk].chain + 1 < kMaxChain && !s->text.empty()) {
    std::string delta = line_delta(base->text, s->text);
    // A delta that carries most of the text is no cheaper than the text itself.
    if (delta.size() < s->text.size() / 2) {
      st.base = bk;
      st.chain = stored_[bk].chain + 1;
      st.payload = codec::gzip_base64(delta);
    }
  }
  if (st.base < 0) st.payload = codec::gzip_base64(s->text);
  by_hash_[hash_of(*s)].push_back(st.key);
  stored_.push_back(std::move(st));
  if (fresh) fresh->push_back(stored_.back().key);
  return stored_.back().key;
}

namespace {
// A JSON string as codec::script_safe_json(nlohmann::json(s)) writes it; the
// common case (printable ASCII that needs no escape) without a JSON value.
void put_string(std::string &out, std::string_view s) {
  if (!util::append_plain_json_string(out, s, "<>&"))
    out += codec::script_safe_json(nlohmann::json(std::string(s)));
}
// Keys are written in nlohmann's (sorted) order by the caller.
struct Object {
  std::string &out;
  bool first = true;
  std::string &key(const char *k) {
    out += first ? "{\"" : ",\"";
    first = false;
    out += k;
    out += "\":";
    return out;
  }
  void num(const char *k, long long v) { key(k) += std::to_string(v); }
  void str(const char *k, std::string_view v) { put_string(key(k), v); }
  void opt_str(const char *k, std::string_view v) {
    if (!v.empty()) str(k, v);
  }
};
}  // namespace

std::string ReportData::record_text(const LowerRecord &r, std::vector<int> *fresh, bool files) {
  int b = ref(r.before, nullptr, fresh);
  int a = ref(r.after, r.before, fresh, r.changed ? r.add_lines : -1);
  // Noise: changed line pairs that only renumber SSA/alias names under one
  // renaming of the whole snapshot, or only re-space. The viewer shows the
  // real +/- (a - z, d - z) and the noise apart, as its diff rows do.
  int noise = 0;
  if (r.changed && r.status == STATUS_COMPLETED && r.before && r.after) {
    // By content: the final page sees the stand-ins of a session that
    // released its texts (SnapshotData::released), not the texts classified.
    auto [bh, bl] = hash_of(*r.before);
    auto [ah, al] = hash_of(*r.after);
    auto [it, fresh_pair] = noise_.try_emplace({bh, bl, ah, al}, 0);
    if (fresh_pair) {
      diff::ChangeSummary cs = diff::classify(r.before_text(), r.after_text());
      it->second = cs.renumbered + cs.whitespace_only;
    }
    noise = it->second;
  }
  std::string out;
  out.reserve(160);
  Object o{out};
  o.num("a", r.add_lines);
  if (files) o.opt_str("af", r.after_file);
  o.opt_str("an", r.anchor);
  o.num("b", b);
  if (files) o.opt_str("bf", r.before_file);
  o.key("c") += r.changed ? "true" : "false";
  o.num("d", r.del_lines);
  o.num("dp", r.depth);
  o.opt_str("dt", r.detail);
  o.opt_str("e", r.error_msg);
  o.num("f", a);
  o.num("i", r.index);
  o.opt_str("il", r.ir_lang);
  o.opt_str("l", r.lang);
  if (r.wall_ms >= 0) o.key("ms") += nlohmann::json(std::round(r.wall_ms * 1000) / 1000).dump();
  o.str("n", r.name);
  if (!r.before_known) o.num("nb", 1);  // no before-text: neither changed nor a no-op
  o.str("p", r.phase);
  o.num("pi", r.parent_index);
  o.str("s", r.status);
  if (noise > 0) o.num("z", noise);
  out.push_back('}');
  return out;
}

nlohmann::json ReportData::record_json(const LowerRecord &r, std::vector<int> *fresh) {
  return nlohmann::json::parse(record_text(r, fresh));
}

}  // namespace lowertrace::report
