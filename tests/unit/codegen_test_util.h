// codegen_test_util.h - temp folders and file helpers shared by the codegen workflow tests.
#pragma once

#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

namespace lowertrace::codegen::testing {

// A fresh folder under $TMPDIR, removed (recursively) at the end of the test.
class TempDir {
public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "lt_codegen_XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string &path() const { return path_; }
  std::string operator/(const std::string &name) const { return path_ + "/" + name; }

private:
  std::string path_;
};

inline void put(const std::string &path, const std::string &text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
}

// File content, or nullopt when the path is missing or not a regular file.
inline std::optional<std::string> get(const std::string &path) {
  if (!std::filesystem::is_regular_file(path)) return std::nullopt;
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Names in `dir` that contain `part`.
inline std::set<std::string> names_with(const std::string &dir, const std::string &part) {
  std::set<std::string> out;
  for (const auto &e : std::filesystem::directory_iterator(dir)) {
    std::string n = e.path().filename().string();
    if (n.find(part) != std::string::npos) out.insert(n);
  }
  return out;
}

}  // namespace lowertrace::codegen::testing
