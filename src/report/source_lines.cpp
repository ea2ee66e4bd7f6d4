#include "report/source_lines.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace lowertrace::report {

namespace {

struct Ref {
  std::string file;  // as written in the IR (the viewer's lookup key)
  std::string dir;   // LLVM DIFile directory, may be empty
};

// Every "loc(\"file\":L" in the text; aliases hold the same form.
// `seen` skips pieces met before: each snapshot repeats its predecessor's aliases.
void mlir_locs(std::string_view t, Wanted &out, std::unordered_set<std::string> &seen) {
  // Regexes here are never destroyed: the LLVM plugin writes its report from
  // a static destructor at exit, after later-constructed statics are gone.
  static const std::regex &re = *new std::regex(R"re(loc\("((?:[^"\\\n]|\\.)*)":(\d+))re");
  for (size_t at = t.find("loc(\""); at != std::string_view::npos; at = t.find("loc(\"", at + 5)) {
    std::match_results<std::string_view::const_iterator> m;
    size_t end = t.find_first_of(")\n", at + 5);
    std::string_view piece = t.substr(at, (end == std::string_view::npos ? t.size() : end) - at);
    if (!seen.insert(std::string(piece)).second) continue;
    if (std::regex_search(piece.begin(), piece.end(), m, re, std::regex_constants::match_continuous))
      out[{m[1].str(), ""}].insert(std::stoi(m[2].str()));
  }
}

std::string_view line_at(std::string_view t, size_t pos) {
  size_t b = t.rfind('\n', pos);
  b = b == std::string_view::npos ? 0 : b + 1;
  size_t e = t.find('\n', pos);
  return t.substr(b, (e == std::string_view::npos ? t.size() : e) - b);
}

std::string field(std::string_view line, const std::regex &re) {
  std::match_results<std::string_view::const_iterator> m;
  return std::regex_search(line.begin(), line.end(), m, re) ? m[1].str() : std::string();
}

// LLVM metadata: DILocation lines resolved through scope: to file:.
void llvm_locs(std::string_view t, Wanted &out) {
  if (t.find("!DILocation(") == std::string_view::npos) return;
  static const std::regex &def = *new std::regex(R"(^(![0-9]+)\s*=)"),
                          &line_re = *new std::regex(R"(\bline:\s*([0-9]+))"),
                          &scope_re = *new std::regex(R"(\bscope:\s*(![0-9]+))"),
                          &file_re = *new std::regex(R"(\bfile:\s*(![0-9]+))"),
                          &name_re = *new std::regex(R"re(filename:\s*"((?:[^"\\]|\\.)*)")re"),
                          &dir_re = *new std::regex(R"re(directory:\s*"((?:[^"\\]|\\.)*)")re");
  std::unordered_map<std::string, std::string_view> md;
  for (size_t at = t.find("\n!"); at != std::string_view::npos; at = t.find("\n!", at + 1)) {
    std::string_view l = line_at(t, at + 1);
    std::string id = field(l, def);
    if (!id.empty()) md.emplace(id, l);
  }
  for (const auto &[id, l] : md) {
    if (l.find("!DILocation(") == std::string_view::npos) continue;
    std::string ln = field(l, line_re);
    if (ln.empty() || ln == "0") continue;
    std::string_view cur = l;
    for (int hop = 0; hop < 32; ++hop) {
      std::string f = field(cur, file_re);
      if (!f.empty()) {
        auto it = md.find(f);
        if (it != md.end()) {
          std::string name = field(it->second, name_re);
          if (!name.empty()) out[{name, field(it->second, dir_re)}].insert(std::stoi(ln));
        }
        break;
      }
      auto it = md.find(field(cur, scope_re));
      if (it == md.end()) break;
      cur = it->second;
    }
  }
}

// PTX: ".file N \"name\"" and ".loc N L C".
void ptx_locs(std::string_view t, Wanted &out) {
  if (t.find(".loc") == std::string_view::npos) return;
  static const std::regex &file_re = *new std::regex(R"re(^\s*\.file\s+([0-9]+)\s+"((?:[^"\\]|\\.)*)")re"),
                          &loc_re = *new std::regex(R"(^\s*\.loc\s+([0-9]+)\s+([0-9]+))");
  std::map<std::string, std::string> files;
  std::vector<std::pair<std::string, int>> locs;
  size_t b = 0;
  while (b < t.size()) {
    size_t e = t.find('\n', b);
    if (e == std::string_view::npos) e = t.size();
    std::string_view l = t.substr(b, e - b);
    std::match_results<std::string_view::const_iterator> m;
    if (l.find(".file") != std::string_view::npos && std::regex_search(l.begin(), l.end(), m, file_re))
      files[m[1].str()] = m[2].str();
    else if (l.find(".loc") != std::string_view::npos && std::regex_search(l.begin(), l.end(), m, loc_re))
      locs.emplace_back(m[1].str(), std::stoi(m[2].str()));
    b = e + 1;
  }
  for (const auto &[f, ln] : locs)
    if (auto it = files.find(f); it != files.end() && ln > 0) out[{it->second, ""}].insert(ln);
}

// Unescapes the few escapes MLIR/LLVM/PTX write in a file name.
std::string unescape(const std::string &s) {
  std::string o;
  for (size_t i = 0; i < s.size(); ++i) o += (s[i] == '\\' && i + 1 < s.size()) ? s[++i] : s[i];
  return o;
}

bool read_small(const std::filesystem::path &p, std::string &out) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(p, ec)) return false;
  auto size = std::filesystem::file_size(p, ec);
  if (ec || size > kMaxSourceFileBytes) return false;
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return static_cast<bool>(in) || in.eof();
}

}  // namespace

void SourceRefs::add(const Snapshot &snap) {
  if (!snap || snap->released || !scanned_.insert(snap->id).second) return;
  std::string_view t = snap->text;
  mlir_locs(t, want_, seen_);
  llvm_locs(t, want_);
  ptx_locs(t, want_);
}

nlohmann::json source_lines(const std::vector<std::string_view> &texts, const std::string &base_dir) {
  SourceRefs refs;
  for (auto t : texts) refs.add_text(t);
  return refs.lines(base_dir);
}

void SourceRefs::add_text(std::string_view t) {
  mlir_locs(t, want_, seen_);
  llvm_locs(t, want_);
  ptx_locs(t, want_);
}

nlohmann::json SourceRefs::lines(const std::string &base_dir) const {
  const Wanted &want = want_;
  nlohmann::json out = nlohmann::json::object();
  size_t budget = kMaxSourceLines;
  for (const auto &[key, lines] : want) {
    if (!budget) break;
    namespace fs = std::filesystem;
    fs::path p(unescape(key.first));
    std::vector<fs::path> tries{p};
    if (p.is_relative()) {
      if (!key.second.empty()) tries.push_back(fs::path(unescape(key.second)) / p);
      if (!base_dir.empty()) tries.push_back(fs::path(base_dir) / p);
    }
    std::string text;
    bool ok = false;
    for (const auto &c : tries)
      if ((ok = read_small(c, text))) break;
    if (!ok) continue;
    std::vector<std::string_view> file_lines;
    for (size_t b = 0; b <= text.size();) {
      size_t e = text.find('\n', b);
      if (e == std::string::npos) e = text.size();
      file_lines.push_back(std::string_view(text).substr(b, e - b));
      b = e + 1;
    }
    nlohmann::json &f = out[key.first];
    for (int ln : lines) {
      if (!budget) break;
      if (ln < 1 || static_cast<size_t>(ln) > file_lines.size()) continue;
      std::string_view l = file_lines[ln - 1];
      if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
      // Invalid UTF-8 (or a cut character) is replaced when the page's JSON is written.
      f[std::to_string(ln)] = std::string(l.substr(0, kMaxSourceLineBytes));
      --budget;
    }
    if (f.empty()) out.erase(key.first);
  }
  return out;
}

}  // namespace lowertrace::report
