// dump/splitter.h - bytes in, whole dumps (banner + body) out.
//
// Input arrives in arbitrary chunks; only the current line and the current
// dump's body are buffered, so memory is bounded by the largest single dump.
// Problems are reported as warnings with the byte offset where they start;
// everything that parses is still delivered.
#pragma once

#include "banner.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace lowertrace::dump {

struct Dump {
  Banner banner;
  std::string body;        // without trailing blank lines; ends in '\n' unless empty
  std::uint64_t offset = 0;  // byte offset of the banner line in its input
  std::string input;       // input name, for messages
  std::string diagnostic;  // compiler error text printed just before this dump
  bool damaged = false;    // truncated or interleaved (a warning was given)
};

class Splitter {
public:
  using OnDump = std::function<void(Dump &&)>;
  using OnWarn = std::function<void(std::string)>;
  // Which banner families to recognise; others are plain text.
  struct Families {
    bool mlir = true, llvm = true, mir = true;
  };
  Splitter(OnDump on_dump, OnWarn on_warn) : Splitter(std::move(on_dump), std::move(on_warn), Families{}) {}
  Splitter(OnDump on_dump, OnWarn on_warn, Families fam);

  void begin_input(std::string name);
  void feed(std::string_view bytes);
  void end_input();  // flushes the last dump; reports an input cut mid-line
  std::uint64_t bytes_seen() const { return total_; }

private:
  void line(std::string_view l, std::uint64_t off);
  void body_line(std::string_view l, std::uint64_t off);  // a line that is no banner nor diagnostic
  void flush_held();
  void close_dump(bool at_eof);
  void flush_garbage();

  OnDump on_dump_;
  OnWarn on_warn_;
  Families fam_;
  std::string input_;
  std::string partial_;       // bytes of an unfinished line
  std::uint64_t offset_ = 0;  // offset of the next byte in this input
  std::uint64_t total_ = 0;
  bool in_dump_ = false;
  Dump cur_;
  // Non-dump text outside any dump: reported once per contiguous region.
  std::uint64_t garbage_off_ = 0, garbage_bytes_ = 0;
  std::string garbage_first_;
  std::string diag_;  // recent diagnostic lines (error: ...), attached to the next dump
  // After a diagnostic inside a dump: the next line may be its source line
  // (held until the line after it shows a caret) or the dump's IR.
  enum class Ctx { None, Source, Caret } ctx_ = Ctx::None;
  std::string held_;
  std::uint64_t held_off_ = 0;
  bool cur_binary_ = false;  // binary data already reported for the current dump
  // An MLIR dump is one op: once its braces balance and the printer's empty
  // line follows, only a "{-#" resource section still belongs to it; any
  // other text (a raw stderr capture's timing report) ends it.
  long mlir_depth_ = 0;
  bool mlir_opened_ = false, mlir_ended_ = false;
};

// LLVM/Triton chatter that can sit between or inside dumps on stderr
// ("Running pass: X on f", "Running analysis: ..."): dropped silently.
bool is_pass_manager_chatter(std::string_view line);

// Brace balance outside "..." strings; nonzero means cut off or mixed.
int brace_balance(std::string_view text);

}  // namespace lowertrace::dump
