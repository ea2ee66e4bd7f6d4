// Importer: splitter -> per-compilation assemblers -> targets. Triton streams
// are split per kernel compile, labelled by stage, joined with the LLVM and
// MIR dumps of the same kernel, and closed with the PTX codegen record.
#include "lowertrace/dump.h"

#include "assembler.h"
#include "ir_text.h"
#include "splitter.h"
#include "triton_stages.h"
#include "util/fs.h"
#include "util/log.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <map>

namespace lowertrace::dump {

std::string_view to_string(Format f) {
  switch (f) {
  case Format::Auto: return "auto";
  case Format::Mlir: return "mlir";
  case Format::Llvm: return "llvm";
  case Format::Triton: return "triton";
  }
  return "auto";
}

std::optional<Format> parse_format(std::string_view s) {
  for (Format f : {Format::Auto, Format::Mlir, Format::Llvm, Format::Triton})
    if (s == to_string(f)) return f;
  return std::nullopt;
}

Format detect_format(std::string_view head) {
  bool mlir = false, llvm = false, tt = false;
  std::size_t pos = 0;
  while (pos < head.size()) {
    std::size_t nl = head.find('\n', pos);
    std::string_view l = head.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if (auto b = parse_banner(l)) {
      if (b->family == Family::Mlir || b->family == Family::MlirInternal) mlir = true;
      else llvm = true;
    }
    if (l.find("tt.func") != std::string_view::npos || l.find("ttg.") != std::string_view::npos) tt = true;
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  if (mlir && tt) return Format::Triton;
  if (mlir) return Format::Mlir;
  if (llvm) return Format::Llvm;
  return Format::Auto;
}

namespace {
// "define ptx_kernel void @k(" wins over helper functions.
std::string llvm_kernel_of(std::string_view body) {
  std::string first;
  std::size_t pos = 0;
  while ((pos = body.find("define ", pos)) != std::string_view::npos) {
    if (pos > 0 && body[pos - 1] != '\n') { pos += 7; continue; }
    std::size_t nl = body.find('\n', pos);
    std::string_view l = body.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    std::size_t at = l.find('@');
    std::size_t paren = l.find('(', at);
    if (at != std::string_view::npos && paren != std::string_view::npos) {
      std::string name(l.substr(at + 1, paren - at - 1));
      if (l.find("ptx_kernel") != std::string_view::npos || l.find("amdgpu_kernel") != std::string_view::npos)
        return name;
      if (first.empty()) first = name;
    }
    pos += 7;
  }
  return first;
}

std::string tt_public_kernel(std::string_view body) {
  std::size_t p = body.find("tt.func public @");
  if (p == std::string_view::npos) return {};
  p += 16;
  std::size_t e = body.find_first_of("( \n", p);
  return std::string(body.substr(p, e == std::string_view::npos ? std::string_view::npos : e - p));
}
}  // namespace

struct Importer::Impl {
  ImportOptions opts;
  TargetFactory factory;
  ImportResult result;
  std::unique_ptr<Splitter> splitter;
  bool triton = false, decided = false, any_mlir = false, any_llvm = false;
  std::uint64_t next_progress = 0, total_hint = 0;

  struct Compile {
    Compilation c;
    std::unique_ptr<Target> target;
    std::unique_ptr<Assembler> asm_;
    int stage = -1;
  };
  std::vector<std::unique_ptr<Compile>> compiles;
  Compile *mlir_cur = nullptr, *llvm_cur = nullptr;
  bool mlir_ended = false;  // in_order: the current compile has reached its LLVM dumps
  std::map<std::string, std::vector<Compile *>> by_kernel;
  struct LlvmInstance { int index = -1; int dumps = 0; std::string first_pass; };
  std::map<std::string, LlvmInstance> llvm_inst;

  void warn(std::string w) {
    util::warn(w);
    result.warnings.push_back(std::move(w));
  }

  Compile *new_compile(const std::string &kernel) {
    auto c = std::make_unique<Compile>();
    c->c.kernel = kernel;
    c->c.ordinal = static_cast<int>(by_kernel[kernel].size());
    c->target = factory(c->c);
    c->asm_ = std::make_unique<Assembler>(*c->target, [this](std::string w) { warn(std::move(w)); });
    c->asm_->set_deferred(triton && !opts.in_order);
    by_kernel[kernel].push_back(c.get());
    compiles.push_back(std::move(c));
    return compiles.back().get();
  }

  void on_dump(Dump &&d) {
    const Banner &b = d.banner;
    bool is_mlir = b.family == Family::Mlir || b.family == Family::MlirInternal;
    (is_mlir ? any_mlir : any_llvm) = true;
    if (!decided && is_mlir) {
      decided = true;
      triton = opts.format == Format::Triton ||
               (opts.format == Format::Auto && (d.body.find("tt.func") != std::string::npos ||
                                                d.body.find("ttg.") != std::string::npos));
    }
    if (!triton) {
      if (!mlir_cur) mlir_cur = llvm_cur = new_compile("");
      mlir_cur->asm_->on_dump(std::move(d));
      return;
    }
    if (is_mlir) on_triton_mlir(std::move(d));
    else on_triton_llvm(std::move(d));
  }

  // Per kernel name: how many pipeliner step groups came out of band.
  std::map<std::string, int> step_groups;
  std::string first_step;

  void on_triton_mlir(Dump &&d) {
    const Banner &b = d.banner;
    if (b.family == Family::MlirInternal && !(mlir_cur && mlir_cur->asm_->in_pipeline_pass())) {
      // Triton 3.6 prints these to stderr even with MLIR_DUMP_PATH set, so
      // they arrive after the pass they belong to: find it by kernel.
      std::string name = tt_public_kernel(d.body);
      if (first_step.empty()) first_step = b.pass;
      int &g = step_groups[name];
      if (b.pass == first_step) ++g;
      auto it = by_kernel.find(name);
      if (it != by_kernel.end()) {
        Compile *c = it->second[std::min<std::size_t>(std::max(g - 1, 0), it->second.size() - 1)];
        if (c->asm_->attach_internal(std::move(d))) return;
      }
    }
    if (b.family == Family::Mlir && b.kind == Kind::Before) {
      std::string name = tt_public_kernel(d.body);
      bool restart = !mlir_cur || (triton::starts_compile(b.arg) && mlir_cur->asm_->dumps() > 0) ||
                     (!name.empty() && name != mlir_cur->c.kernel);
      if (restart) {
        if (mlir_cur) mlir_cur->asm_->close_stage(std::nullopt);
        if (name.empty()) name = mlir_kernel_name(d.body);
        mlir_cur = new_compile(name.empty() ? std::string("kernel") : name);
      }
      auto so = triton::stage_opened_by(b.arg);
      if (mlir_cur->stage < 0 && so.stage < 0) so.stage = 0;
      if (so.stage > mlir_cur->stage) {
        std::string label(triton::kStageNames[so.stage]);
        if (!so.adopt_prev.empty()) mlir_cur->asm_->relabel_last(std::string(so.adopt_prev), label);
        mlir_cur->asm_->set_phase(label);
        mlir_cur->stage = so.stage;
      }
    }
    if (!mlir_cur) mlir_cur = new_compile("kernel");
    mlir_cur->asm_->on_dump(std::move(d));
  }

  void on_triton_llvm(Dump &&d) {
    const Banner &b = d.banner;
    std::string k;
    if (b.family == Family::Mir) k = mir_function_of(d.body);
    else if (b.unit.empty() || b.unit == "[module]") k = llvm_kernel_of(d.body);
    else if (auto f = llvm_loop_function(b.unit); !f.empty()) k = f;
    else if (auto n = llvm_scc_names(b.unit); !n.empty()) k = n.front();
    else k = b.unit;
    Compile *target = nullptr;
    auto known = by_kernel.find(k);
    if (!k.empty() && known != by_kernel.end()) {
      // The n-th LLVM pipeline run for a kernel belongs to its n-th compile.
      LlvmInstance &li = llvm_inst[k];
      bool new_run = li.index < 0 || (b.family == Family::Llvm && b.unit == "[module]" &&
                                      b.pass == li.first_pass && li.dumps > 1);
      if (new_run) {
        ++li.index;
        li.dumps = 0;
        li.first_pass = b.family == Family::Llvm ? b.pass : std::string();
      }
      ++li.dumps;
      auto &v = known->second;
      target = v[std::min<std::size_t>(li.index, v.size() - 1)];
    } else if (llvm_cur) {
      target = llvm_cur;  // a helper function of the kernel being compiled
    } else {
      target = new_compile(k.empty() ? std::string("kernel") : k);
    }
    llvm_cur = target;
    if (opts.in_order && target == mlir_cur && !mlir_ended) {
      mlir_ended = true;  // the compile's MLIR passes are over
      target->asm_->end_mlir();
    }
    target->asm_->on_dump(std::move(d));
  }

  void codegen_all() {
    if (!triton || opts.stage_dir.empty()) return;
    auto idx = triton::index_stage_dir(opts.stage_dir);
    for (auto &c : compiles) {
      auto it = idx.find(c->c.kernel);
      if (it == idx.end() || c->c.ordinal >= static_cast<int>(it->second.size())) continue;
      auto dir = it->second[c->c.ordinal];
      auto ptx = util::read_file((dir / (c->c.kernel + ".ptx")).string());
      if (!ptx) continue;
      c->asm_->finish();
      std::string gen = opts.lowered_for ? opts.lowered_for(c->c.kernel, dir.string(), *ptx) : *ptx;
      // The record goes from the LLVM IR Triton lowered to the PTX it generated.
      auto llir = util::read_file((dir / (c->c.kernel + ".llir")).string());
      std::string src = llir ? c->target->codegen(*llir, "llvm", gen, "ptx", c->c.kernel)
                             : c->target->codegen(gen, "ptx", gen, "ptx", c->c.kernel);
      result.codegens.push_back({c->c.kernel, dir.string(), gen, src});
    }
  }
};

Importer::Importer(ImportOptions opts, TargetFactory factory) : impl_(std::make_unique<Impl>()) {
  impl_->opts = std::move(opts);
  impl_->factory = std::move(factory);
  Splitter::Families fam;
  if (impl_->opts.format == Format::Mlir) fam.llvm = fam.mir = false;
  if (impl_->opts.format == Format::Llvm) fam.mlir = false;
  Impl *im = impl_.get();
  impl_->splitter = std::make_unique<Splitter>(
      [im](Dump &&d) {
        ++im->result.dumps;
        im->on_dump(std::move(d));
      },
      [im](std::string w) { im->warn(std::move(w)); }, fam);
  impl_->splitter->begin_input("<input>");
}

Importer::~Importer() = default;

void Importer::feed(std::string_view bytes) { impl_->splitter->feed(bytes); }

void Importer::end_input() {
  impl_->splitter->end_input();
  impl_->splitter->begin_input("<input>");
}

std::string Importer::feed_file(const std::string &path) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) return fmt::format("cannot open {}", path);
  std::error_code ec;
  std::uint64_t total = std::filesystem::file_size(path, ec);
  if (ec) total = 0;
  impl_->splitter->begin_input(path);
  std::uint64_t start = impl_->splitter->bytes_seen();
  std::string buf(1 << 20, '\0');
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) {
    impl_->splitter->feed(std::string_view(buf.data(), n));
    if (impl_->opts.progress) impl_->opts.progress(impl_->splitter->bytes_seen() - start, total);
  }
  bool err = std::ferror(f);
  std::fclose(f);
  impl_->splitter->end_input();
  impl_->splitter->begin_input("<input>");
  return err ? fmt::format("read error in {}", path) : std::string();
}

ImportResult Importer::finish() {
  Impl &im = *impl_;
  im.splitter->end_input();
  im.codegen_all();
  for (auto &c : im.compiles) {
    c->asm_->finish();
    im.result.records += c->asm_->records();
    c->target->finish({});
  }
  im.result.bytes = im.splitter->bytes_seen();
  im.result.compilations = static_cast<int>(im.compiles.size());
  im.result.detected = im.triton ? Format::Triton : im.any_mlir ? Format::Mlir : im.any_llvm ? Format::Llvm : Format::Auto;
  return std::move(im.result);
}

}  // namespace lowertrace::dump
