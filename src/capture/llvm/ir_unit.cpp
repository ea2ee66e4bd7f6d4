#include "ir_unit.h"

#include <llvm/ADT/Any.h>
#include <llvm/Analysis/LazyCallGraph.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>
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

bool may_add_or_delete_functions(const llvm::Any &ir) {
  return get<llvm::Module>(ir) || get<llvm::LazyCallGraph::SCC>(ir);
}

Fingerprint fingerprint(const llvm::Any &ir) {
  if (const auto *m = get<llvm::Module>(ir)) return fingerprint(*m);
  if (const auto *f = get<llvm::Function>(ir)) return fingerprint(*f);
  if (const auto *l = get<llvm::Loop>(ir)) return fingerprint(*loop_function(*l));
  if (const auto *c = get<llvm::LazyCallGraph::SCC>(ir)) {
    Fingerprint fp{0x5CC, 0};
    for (const llvm::LazyCallGraph::Node &n : *c)
      if (!n.getFunction().isDeclaration()) fp = combine(fp, fingerprint(n.getFunction()));
    return fp;
  }
  return {};
}

}  // namespace lowertrace::llvm_capture
