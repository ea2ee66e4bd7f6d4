#include "ir_unit.h"

#include <llvm/ADT/Any.h>
#include <llvm/Analysis/LazyCallGraph.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/StructuralHash.h>
#include <llvm/Support/raw_ostream.h>

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

std::string print(const llvm::Any &ir) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (const auto *m = get<llvm::Module>(ir)) {
    m->print(os, nullptr);
  } else if (const auto *f = get<llvm::Function>(ir)) {
    f->print(os);
  } else if (const auto *l = get<llvm::Loop>(ir)) {
    loop_function(*l)->print(os);
  } else if (const auto *c = get<llvm::LazyCallGraph::SCC>(ir)) {
    for (const llvm::LazyCallGraph::Node &n : *c) n.getFunction().print(os);
  }
  os.flush();
  return text;
}

std::uint64_t fingerprint(const llvm::Any &ir) {
  if (const auto *m = get<llvm::Module>(ir)) return llvm::StructuralHash(*m, true);
  if (const auto *f = get<llvm::Function>(ir)) return llvm::StructuralHash(*f, true);
  if (const auto *l = get<llvm::Loop>(ir)) return llvm::StructuralHash(*loop_function(*l), true);
  if (const auto *c = get<llvm::LazyCallGraph::SCC>(ir)) {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (const llvm::LazyCallGraph::Node &n : *c)
      h = (h ^ llvm::StructuralHash(n.getFunction(), true)) * 0x100000001b3ULL;
    return h;
  }
  return 0;
}

}  // namespace lowertrace::llvm_capture
