// diff/unified.cpp - git / GNU `diff -u` style rendering and the matching
// +/- counts.
#include "core.h"

#include <algorithm>
#include <string>

namespace lowertrace::diff {
namespace {

constexpr std::string_view kBold = "\x1b[1m", kCyan = "\x1b[36m", kRed = "\x1b[31m",
                           kGreen = "\x1b[32m", kReset = "\x1b[m";
constexpr std::string_view kNoNewline = "\\ No newline at end of file\n";

// "-l,s" as diff -u writes it: the count is left out when it is 1, and an
// empty range names the line *before* it (0 at the top of the file).
void append_range(std::string &out, char sign, std::uint32_t start, std::uint32_t len) {
  out += sign;
  out += std::to_string(len == 0 ? start : start + 1);
  if (len != 1) {
    out += ',';
    out += std::to_string(len);
  }
}

bool is_change(const Op &op) { return op.kind != Op::Equal; }

class Renderer {
 public:
  Renderer(const Lines &a, const Lines &b, const UnifiedOptions &opt, std::string &out)
      : a_(a), b_(b), opt_(opt), out_(out) {}

  void line(std::string_view colour, char sign, std::string_view text, bool noeol) {
    if (opt_.color && !colour.empty()) out_ += colour;
    out_ += sign;
    out_ += text;
    if (opt_.color && !colour.empty()) out_ += kReset;
    out_ += '\n';
    if (noeol) out_ += kNoNewline;
  }
  void context(std::uint32_t i, std::uint32_t j) {
    line({}, ' ', a_.lines[i], is_last_noeol(a_, i) || is_last_noeol(b_, j));
  }
  void del(std::uint32_t i) { line(kRed, '-', a_.lines[i], is_last_noeol(a_, i)); }
  void add(std::uint32_t j) { line(kGreen, '+', b_.lines[j], is_last_noeol(b_, j)); }

  void header() {
    meta("--- " + opt_.label_a);
    meta("+++ " + opt_.label_b);
  }
  void hunk_header(std::uint32_t a0, std::uint32_t al, std::uint32_t b0, std::uint32_t bl) {
    std::string h = "@@ ";
    append_range(h, '-', a0, al);
    h += ' ';
    append_range(h, '+', b0, bl);
    h += " @@";
    if (opt_.color) out_ += kCyan;
    out_ += h;
    if (opt_.color) out_ += kReset;
    out_ += '\n';
  }

 private:
  static bool is_last_noeol(const Lines &l, std::uint32_t i) {
    return !l.final_newline && i + 1 == l.lines.size();
  }
  void meta(const std::string &s) {
    if (opt_.color) out_ += kBold;
    out_ += s;
    if (opt_.color) out_ += kReset;
    out_ += '\n';
  }
  const Lines &a_, &b_;
  const UnifiedOptions &opt_;
  std::string &out_;
};

}  // namespace

std::string unified(std::string_view before, std::string_view after, const UnifiedOptions &opt) {
  if (before == after) return {};
  const Lines a = split_lines(before), b = split_lines(after);
  const std::vector<Op> ops = detail::diff_texts(a, b);
  // Capped so 2*ctx cannot overflow; no text has 2^30 lines of context.
  const std::uint32_t ctx = static_cast<std::uint32_t>(std::clamp(opt.context, 0, 1 << 30));
  std::string out;
  Renderer r(a, b, opt, out);
  r.header();
  const std::size_t n = ops.size();
  std::size_t k = 0;
  while (k < n) {
    while (k < n && !is_change(ops[k])) ++k;
    if (k == n) break;
    // Grow the hunk over changes separated by at most 2*ctx equal lines.
    std::size_t first = k, last = k;
    for (;;) {
      if (last + 1 < n && is_change(ops[last + 1])) {
        ++last;
      } else if (last + 2 < n && ops[last + 1].a_len <= 2 * ctx) {
        last += 2;
      } else {
        break;
      }
    }
    const std::uint32_t pre = first > 0 ? std::min(ctx, ops[first - 1].a_len) : 0;
    const std::uint32_t post = last + 1 < n ? std::min(ctx, ops[last + 1].a_len) : 0;
    const std::uint32_t a0 = ops[first].a_pos - pre, b0 = ops[first].b_pos - pre;
    const std::uint32_t a1 = ops[last].a_pos + ops[last].a_len + post;
    const std::uint32_t b1 = ops[last].b_pos + ops[last].b_len + post;
    r.hunk_header(a0, a1 - a0, b0, b1 - b0);
    for (std::uint32_t t = 0; t < pre; ++t) r.context(a0 + t, b0 + t);
    for (std::size_t q = first; q <= last; ++q) {
      const Op &op = ops[q];
      switch (op.kind) {
        case Op::Equal:
          for (std::uint32_t t = 0; t < op.a_len; ++t) r.context(op.a_pos + t, op.b_pos + t);
          break;
        case Op::Delete:
          for (std::uint32_t t = 0; t < op.a_len; ++t) r.del(op.a_pos + t);
          break;
        case Op::Insert:
          for (std::uint32_t t = 0; t < op.b_len; ++t) r.add(op.b_pos + t);
          break;
      }
    }
    const Op *tail = last + 1 < n ? &ops[last + 1] : nullptr;
    for (std::uint32_t t = 0; t < post; ++t) r.context(tail->a_pos + t, tail->b_pos + t);
    k = last + 1;
  }
  return out;
}

Stats stats(std::string_view before, std::string_view after) {
  Stats s;
  if (before == after) return s;
  const Lines a = split_lines(before), b = split_lines(after);
  for (const Op &op : detail::diff_texts(a, b)) {
    if (op.kind == Op::Delete) s.del_lines += static_cast<int>(op.a_len);
    if (op.kind == Op::Insert) s.add_lines += static_cast<int>(op.b_len);
  }
  s.only_final_newline = a.final_newline != b.final_newline && a.lines == b.lines;
  return s;
}

}  // namespace lowertrace::diff
