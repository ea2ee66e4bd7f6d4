#include "report/html_data.h"

#include "lowertrace/diff.h"
#include "report/html_codec.h"

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

nlohmann::json ReportData::record_json(const LowerRecord &r, std::vector<int> *fresh) {
  int b = ref(r.before, nullptr, fresh);
  int a = ref(r.after, r.before, fresh, r.changed ? r.add_lines : -1);
  nlohmann::json j = {{"i", r.index},     {"p", r.phase},      {"n", r.name},
                      {"s", r.status},    {"c", r.changed},    {"a", r.add_lines},
                      {"d", r.del_lines}, {"dp", r.depth},     {"pi", r.parent_index},
                      {"b", b},           {"f", a}};
  // Noise: changed line pairs that only renumber SSA/alias names under one
  // renaming of the whole snapshot, or only re-space. The viewer shows the
  // real +/- (a - z, d - z) and the noise apart, as its diff rows do.
  if (r.changed && r.status == STATUS_COMPLETED && r.before && r.after) {
    auto [it, fresh_pair] = noise_.try_emplace({r.before.get(), r.after.get()}, 0);
    if (fresh_pair) {
      diff::ChangeSummary cs = diff::classify(r.before_text(), r.after_text());
      it->second = cs.renumbered + cs.whitespace_only;
    }
    if (it->second > 0) j["z"] = it->second;
  }
  if (!r.error_msg.empty()) j["e"] = r.error_msg;
  if (!r.before_known) j["nb"] = 1;  // no before-text: neither changed nor a no-op
  if (r.wall_ms >= 0) j["ms"] = std::round(r.wall_ms * 1000) / 1000;
  if (!r.anchor.empty()) j["an"] = r.anchor;
  if (!r.ir_lang.empty()) j["il"] = r.ir_lang;
  if (!r.lang.empty()) j["l"] = r.lang;
  if (!r.detail.empty()) j["dt"] = r.detail;
  return j;
}

}  // namespace lowertrace::report
