// util/json_text.h - the fast path of writing JSON by hand.
#pragma once

#include <string>
#include <string_view>

namespace lowertrace::util {

// Appends `s` as a JSON string literal if it is printable ASCII that needs no
// escape (and holds none of the bytes in `unsafe`); otherwise appends nothing
// and returns false, for the caller's full serialiser.
inline bool append_plain_json_string(std::string &out, std::string_view s, std::string_view unsafe = {}) {
  for (unsigned char c : s)
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\' || unsafe.find(static_cast<char>(c)) != unsafe.npos)
      return false;
  out.push_back('"');
  out.append(s);
  out.push_back('"');
  return true;
}

}  // namespace lowertrace::util
