// diff/lines.cpp - splitting text into lines.
#include "lowertrace/diff.h"

namespace lowertrace::diff {

Lines split_lines(std::string_view text) {
  Lines out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      out.lines.push_back(text.substr(start));
      out.final_newline = false;  // only a non-empty unterminated line counts
      break;
    }
    out.lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

}  // namespace lowertrace::diff
