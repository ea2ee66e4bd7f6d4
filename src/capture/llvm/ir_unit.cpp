#include "ir_unit.h"


#include <llvm/ADT/Any.h>
#include <llvm/Analysis/LazyCallGraph.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/DebugProgramInstruction.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ValueHandle.h>
#include <llvm/IR/ModuleSlotTracker.h>
#include <llvm/Support/raw_ostream.h>

#include "util/word_hasher.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

namespace lowertrace::llvm_capture {

namespace {
template <class T> const T *get(const llvm::Any &ir) {
  const T *const *p = llvm::any_cast<const T *>(&ir);
  return p ? *p : nullptr;
}
const llvm::Function *loop_function(const llvm::Loop &l) { return l.getHeader()->getParent(); }

// A large print collected in blocks, then moved into one string of its exact
// size, each block freed once copied. A string that grows by doubling held
// up to twice the text, and then a copy to give the slack back: 60 MB for
// the 26 MB module text opt -O2 makes of 2,000 functions, at the moment the
// compile's own memory peaks. Here the peak is the text and one block.
class BlockStream final : public llvm::raw_ostream {
public:
  BlockStream() { SetBufferSize(1 << 16); }
  ~BlockStream() override { flush(); }

  std::string take() {
    flush();
    std::string text;
    text.reserve(size_);
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
      bool last = i + 1 == blocks_.size();
      text.append(blocks_[i].get(), last ? used_ : kBlock);
      blocks_[i].reset();
    }
    blocks_.clear();
    used_ = kBlock;
    size_ = 0;
    return text;
  }

private:
  static constexpr std::size_t kBlock = 1 << 20;
  void write_impl(const char *p, size_t n) override {
    size_ += n;
    while (n > 0) {
      if (used_ == kBlock) {
        blocks_.push_back(std::make_unique<char[]>(kBlock));
        used_ = 0;
      }
      std::size_t k = std::min(n, kBlock - used_);
      std::memcpy(blocks_.back().get() + used_, p, k);
      used_ += k;
      p += k;
      n -= k;
    }
  }
  uint64_t current_pos() const override { return size_; }

  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t used_ = kBlock;  // bytes in the last block
  std::size_t size_ = 0;
};
}  // namespace

std::string print_module(const llvm::Module &m) {
  BlockStream os;
  m.print(os, nullptr);
  return os.take();
}

IrUnit describe(const llvm::Any &ir) {
  IrUnit u;
  if (const auto *m = get<llvm::Module>(ir)) {
    u = {m, m, nullptr, "[module]", true};
  } else if (const auto *f = get<llvm::Function>(ir)) {
    u = {f, f->getParent(), f, f->getName().str(), true};
  } else if (const auto *l = get<llvm::Loop>(ir)) {
    const llvm::Function *f = loop_function(*l);
    u = {f, f->getParent(), f, "loop %" + l->getName().str() + " in function " + f->getName().str(), true};
  } else if (const auto *c = get<llvm::LazyCallGraph::SCC>(ir)) {
    const llvm::Module *m = c->begin() != c->end() ? c->begin()->getFunction().getParent() : nullptr;
    u = {c, m, nullptr, c->getName(), true};
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
  if (const auto *m = get<llvm::Module>(ir)) return print_module(*m);
  std::string text;
  llvm::raw_string_ostream os(text);
  if (const auto *f = get<llvm::Function>(ir)) {
    os << *f;
  } else if (const auto *l = get<llvm::Loop>(ir)) {
    os << *loop_function(*l);
  } else if (const auto *c = get<llvm::LazyCallGraph::SCC>(ir)) {
    // As -print-after-all prints an SCC: its defined functions, each by Function::print.
    for (const llvm::LazyCallGraph::Node &n : *c)
      if (!n.getFunction().isDeclaration()) n.getFunction().print(os);
  }
  os.flush();
  fit_text(text);
  return text;
}

void fit_text(std::string &text) {
  // A snapshot lives as long as the record, the cache or a sink's queue
  // holds it: up to a quarter of a large text's capacity would be unused
  // memory (tens of MB for module texts at 2,000 functions). Copying a text
  // once costs far less than printing it did.
  if (text.size() >= (1u << 20) && text.capacity() - text.size() > text.size() / 16) text.shrink_to_fit();
}

void numbered_nodes(const llvm::Function &f, std::vector<const llvm::MDNode *> &out) {
  // SlotTracker::processFunctionMetadata, call for call: the function's
  // attachments, then per instruction its debug records' nodes, the nodes an
  // intrinsic call takes as operands, and its attachments (!dbg first).
  out.clear();
  llvm::SmallVector<std::pair<unsigned, llvm::MDNode *>, 4> mds;
  auto add = [&](const llvm::Metadata *md) {
    if (const auto *n = llvm::dyn_cast_or_null<llvm::MDNode>(md)) out.push_back(n);
  };
  f.getAllMetadata(mds);
  for (const auto &kv : mds) add(kv.second);
  for (const llvm::BasicBlock &bb : f)
    for (const llvm::Instruction &i : bb) {
      for (const llvm::DbgRecord &r : i.getDbgRecordRange()) {
        if (const auto *v = llvm::dyn_cast<llvm::DbgVariableRecord>(&r)) {
          add(v->getRawLocation());  // only an empty !{} is a node; values print inline
          add(v->getRawVariable());
          if (v->isDbgAssign()) {
            add(v->getRawAssignID());
            add(v->getRawAddress());
          }
        } else if (const auto *l = llvm::dyn_cast<llvm::DbgLabelRecord>(&r)) {
          add(l->getRawLabel());
        }
        add(r.getDebugLoc().getAsMDNode());
      }
      if (const auto *ci = llvm::dyn_cast<llvm::CallInst>(&i))
        if (const llvm::Function *callee = ci->getCalledFunction(); callee && callee->isIntrinsic())
          for (const llvm::Use &op : i.operands())
            if (const auto *v = llvm::dyn_cast_or_null<llvm::MetadataAsValue>(op.get())) add(v->getMetadata());
      if (i.hasMetadata()) {
        mds.clear();
        i.getAllMetadata(mds);
        for (const auto &kv : mds) add(kv.second);
      }
    }
}

namespace {
// What a body's list is read against besides the caller's touches: a pass on
// one unit may empty another (the inliner replaces a dead callee's body by a
// lone `unreachable` block while it runs on the caller's SCC) without either
// unit telling us. Value handles on the first and last blocks go null when
// those blocks are deleted, even if new ones reuse their addresses; two
// pointers keep the check far cheaper than reading every body again.
struct Shape {
  llvm::WeakVH front, back;
  explicit Shape(const llvm::Function &f) {
    if (f.empty()) return;
    front = const_cast<llvm::BasicBlock *>(&f.front());
    back = const_cast<llvm::BasicBlock *>(&f.back());
  }
  Shape() = default;
  bool same(const llvm::Function &f) const {
    if (f.empty()) return !front && !back;
    return front == &f.front() && back == &f.back();
  }
};
}  // namespace

namespace {
void *raw_set(llvm::AttributeSet s) {
  void *p = nullptr;
  static_assert(sizeof s == sizeof p);
  std::memcpy(&p, &s, sizeof p);
  return p;
}
}  // namespace

struct Printer::Shared {
  const llvm::Module *module = nullptr;
  std::uint64_t generation = 0;
  std::unique_ptr<llvm::ModuleSlotTracker> mst;
  llvm::DenseSet<void *> module_sets;  // attribute sets the module-level numbering has
  // Call-site attribute sets that prints with `mst` added after the module's,
  // in the order they got their numbers (SlotTracker never forgets them).
  std::vector<void *> added;
  // Each function's numbered nodes (numbered_nodes()), first mentions only,
  // as `mst` numbered them. `stale` once the function was touched, until
  // read again; `pending` lists those, to be checked before the next print.
  // `fn` goes null when the function is deleted: a new function at the same
  // address is read afresh.
  struct Nodes {
    llvm::WeakVH fn;
    std::vector<const llvm::MDNode *> list;
    bool stale = true;
    Shape shape;
  };
  llvm::DenseMap<const llvm::Function *, Nodes> nodes;
  std::vector<const llvm::Function *> pending;
  // What `mst` was built from (key()): a new generation whose key is the
  // same reuses it.
  Key built_from;
  std::vector<const llvm::MDNode *> scratch;
  llvm::DenseSet<const llvm::MDNode *> seen;

  // Reads `fn`'s list into `scratch`, first mentions only.
  void read(const llvm::Function &fn) {
    std::vector<const llvm::MDNode *> all;
    numbered_nodes(fn, all);
    scratch.clear();
    seen.clear();
    for (const llvm::MDNode *md : all)
      if (seen.insert(md).second) scratch.push_back(md);
  }
  void store(Nodes &n, const llvm::Function &fn) {
    n.list.swap(scratch);
    n.stale = false;
    n.shape = Shape(fn);
    n.fn = const_cast<llvm::Function *>(&fn);
  }
  // `fn`'s list, read again if it may have moved.
  Nodes &current(const llvm::Function &fn, std::uint64_t &reads) {
    Nodes &n = nodes[&fn];
    if (n.stale || n.fn != &fn || !n.shape.same(fn)) {
      ++reads;
      read(fn);
      store(n, fn);
    }
    return n;
  }

  // A hash of everything SlotTracker::processModule numbers, in its order,
  // with the hook's lists (read again where stale): equal keys give equal
  // numberings. Attribute sets count at their first use only, as numbers go.
  Key key(const llvm::Module &m, std::uint64_t &reads) {
    enum : std::uint64_t { kUnnamed = 1, kNode, kSet, kNamed, kFunctions, kLists };
    util::WordHasher h;
    llvm::DenseSet<void *> sets;
    auto set = [&](void *p) {
      if (sets.insert(p).second) {
        h.add(kSet);
        h.add(p);
      }
    };
    llvm::SmallVector<std::pair<unsigned, llvm::MDNode *>, 4> mds;
    for (const llvm::GlobalVariable &g : m.globals()) {
      if (!g.hasName()) {
        h.add(kUnnamed);
        h.add(&g);
      }
      mds.clear();
      g.getAllMetadata(mds);
      for (const auto &kv : mds) {
        h.add(kNode);
        h.add(kv.second);
      }
      if (g.getAttributes().hasAttributes()) set(raw_set(g.getAttributes()));
    }
    for (const llvm::GlobalAlias &a : m.aliases())
      if (!a.hasName()) h.add(&a);
    for (const llvm::GlobalIFunc &i : m.ifuncs())
      if (!i.hasName()) h.add(&i);
    h.add(kNamed);
    for (const llvm::NamedMDNode &n : m.named_metadata())
      for (const llvm::MDNode *op : n.operands()) h.add(op);
    h.add(kFunctions);
    for (const llvm::Function &fn : m) {
      if (!fn.hasName()) {
        h.add(kUnnamed);
        h.add(&fn);
      }
      if (llvm::AttributeSet a = fn.getAttributes().getFnAttrs(); a.hasAttributes()) set(raw_set(a));
    }
    h.add(kLists);
    for (const llvm::Function &fn : m)
      for (const llvm::MDNode *md : current(fn, reads).list) h.add(md);
    return h.result();
  }
};

Printer::Printer() : shared_(std::make_unique<Shared>()) {}
Printer::~Printer() = default;

void Printer::touched(const llvm::Function &f) {
  auto it = shared_->nodes.find(&f);
  if (it == shared_->nodes.end() || it->second.stale) return;
  it->second.stale = true;
  shared_->pending.push_back(&f);
}

void Printer::touched_all() {
  for (auto &[fn, n] : shared_->nodes)
    if (!n.stale) {
      n.stale = true;
      shared_->pending.push_back(fn);
    }
}

bool Printer::lists_moved() {
  // Each touched function is read once; the numbering stands only if every
  // list is the one it was built from. This is what makes the numbering
  // exact whatever the caller's generations say: a loop pass can drop a
  // !DIAssignID without changing what the tracer's context hash sees.
  Shared &sh = *shared_;
  bool moved = false;
  std::size_t i = 0;
  for (; i < sh.pending.size() && !moved; ++i) {
    auto it = sh.nodes.find(sh.pending[i]);
    if (it == sh.nodes.end() || !it->second.stale) continue;
    Shared::Nodes &n = it->second;
    if (n.fn != sh.pending[i]) {  // deleted: its nodes were numbered
      moved = !n.list.empty();
      continue;
    }
    const auto &fn = *llvm::cast<llvm::Function>(n.fn);
    ++reads;
    sh.read(fn);
    if (sh.scratch != n.list) moved = true;  // stays stale: the rebuild reads it
    else sh.store(n, fn);
  }
  sh.pending.erase(sh.pending.begin(), sh.pending.begin() + static_cast<std::ptrdiff_t>(i));
  return moved;
}

std::uint64_t Printer::version(const llvm::Module &m, std::uint64_t generation) {
  Shared &sh = *shared_;
  if (!sh.mst || sh.module != &m) {
    build(m, generation);
  } else if (sh.generation != generation) {
    // The caller says the numbering may have moved: it did only if what it
    // is made of did (most new generations come from a function's attribute
    // set or nodes changing to ones the module already numbers in order).
    // Every list is current after key().
    sh.generation = generation;
    sh.pending.clear();
    if (Key k = sh.key(m, reads); k != sh.built_from) build(m, generation, &k);
  } else if (lists_moved()) {
    build(m, generation);
  }
  return builds;
}

void Printer::build(const llvm::Module &m, std::uint64_t generation, const Key *key) {
  Shared &sh = *shared_;
  if (sh.module != &m) sh.nodes.clear();
  sh.module = &m;
  sh.generation = generation;
  sh.pending.clear();
  sh.built_from = key ? *key : sh.key(m, reads);  // and every list is current
  // As Value::print numbers a function's module (all metadata included),
  // with the function bodies' part from the lists: SlotTracker numbers
  // global variables' and named metadata first, then calls this hook.
  sh.mst = std::make_unique<llvm::ModuleSlotTracker>(sh.module, /*ShouldInitializeAllMetadata=*/false);
  sh.mst->setProcessHook([this](llvm::AbstractSlotTrackerStorage *st, const llvm::Module *mod, bool) {
    for (const llvm::Function &fn : *mod)
      for (const llvm::MDNode *md : shared_->current(fn, reads).list) st->createMetadataSlot(md);
  });
  sh.module_sets.clear();
  sh.added.clear();
  ++builds;
  for (const llvm::GlobalVariable &g : sh.module->globals())
    if (g.getAttributes().hasAttributes()) sh.module_sets.insert(raw_set(g.getAttributes()));
  for (const llvm::Function &fn : *sh.module)
    if (llvm::AttributeSet a = fn.getAttributes().getFnAttrs(); a.hasAttributes())
      sh.module_sets.insert(raw_set(a));
}

std::string Printer::print(const llvm::Any &ir, std::uint64_t generation) {
  const llvm::Function *f = numbered_function(ir);
  if (!f) return lowertrace::llvm_capture::print(ir);
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
  version(*f->getParent(), generation);
  collect();
  // A fresh numbering gives these sets the numbers after the module's in
  // this order; the shared table agrees if one list is a prefix of the other.
  std::size_t n = std::min(fresh.size(), sh.added.size());
  if (!std::equal(fresh.begin(), fresh.begin() + n, sh.added.begin())) {
    build(*f->getParent(), generation);
    collect();
  }
  if (fresh.size() > sh.added.size()) sh.added = fresh;
  ++reused;
  std::string text;
  llvm::raw_string_ostream os(text);
  static_cast<const llvm::Value *>(f)->print(os, *sh.mst);  // Function::print would renumber
  os.flush();
  if (verify) {
    std::string want;
    llvm::raw_string_ostream w(want);
    w << *f;
    w.flush();
    if (want != text) {
      ++mismatches;
      return want;
    }
  }
  return text;
}

const llvm::Function *numbered_function(const llvm::Any &ir) {
  if (const auto *f = get<llvm::Function>(ir)) return f->getParent() ? f : nullptr;
  if (const auto *l = get<llvm::Loop>(ir)) return loop_function(*l)->getParent() ? loop_function(*l) : nullptr;
  return nullptr;
}

void touch(Printer &printer, const llvm::Any &ir) {
  if (get<llvm::Module>(ir)) return printer.touched_all();
  const llvm::Function *f = get<llvm::Function>(ir);
  if (const auto *l = get<llvm::Loop>(ir)) f = loop_function(*l);
  if (f) return printer.touched(*f);
  if (const auto *c = get<llvm::LazyCallGraph::SCC>(ir))
    for (const llvm::LazyCallGraph::Node &n : *c) printer.touched(n.getFunction());
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
