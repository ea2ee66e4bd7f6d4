// report/html_codec.h - byte encodings the HTML report needs: gzip+base64 for
// snapshots (decoded by the browser's DecompressionStream), SHA-256 for the
// Content-Security-Policy hashes, and JSON that is safe inside <script>.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace lowertrace::report::codec {

// gzip (RFC 1952) of `data`, then standard base64. Empty if compression fails.
std::string gzip_base64(std::string_view data);

std::string base64(std::string_view bytes);

// Raw 32-byte SHA-256 digest.
std::string sha256(std::string_view data);

// "'sha256-<base64>'" as a CSP source expression.
std::string csp_hash(std::string_view script_or_style);

// JSON text that can sit inside a <script> element or a .js file: '<', '>',
// '&', U+2028 and U+2029 become \u escapes (they only ever occur inside JSON
// strings), and invalid UTF-8 becomes U+FFFD instead of throwing.
std::string script_safe_json(const nlohmann::json &j);

}  // namespace lowertrace::report::codec
