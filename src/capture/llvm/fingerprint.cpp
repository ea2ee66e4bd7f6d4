#include "fingerprint.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DebugProgramInstruction.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalAlias.h>
#include <llvm/IR/GlobalIFunc.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ValueSymbolTable.h>
#include <llvm/IR/Operator.h>

#include "util/word_hasher.h"

#include <cstring>

namespace lowertrace::llvm_capture {

namespace {

// Tags keep one field's words apart from the next kind of field.
enum Tag : std::uint64_t {
  kFunction = 0xF00D0001, kArg, kBlock, kInst, kOperandLocal, kConst, kGlobal, kUnnamed,
  kMdNode, kMdString, kMdValue, kMdExpr, kMdArgList, kMdNull, kDbgRecord, kAttach,
  kGlobalVar, kAlias, kIFunc, kNamedMd, kAsm, kOther, kEnd, kModule, kPreds, kBundle,
};

// llvm::StringRef goes in as one word; everything else as WordHasher takes it.
class Hasher : public util::WordHasher {
public:
  using util::WordHasher::add;
  void add(llvm::StringRef s) { add_string({s.data(), s.size()}); }
  Fingerprint fingerprint() {
    auto [hi, lo] = result();
    return {hi, lo};
  }
};

template <class T> std::uint64_t raw(const T &v) {
  static_assert(sizeof(T) <= sizeof(std::uint64_t));
  std::uint64_t w = 0;
  std::memcpy(&w, &v, sizeof(T));
  return w;
}

class Walker {
public:
  // `context`, when given, receives what the walked function contributes to
  // other units' prints (see fingerprint.h).
  explicit Walker(Hasher &h, Hasher *context = nullptr) : h_(h), ctx_(context) {}

  void function(const llvm::Function &f) {
    locals_.clear();
    if (ctx_) {
      ctx_->add(f.hasName() ? 1 : 2);
      ctx_->add(raw(f.getAttributes().getFnAttrs()));
    }
    h_.add(kFunction);
    global_header(f);
    h_.add(static_cast<std::uint64_t>(f.getCallingConv()));
    h_.add(f.getAttributes().getRawPointer());
    h_.add(f.getFunctionType());
    h_.add(f.getAddressSpace());
    h_.add(f.hasGC() ? llvm::StringRef(f.getGC()) : llvm::StringRef());
    h_.add(f.hasPersonalityFn() ? 1 : 0);
    if (f.hasPersonalityFn()) constant(f.getPersonalityFn());
    h_.add(f.hasPrefixData() ? 1 : 0);
    if (f.hasPrefixData()) constant(f.getPrefixData());
    h_.add(f.hasPrologueData() ? 1 : 0);
    if (f.hasPrologueData()) constant(f.getPrologueData());
    attachments(f);
    h_.add(f.isDeclaration() ? 1 : 0);
    for (const llvm::Argument &a : f.args()) {
      h_.add(kArg);
      h_.add(local(&a));
      name(a);
    }
    for (const llvm::BasicBlock &bb : f) block(bb);
    h_.add(kEnd);
  }

  void module(const llvm::Module &m) {
    collect_roots_ = true;
    h_.add(kModule);
    h_.add(llvm::StringRef(m.getModuleIdentifier()));
    h_.add(llvm::StringRef(m.getSourceFileName()));
    h_.add(llvm::StringRef(m.getDataLayoutStr()));
    h_.add(llvm::StringRef(m.getTargetTriple().str()));
    h_.add(llvm::StringRef(m.getModuleInlineAsm()));
    for (const llvm::GlobalVariable &g : m.globals()) {
      h_.add(kGlobalVar);
      global_header(g);
      h_.add(static_cast<std::uint64_t>(g.getThreadLocalMode()));
      h_.add(g.getAddressSpace());
      h_.add((g.isConstant() ? 1 : 0) | (g.isExternallyInitialized() ? 2 : 0));
      h_.add(g.getValueType());
      h_.add(g.hasInitializer() ? 1 : 0);
      if (g.hasInitializer()) constant(g.getInitializer());
      h_.add(g.getCodeModelRaw());
      h_.add(raw(g.getAttributes()));
      if (g.hasSanitizerMetadata()) h_.add(raw(g.getSanitizerMetadata()));
      attachments(g);
    }
    for (const llvm::GlobalAlias &a : m.aliases()) {
      h_.add(kAlias);
      global_header(a);
      h_.add(a.getValueType());
      h_.add(a.getAddressSpace());
      constant(a.getAliasee());
    }
    for (const llvm::GlobalIFunc &i : m.ifuncs()) {
      h_.add(kIFunc);
      global_header(i);
      h_.add(i.getValueType());
      h_.add(i.getAddressSpace());
      constant(i.getResolver());
    }
    for (const llvm::Function &f : m) function(f);
    for (const llvm::NamedMDNode &n : m.named_metadata()) {
      h_.add(kNamedMd);
      h_.add(n.getName());
      for (const llvm::MDNode *op : n.operands()) {
        h_.add(op);
        root(op);
      }
    }
    // The definitions (!7 = !{...}) of every node a module print numbers.
    llvm::SmallPtrSet<const llvm::MDNode *, 32> seen;
    llvm::SmallVector<const llvm::MDNode *, 64> stack;
    for (const llvm::MDNode *r : roots_) {
      stack.push_back(r);
      while (!stack.empty()) {
        const llvm::MDNode *n = stack.pop_back_val();
        if (!n || !seen.insert(n).second) continue;
        h_.add(kMdNode);
        h_.add(n);
        h_.add(n->getMetadataID() * 2 + (n->isDistinct() ? 1 : 0));
        h_.add(n->getNumOperands());
        for (const llvm::MDOperand &op : n->operands()) {
          metadata(op.get());
          if (const auto *child = llvm::dyn_cast_or_null<llvm::MDNode>(op.get())) stack.push_back(child);
        }
      }
    }
    h_.add(kEnd);
  }

private:
  // A node the printer numbers (SlotTracker's slots). A module print shows
  // their definitions; other units' numbers depend on the order in which
  // functions mention them first (repeats number nothing).
  void root(const llvm::MDNode *n) {
    if (!n) return;
    if (collect_roots_) roots_.push_back(n);
    if (ctx_ && !llvm::isa<llvm::DIExpression>(n) && ctx_seen_.insert(n).second) ctx_->add(n);
  }

  std::uint64_t local(const llvm::Value *v) {
    auto [it, fresh] = locals_.try_emplace(v, static_cast<std::uint32_t>(locals_.size()));
    return it->second;
  }

  void name(const llvm::Value &v) {
    if (v.hasName()) h_.add(v.getName());
    else h_.add(kUnnamed);
  }

  void type(const llvm::Type *t) {
    h_.add(t);
    // Named structs print by name, and a name can change in place.
    if (const auto *st = llvm::dyn_cast<llvm::StructType>(t); st && st->hasName()) h_.add(st->getName());
  }

  void global_header(const llvm::GlobalValue &g) {
    name(g);
    h_.add(static_cast<std::uint64_t>(g.getLinkage()) | static_cast<std::uint64_t>(g.getVisibility()) << 8 |
           static_cast<std::uint64_t>(g.getDLLStorageClass()) << 16 |
           static_cast<std::uint64_t>(g.getUnnamedAddr()) << 24 | (g.isDSOLocal() ? 1ull << 32 : 0));
    if (const auto *go = llvm::dyn_cast<llvm::GlobalObject>(&g)) {
      h_.add(go->hasSection() ? go->getSection() : llvm::StringRef());
      if (const auto *gv = llvm::dyn_cast<llvm::GlobalVariable>(go)) h_.add(gv->getAlign() ? gv->getAlign()->value() : 0);
      if (const auto *fn = llvm::dyn_cast<llvm::Function>(go)) h_.add(fn->getAlign() ? fn->getAlign()->value() : 0);
      if (const llvm::Comdat *c = go->getComdat()) {
        h_.add(c->getName());
        h_.add(static_cast<std::uint64_t>(c->getSelectionKind()));
      }
    }
    h_.add(g.getPartition());
    if (!g.hasName()) h_.add(&g);  // printed as @N: numbered in module order
  }

  // !kind !N attachments of a global object or an instruction.
  template <class T> void attachments(const T &x) {
    if (!x.hasMetadata()) return;
    llvm::SmallVector<std::pair<unsigned, llvm::MDNode *>, 4> mds;
    x.getAllMetadata(mds);
    for (const auto &[kind, node] : mds) {
      h_.add(kAttach + (static_cast<std::uint64_t>(kind) << 32));
      h_.add(node);
      root(node);
    }
  }

  void block(const llvm::BasicBlock &bb) {
    h_.add(kBlock);
    h_.add(local(&bb));
    name(bb);
    // The "; preds = %a, %b" comment, in use-list order.
    h_.add(kPreds);
    for (const llvm::BasicBlock *p : llvm::predecessors(&bb)) h_.add(local(p));
    for (const llvm::Instruction &i : bb) instruction(i);
  }

  void instruction(const llvm::Instruction &i) {
    for (const llvm::DbgRecord &r : i.getDbgRecordRange()) dbg_record(r);
    h_.add(kInst + (static_cast<std::uint64_t>(i.getOpcode()) << 32));
    h_.add(local(&i));
    name(i);
    type(i.getType());
    h_.add(i.getRawSubclassOptionalData());  // nuw/nsw/exact/disjoint/nneg/samesign/inbounds/fast-math
    kind_fields(i);
    h_.add(i.getNumOperands());
    for (const llvm::Value *op : i.operands()) operand(op);
    if (const auto *phi = llvm::dyn_cast<llvm::PHINode>(&i))
      for (const llvm::BasicBlock *b : phi->blocks()) h_.add(local(b));
    attachments(i);
  }

  // What the printer shows beyond opcode, type and operands (kept in each
  // class's subclass data, which has no generic accessor).
  void kind_fields(const llvm::Instruction &i) {
    using namespace llvm;
    if (const auto *c = dyn_cast<CmpInst>(&i)) {
      h_.add(static_cast<std::uint64_t>(c->getPredicate()));
    } else if (const auto *l = dyn_cast<LoadInst>(&i)) {
      h_.add(l->getAlign().value() << 8 | (l->isVolatile() ? 1 : 0) | static_cast<std::uint64_t>(l->getOrdering()) << 1);
      h_.add(l->getSyncScopeID());
    } else if (const auto *s = dyn_cast<StoreInst>(&i)) {
      h_.add(s->getAlign().value() << 8 | (s->isVolatile() ? 1 : 0) | static_cast<std::uint64_t>(s->getOrdering()) << 1);
      h_.add(s->getSyncScopeID());
    } else if (const auto *a = dyn_cast<AllocaInst>(&i)) {
      type(a->getAllocatedType());
      h_.add(a->getAlign().value() << 2 | (a->isUsedWithInAlloca() ? 1 : 0) | (a->isSwiftError() ? 2 : 0));
    } else if (const auto *g = dyn_cast<GetElementPtrInst>(&i)) {
      type(g->getSourceElementType());
    } else if (const auto *cb = dyn_cast<CallBase>(&i)) {
      h_.add(static_cast<std::uint64_t>(cb->getCallingConv()));
      h_.add(cb->getAttributes().getRawPointer());
      h_.add(cb->getFunctionType());
      if (const auto *ci = dyn_cast<CallInst>(cb)) h_.add(static_cast<std::uint64_t>(ci->getTailCallKind()));
      for (unsigned b = 0, e = cb->getNumOperandBundles(); b != e; ++b) {
        OperandBundleUse u = cb->getOperandBundleAt(b);
        h_.add(kBundle + (static_cast<std::uint64_t>(u.getTagID()) << 32) + u.Inputs.size());
      }
    } else if (const auto *rmw = dyn_cast<AtomicRMWInst>(&i)) {
      h_.add(static_cast<std::uint64_t>(rmw->getOperation()) << 40 | rmw->getAlign().value() << 8 |
             static_cast<std::uint64_t>(rmw->getOrdering()) << 1 | (rmw->isVolatile() ? 1 : 0));
      h_.add(rmw->getSyncScopeID());
    } else if (const auto *x = dyn_cast<AtomicCmpXchgInst>(&i)) {
      h_.add(x->getAlign().value() << 16 | static_cast<std::uint64_t>(x->getSuccessOrdering()) << 8 |
             static_cast<std::uint64_t>(x->getFailureOrdering()) << 2 | (x->isVolatile() ? 1 : 0) |
             (x->isWeak() ? 2 : 0));
      h_.add(x->getSyncScopeID());
    } else if (const auto *f = dyn_cast<FenceInst>(&i)) {
      h_.add(static_cast<std::uint64_t>(f->getOrdering()));
      h_.add(f->getSyncScopeID());
    } else if (const auto *sv = dyn_cast<ShuffleVectorInst>(&i)) {
      for (int m : sv->getShuffleMask()) h_.add(static_cast<std::uint64_t>(static_cast<std::int64_t>(m)));
    } else if (const auto *ev = dyn_cast<ExtractValueInst>(&i)) {
      for (unsigned k : ev->getIndices()) h_.add(k);
    } else if (const auto *iv = dyn_cast<InsertValueInst>(&i)) {
      for (unsigned k : iv->getIndices()) h_.add(k);
    } else if (const auto *lp = dyn_cast<LandingPadInst>(&i)) {
      h_.add(lp->isCleanup() ? 1 : 0);
      for (unsigned c = 0, e = lp->getNumClauses(); c != e; ++c) h_.add(lp->isCatch(c) ? 1 : 2);
    }
  }

  void operand(const llvm::Value *v) {
    if (!v) {
      h_.add(kOther);
    } else if (llvm::isa<llvm::Instruction>(v) || llvm::isa<llvm::Argument>(v) || llvm::isa<llvm::BasicBlock>(v)) {
      h_.add(kOperandLocal);
      h_.add(local(v));
    } else if (const auto *c = llvm::dyn_cast<llvm::Constant>(v)) {
      constant(c);
    } else if (const auto *mv = llvm::dyn_cast<llvm::MetadataAsValue>(v)) {
      metadata(mv->getMetadata());
      if (const auto *n = llvm::dyn_cast<llvm::MDNode>(mv->getMetadata())) root(n);
    } else if (const auto *ia = llvm::dyn_cast<llvm::InlineAsm>(v)) {
      h_.add(kAsm);
      h_.add(llvm::StringRef(ia->getAsmString()));
      h_.add(llvm::StringRef(ia->getConstraintString()));
      h_.add(ia->getFunctionType());
      h_.add((ia->hasSideEffects() ? 1 : 0) | (ia->isAlignStack() ? 2 : 0) | (ia->canThrow() ? 4 : 0) |
             static_cast<std::uint64_t>(ia->getDialect()) << 3);
    } else {
      h_.add(kOther);
      h_.add(v);
    }
  }

  void constant(const llvm::Constant *c) {
    using namespace llvm;
    h_.add(kConst + (static_cast<std::uint64_t>(c->getValueID()) << 32));
    if (const auto *g = dyn_cast<GlobalValue>(c)) {
      h_.add(kGlobal);
      name(*g);
      if (!g->hasName()) h_.add(g);
      return;
    }
    type(c->getType());
    // ConstantInt, ConstantFP, zeroinitializer, undef, poison, data arrays...:
    // uniqued and never freed, so their identity is their value.
    if (isa<ConstantData>(c)) {
      h_.add(c);
      return;
    }
    // Expressions and aggregates can be destroyed and their address reused:
    // hash them by value.
    h_.add(c->getRawSubclassOptionalData());
    if (const auto *ce = dyn_cast<ConstantExpr>(c)) {
      h_.add(ce->getOpcode());
      if (const auto *gep = dyn_cast<GEPOperator>(ce)) {
        type(gep->getSourceElementType());
        if (auto r = gep->getInRange()) {
          h_.add(static_cast<std::uint64_t>(llvm::hash_value(r->getLower())));
          h_.add(static_cast<std::uint64_t>(llvm::hash_value(r->getUpper())));
        }
      }
    } else if (const auto *ba = dyn_cast<BlockAddress>(c)) {
      name(*ba->getFunction());
      const BasicBlock *bb = ba->getBasicBlock();
      name(*bb);
      h_.add(bb);  // an unnamed block prints as its number in that function
      return;
    } else if (const auto *dso = dyn_cast<DSOLocalEquivalent>(c)) {
      constant(dso->getGlobalValue());
      return;
    } else if (const auto *nc = dyn_cast<NoCFIValue>(c)) {
      constant(nc->getGlobalValue());
      return;
    }
    h_.add(c->getNumOperands());
    for (const Use &op : c->operands()) {
      if (const auto *oc = dyn_cast<Constant>(op.get())) constant(oc);
      else operand(op.get());
    }
  }

  // Metadata as printed inside an instruction or a node's operand list.
  void metadata(const llvm::Metadata *md) {
    using namespace llvm;
    if (!md) {
      h_.add(kMdNull);
    } else if (const auto *e = dyn_cast<DIExpression>(md)) {
      h_.add(kMdExpr);  // printed inline, never numbered
      for (std::uint64_t w : e->getElements()) h_.add(w);
    } else if (const auto *n = dyn_cast<MDNode>(md)) {
      h_.add(kMdNode);
      h_.add(n);
    } else if (const auto *s = dyn_cast<MDString>(md)) {
      h_.add(kMdString);
      h_.add(s->getString());
    } else if (const auto *vm = dyn_cast<ValueAsMetadata>(md)) {
      h_.add(kMdValue);
      type(vm->getValue()->getType());
      operand(vm->getValue());
    } else if (const auto *al = dyn_cast<DIArgList>(md)) {
      h_.add(kMdArgList);
      for (const ValueAsMetadata *a : al->getArgs()) metadata(a);
    } else {
      h_.add(kOther);
      h_.add(md);
    }
  }

  void dbg_record(const llvm::DbgRecord &r) {
    using namespace llvm;
    h_.add(kDbgRecord + (static_cast<std::uint64_t>(r.getRecordKind()) << 32));
    if (const auto *v = dyn_cast<DbgVariableRecord>(&r)) {
      h_.add(static_cast<std::uint64_t>(v->getType()));
      metadata(v->getRawLocation());
      root(llvm::dyn_cast_or_null<MDNode>(v->getRawLocation()));
      metadata(v->getRawVariable());
      metadata(v->getRawExpression());
      if (v->isDbgAssign()) {
        metadata(v->getRawAssignID());
        metadata(v->getRawAddress());
        metadata(v->getRawAddressExpression());
      }
      root(v->getRawVariable());
    } else if (const auto *l = dyn_cast<DbgLabelRecord>(&r)) {
      metadata(l->getRawLabel());
      root(l->getRawLabel());
    }
    const MDNode *loc = r.getDebugLoc().getAsMDNode();
    h_.add(loc);
    root(loc);
  }

  Hasher &h_;
  llvm::DenseMap<const llvm::Value *, std::uint32_t> locals_;
  // Nodes the walk met, for a module's metadata definitions.
  std::vector<const llvm::MDNode *> roots_;
  bool collect_roots_ = false;
  Hasher *ctx_;
  llvm::SmallPtrSet<const llvm::MDNode *, 16> ctx_seen_;
};

}  // namespace

Fingerprint fingerprint(const llvm::Function &f, Fingerprint *context) {
  Hasher h, c;
  Walker(h, context ? &c : nullptr).function(f);
  if (context) *context = c.fingerprint();
  return h.fingerprint();
}

namespace {
// module_context() less the function list: globals, aliases, ifuncs, named
// metadata.
void hash_globals(Hasher &h, const llvm::Module &m) {
  for (const llvm::GlobalVariable &g : m.globals()) {
    h.add(&g);
    h.add(g.hasName() ? 1 : 2);
    h.add(raw(g.getAttributes()));
    if (g.hasMetadata()) {
      llvm::SmallVector<std::pair<unsigned, llvm::MDNode *>, 4> mds;
      g.getAllMetadata(mds);
      for (const auto &[kind, node] : mds) h.add(node);
    }
  }
  for (const llvm::GlobalAlias &a : m.aliases()) h.add(a.hasName() ? &a : nullptr);
  for (const llvm::GlobalIFunc &i : m.ifuncs()) h.add(i.hasName() ? &i : nullptr);
  for (const llvm::NamedMDNode &n : m.named_metadata())
    for (const llvm::MDNode *op : n.operands()) h.add(op);
}

void hash_function(Hasher &h, const llvm::Function &f) {
  h.add(&f);
  h.add(f.hasName() ? 1 : 2);
  h.add(raw(f.getAttributes().getFnAttrs()));
}
}  // namespace

Fingerprint module_context(const llvm::Module &m) {
  // Mirrors what SlotTracker::processModule numbers besides function bodies.
  Hasher h;
  hash_globals(h, m);
  for (const llvm::Function &f : m) hash_function(h, f);
  return h.fingerprint();
}

Fingerprint ContextWatch::read(const llvm::Module &m) {
  context_ = module_context(m);
  Hasher h;
  hash_globals(h, m);
  declarations_.clear();
  for (const llvm::Function &f : m)
    if (f.isDeclaration()) {
      declarations_.emplace_back(const_cast<llvm::Function *>(&f));
      hash_function(h, f);
    }
  outside_ = h.fingerprint();
  module_ = &m;
  symbols_ = m.getValueSymbolTable().size();
  first_ = m.empty() ? nullptr : &m.getFunctionList().front();
  last_ = m.empty() ? nullptr : &m.getFunctionList().back();
  return context_;
}

Fingerprint ContextWatch::after_function_pass(const llvm::Module &m) {
  // A function is appended (or a value named) only by growing the symbol
  // table or the list's ends; a deleted declaration nulls its handle.
  if (module_ != &m || symbols_ != m.getValueSymbolTable().size() ||
      first_ != (m.empty() ? nullptr : &m.getFunctionList().front()) || last_ != (m.empty() ? nullptr : &m.getFunctionList().back()))
    return read(m);
  Hasher h;
  hash_globals(h, m);
  for (const llvm::WeakVH &d : declarations_) {
    const auto *f = llvm::dyn_cast_or_null<llvm::Function>(d);
    if (!f || !f->isDeclaration()) return read(m);
    hash_function(h, *f);
  }
  if (!(h.fingerprint() == outside_)) return read(m);
  ++quick_;
  return context_;
}

Fingerprint fingerprint(const llvm::Module &m) {
  Hasher h;
  Walker(h).module(m);
  return h.fingerprint();
}

Fingerprint combine(const Fingerprint &a, const Fingerprint &b) {
  std::uint64_t w[4] = {a.hi, a.lo, b.hi, b.lo};
  XXH128_hash_t h = XXH3_128bits(w, sizeof w);
  return {h.high64, h.low64};
}

}  // namespace lowertrace::llvm_capture
