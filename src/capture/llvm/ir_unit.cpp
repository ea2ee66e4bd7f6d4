#include "ir_unit.h"

#include <llvm/ADT/Any.h>
#include <llvm/Analysis/LazyCallGraph.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Function.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ModuleSlotTracker.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace lowertrace::llvm_capture {

namespace {
template <class T> const T *get(const llvm::Any &ir) {
  const T *const *p = llvm::any_cast<const T *>(&ir);
  return p ? *p : nullptr;
}
const llvm::Function *loop_function(const llvm::Loop &l) { return l.getHeader()->getParent(); }
}  // namespace

IrUnit describe(const llvm::Any &ir) {
  IrUnit u;
  if (const auto *m = get<llvm::Module>(ir)) {
    u = {m, m, "[module]", true};
  } else if (const auto *f = get<llvm::Function>(ir)) {
    u = {f, f->getParent(), f->getName().str(), true};
  } else if (const auto *l = get<llvm::Loop>(ir)) {
    const llvm::Function *f = loop_function(*l);
    u = {f, f->getParent(), "loop %" + l->getName().str() + " in function " + f->getName().str(), true};
  } else if (const auto *c = get<llvm::LazyCallGraph::SCC>(ir)) {
    const llvm::Module *m = c->begin() != c->end() ? c->begin()->getFunction().getParent() : nullptr;
    u = {c, m, c->getName(), true};
  } else {
    u.name = "?";
  }
  return u;
}

// Printed exactly as -print-after-all prints each kind, so records and dumps
// agree: a function through Value's operator<< (metadata numbered module-wide,
// !8 stays !8), an SCC's functions through Function::print (numbered per
// function). Loops are the exception: we print the whole function, not the loop.
std::string print(const llvm::Any &ir) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (const auto *m = get<llvm::Module>(ir)) {
    m->print(os, nullptr);
  } else if (const auto *f = get<llvm::Function>(ir)) {
    os << *f;
  } else if (const auto *l = get<llvm::Loop>(ir)) {
    os << *loop_function(*l);
  } else if (const auto *c = get<llvm::LazyCallGraph::SCC>(ir)) {
    // As -print-after-all prints an SCC: its defined functions, each by Function::print.
    for (const llvm::LazyCallGraph::Node &n : *c)
      if (!n.getFunction().isDeclaration()) n.getFunction().print(os);
  }
  os.flush();
  return text;
}

struct Printer::Shared {
  const llvm::Module *module = nullptr;
  std::uint64_t generation = 0;
  std::unique_ptr<llvm::ModuleSlotTracker> mst;
  llvm::DenseSet<void *> module_sets;  // attribute sets the module-level numbering has
  // Call-site attribute sets that prints with `mst` added after the module's,
  // in the order they got their numbers (SlotTracker never forgets them).
  std::vector<void *> added;
};

Printer::Printer() : shared_(std::make_unique<Shared>()) {}
Printer::~Printer() = default;

namespace {
void *raw_set(llvm::AttributeSet s) {
  void *p = nullptr;
  static_assert(sizeof s == sizeof p);
  std::memcpy(&p, &s, sizeof p);
  return p;
}
}  // namespace

std::string Printer::print(const llvm::Any &ir, std::uint64_t generation) {
  const llvm::Function *f = get<llvm::Function>(ir);
  if (const auto *l = get<llvm::Loop>(ir)) f = loop_function(*l);
  if (!f || !f->getParent()) return lowertrace::llvm_capture::print(ir);
  Shared &sh = *shared_;
  // The call-site attribute sets `f` numbers after the module's, in order.
  std::vector<void *> fresh;
  llvm::DenseSet<void *> seen;
  auto collect = [&] {
    fresh.clear();
    seen.clear();
    for (const llvm::BasicBlock &bb : *f)
      for (const llvm::Instruction &i : bb)
        if (const auto *cb = llvm::dyn_cast<llvm::CallBase>(&i))
          if (llvm::AttributeSet a = cb->getAttributes().getFnAttrs(); a.hasAttributes()) {
            void *p = raw_set(a);
            if (!sh.module_sets.contains(p) && seen.insert(p).second) fresh.push_back(p);
          }
  };
  bool rebuild = !sh.mst || sh.module != f->getParent() || sh.generation != generation;
  if (!rebuild) {
    collect();
    // A fresh numbering gives these sets the numbers after the module's in
    // this order; the shared table agrees if one list is a prefix of the other.
    std::size_t n = std::min(fresh.size(), sh.added.size());
    rebuild = !std::equal(fresh.begin(), fresh.begin() + n, sh.added.begin());
  }
  if (rebuild) {
    sh.module = f->getParent();
    sh.generation = generation;
    // As Value::print numbers a function's module: all metadata included.
    sh.mst = std::make_unique<llvm::ModuleSlotTracker>(sh.module, /*ShouldInitializeAllMetadata=*/true);
    sh.module_sets.clear();
    sh.added.clear();
    ++builds;
    for (const llvm::GlobalVariable &g : sh.module->globals())
      if (g.getAttributes().hasAttributes()) sh.module_sets.insert(raw_set(g.getAttributes()));
    for (const llvm::Function &fn : *sh.module)
      if (llvm::AttributeSet a = fn.getAttributes().getFnAttrs(); a.hasAttributes())
        sh.module_sets.insert(raw_set(a));
    collect();
  }
  if (fresh.size() > sh.added.size()) sh.added = fresh;
  ++reused;
  std::string text;
  llvm::raw_string_ostream os(text);
  static_cast<const llvm::Value *>(f)->print(os, *sh.mst);  // Function::print would renumber
  os.flush();
  return text;
}

bool may_add_or_delete_functions(const llvm::Any &ir) {
  return get<llvm::Module>(ir) || get<llvm::LazyCallGraph::SCC>(ir);
}

Fingerprint fingerprint(const llvm::Any &ir, Fingerprint *context) {
  Fingerprint ignored;
  Fingerprint &ctx = context ? *context : ignored;
  if (const auto *m = get<llvm::Module>(ir)) return ctx = fingerprint(*m);
  if (const auto *f = get<llvm::Function>(ir)) return fingerprint(*f, &ctx);
  if (const auto *l = get<llvm::Loop>(ir)) return fingerprint(*loop_function(*l), &ctx);
  if (const auto *c = get<llvm::LazyCallGraph::SCC>(ir)) {
    Fingerprint fp{0x5CC, 0};
    ctx = fp;
    for (const llvm::LazyCallGraph::Node &n : *c) {
      if (n.getFunction().isDeclaration()) continue;
      Fingerprint one;
      fp = combine(fp, fingerprint(n.getFunction(), &one));
      ctx = combine(ctx, one);
    }
    return fp;
  }
  // A unit this walker does not know (a machine function): never equal to an
  // earlier fingerprint, so it is always printed and compared as text.
  static std::uint64_t unknown = 0;
  return ctx = {0x0BADF00D, ++unknown};
}

}  // namespace lowertrace::llvm_capture
