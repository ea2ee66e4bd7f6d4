#include "machine_tracer.h"

#include "fingerprint.h"
#include "ir_unit.h"
#include "mir_fingerprint.h"
#include "util/log.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/LoopPass.h>
#include <llvm/CodeGen/MachineConstantPool.h>
#include <llvm/CodeGen/MachineFrameInfo.h>
#include <llvm/CodeGen/MachineFunction.h>
#include <llvm/CodeGen/MachineJumpTableInfo.h>
#include <llvm/CodeGen/MachineRegisterInfo.h>
#include <llvm/CodeGen/TargetRegisterInfo.h>
#include <llvm/CodeGen/TargetSubtargetInfo.h>
#include <llvm/CodeGen/MachineModuleInfo.h>
#include <llvm/CodeGen/SlotIndexes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManagers.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ModuleSlotTracker.h>
#include <llvm/IR/OptBisect.h>
#include <llvm/Pass.h>
#include <llvm/PassRegistry.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <chrono>
#include <unordered_map>
#include <vector>

namespace lowertrace::llvm_capture {

namespace {

using Clock = std::chrono::steady_clock;

// How -print-after-all would show the unit a pass ran on.
enum class Shown { Machine, Function, Loop, Module };

struct PassMeta {
  std::string name;  // Pass::getPassName(), as in the banner
  std::string arg;   // the pass argument, in the banner's parentheses
  Shown shown = Shown::Function;
};

const llvm::PassInfo *info_of(const llvm::Pass *p) {
  return llvm::PassRegistry::getPassRegistry()->getPassInfo(p->getPassID());
}

// -print-after-all inserts a printer after exactly these passes
// (PMTopLevelManager::schedulePass: registered and not an analysis).
bool printed_after(llvm::Pass *p) {
  const llvm::PassInfo *pi = info_of(p);
  return pi && !pi->isAnalysis() && !p->getAsImmutablePass() && !p->getAsPMDataManager();
}

PassMeta meta_of(llvm::Pass *p) {
  PassMeta m;
  m.name = p->getPassName().str();
  if (const llvm::PassInfo *pi = info_of(p)) m.arg = pi->getPassArgument().str();
  // The pass's own printer says how it is shown: a MachineFunctionPass makes
  // a MachineFunction printer, other function passes an IR printer.
  std::unique_ptr<llvm::Pass> printer(p->createPrinterPass(llvm::nulls(), ""));
  switch (p->getPassKind()) {
  case llvm::PT_Loop: m.shown = Shown::Loop; break;
  case llvm::PT_Function:
    m.shown = printer && printer->getPassName() == "MachineFunction Printer" ? Shown::Machine : Shown::Function;
    break;
  default: m.shown = Shown::Module; break;
  }
  return m;
}

const char *lang_of(Shown s) { return s == Shown::Machine ? "mir" : "llvm"; }

// Forwards to the gate it replaces and remembers whether the running pass
// asked and what it was told. Legacy passes ask (skipFunction, skipModule,
// skipLoop) right after they start, so the answer belongs to the open pass.
class Gate : public llvm::OptPassGate {
public:
  explicit Gate(const llvm::OptPassGate *inner) : inner_(inner) {}
  bool isEnabled() const override { return true; }
  bool shouldRunPass(llvm::StringRef pass, llvm::StringRef unit) const override {
    bool run = !(inner_ && inner_->isEnabled()) || inner_->shouldRunPass(pass, unit);
    asked = true;
    refused = refused || !run;
    return run;
  }
  void reset() const { asked = refused = false; }
  mutable bool asked = false, refused = false;

private:
  const llvm::OptPassGate *inner_;
};

// The text MachineFunction::print writes, with the blocks numbered by `mst`
// (which has `mf`'s function incorporated). MachineFunction::print makes a
// ModuleSlotTracker of its own for every print, numbering every metadata node
// of the module: a walk over every instruction of every function, about 5% of
// a traced clang -O2 compile. The header is written here from the same public
// parts, in the same order.
void print_machine_function(const llvm::MachineFunction &mf, const llvm::SlotIndexes *si,
                            llvm::ModuleSlotTracker &mst, llvm::raw_ostream &os) {
  os << "# Machine code for function " << mf.getName() << ": ";
  mf.getProperties().print(os);
  os << '\n';
  mf.getFrameInfo().print(mf, os);
  if (const llvm::MachineJumpTableInfo *jt = mf.getJumpTableInfo()) jt->print(os);
  mf.getConstantPool()->print(os);
  const llvm::MachineRegisterInfo &regs = mf.getRegInfo();
  const llvm::TargetRegisterInfo *tri = mf.getSubtarget().getRegisterInfo();
  if (!regs.livein_empty()) {
    os << "Function Live Ins: ";
    const char *sep = "";
    for (const auto &[phys, virt] : regs.liveins()) {
      os << sep << llvm::printReg(phys, tri);
      if (virt) os << " in " << llvm::printReg(virt, tri);
      sep = ", ";
    }
    os << '\n';
  }
  for (const llvm::MachineBasicBlock &bb : mf) {
    os << '\n';
    bb.print(os, mst, si, /*IsStandalone=*/true);
  }
  os << "\n# End machine code for function " << mf.getName() << ".\n\n";
}

}  // namespace

struct CodegenTrace {
  explicit CodegenTrace(Session &s) : session(s) {}
  Session &session;
  const llvm::Module *module = nullptr;
  std::unique_ptr<Gate> gate;

  // The last text recorded for each function, and what it was made from.
  struct Unit {
    Snapshot text;
    Shown shown = Shown::Function;
    bool has_fp = false;
    std::uint64_t fp = 0;   // machine function fingerprint (has_fp)
    bool has_irfp = false;  // IR fingerprint (fingerprint.h) of an IR text
    Fingerprint irfp;
  };
  std::unordered_map<const llvm::Function *, Unit> units;
  std::unordered_map<const llvm::Function *, Snapshot> last_mir;
  Snapshot module_text;
  std::size_t count = 0;

  // The numbering machine-function prints share (print_machine_function).
  // It stands while the IR does: a module pass, an IR pass that changed a
  // function, or a printed function whose IR moved since it was last
  // incorporated start a new one.
  std::unique_ptr<llvm::ModuleSlotTracker> mst;
  const llvm::Function *mst_fn = nullptr;  // the function `mst` has incorporated
  Fingerprint mst_fn_fp;                   // and its IR fingerprint then
  void renumber() { mst.reset(); }
  llvm::ModuleSlotTracker &numbering_for(const llvm::Function &f);
  // LT_CHECK_NUMBERING: every machine-function text is compared with
  // MachineFunction::print's own (mismatches: how many differed).
  bool verify = false;
  std::uint64_t mir_prints = 0, numberings = 0, mismatches = 0;

  struct Open {
    int index = -1;
    Clock::time_point start;
    const llvm::Function *fn = nullptr;
    Snapshot before;
    std::string arg;
  } open;

  // `reuse`: nothing ran since this function's last recorded text (an IR
  // text is then not printed again; a machine function is checked by its
  // fingerprint either way).
  Snapshot text_of(const llvm::Function &f, Shown shown, llvm::Pass &probe, bool reuse = false);
  Snapshot text_of_module(const llvm::Module &m);
  void begin(const PassMeta &m, Snapshot before, std::string_view anchor, const llvm::Function *fn);
  void end(Snapshot after, bool function_level, const llvm::Function *fn);
  void gap(const std::vector<PassMeta> &passes, const llvm::Function &f, Shown now, llvm::Pass &probe);
};

namespace {

char g_function_probe_id = 0;
char g_loop_probe_id = 0;
char g_module_probe_id = 0;

bool is_probe(const llvm::Pass *p) {
  const void *id = p->getPassID();
  return id == &g_function_probe_id || id == &g_loop_probe_id || id == &g_module_probe_id;
}

// What the probe of a pass declares: P's required transformations (so the
// pass manager schedules them for the probe, and P then finds them
// available), the slot indexes the MIR printer shows when they exist,
// and that it preserves everything.
struct ProbeUsage {
  std::vector<const void *> required;  // includes the transitive ones
  void apply(llvm::AnalysisUsage &au) const {
    for (const void *id : required) au.addRequiredID(id);
    au.addUsedIfAvailable<llvm::SlotIndexesWrapperPass>();
    au.addUsedIfAvailable<llvm::MachineModuleInfoWrapperPass>();
    au.setPreservesAll();
  }
};

std::vector<const void *> required_of(llvm::Pass *p) {
  llvm::AnalysisUsage au;
  p->getAnalysisUsage(au);
  const auto &r = au.getRequiredSet();
  return std::vector<const void *>(r.begin(), r.end());
}

// What a pass of this id requires and the pass manager level it runs at,
// from an instance made once (a loop pass's requirements include function
// passes; an analysis's requirements are scheduled before it).
struct IdFacts {
  llvm::PassManagerType level = llvm::PMT_Unknown;
  std::vector<const void *> required;
};
const IdFacts &facts_of(const void *id) {
  static std::unordered_map<const void *, IdFacts> cache;
  auto it = cache.find(id);
  if (it != cache.end()) return it->second;
  IdFacts f;
  if (const llvm::PassInfo *pi = llvm::PassRegistry::getPassRegistry()->getPassInfo(id))
    if (pi->getNormalCtor()) {
      std::unique_ptr<llvm::Pass> p(pi->createPass());
      f.level = p->getPotentialPassManagerType();
      f.required = required_of(p.get());
    }
  return cache[id] = std::move(f);
}

// What every probe shares: its pass, which side of it, what it requires.
template <class Base> class Probe : public Base {
public:
  llvm::StringRef getPassName() const override { return "lowertrace codegen probe"; }
  void getAnalysisUsage(llvm::AnalysisUsage &au) const override { u_.apply(au); }

protected:
  Probe(char &id, CodegenTrace &t, PassMeta m, bool before, ProbeUsage u)
      : Base(id), t_(t), m_(std::move(m)), before_(before), u_(std::move(u)) {}
  CodegenTrace &t_;
  PassMeta m_;
  bool before_;
  ProbeUsage u_;
};

class FunctionProbe : public Probe<llvm::FunctionPass> {
public:
  FunctionProbe(CodegenTrace &t, PassMeta m, bool before, ProbeUsage u, bool barrier = false)
      : Probe(g_function_probe_id, t, std::move(m), before, std::move(u)), barrier_(barrier) {}
  bool runOnFunction(llvm::Function &f) override {
    // Machine function passes (and their printers) skip these functions.
    if (m_.shown == Shown::Machine && f.hasAvailableExternallyLinkage()) return false;
    if (before_) {
      if (!gap_known_) find_gap();
      Shown now = m_.shown;
      if (!gap_.empty()) t_.gap(gap_, f, now, *this);
      if (barrier_) return false;  // only there to find what ran before a loop pass manager
      t_.begin(m_, t_.text_of(f, now, *this, gap_.empty()), f.getName(), &f);
    } else {
      t_.end(t_.text_of(f, m_.shown, *this), true, &f);
    }
    return false;
  }

private:
  // The passes the pass manager put between the previous probe and this one
  // on its own (it schedules P's requirements before the probe that copies
  // them). Fixed once the pipeline runs, so looked up once.
  void find_gap() {
    gap_known_ = true;
    llvm::PMDataManager &dm = getResolver()->getPMDataManager();
    if (dm.getPassManagerType() != llvm::PMT_FunctionPassManager) return;
    auto &fpm = static_cast<llvm::FPPassManager &>(dm);
    unsigned self = fpm.getNumContainedPasses();
    for (unsigned i = 0; i < fpm.getNumContainedPasses(); ++i)
      if (fpm.getContainedPass(i) == this) self = i;
    unsigned first = self;
    while (first > 0 && first <= fpm.getNumContainedPasses() && !is_probe(fpm.getContainedPass(first - 1))) --first;
    for (unsigned i = first; i < self; ++i)
      if (printed_after(fpm.getContainedPass(i))) gap_.push_back(meta_of(fpm.getContainedPass(i)));
  }

  bool barrier_;
  bool gap_known_ = false;
  std::vector<PassMeta> gap_;
};

class LoopProbe : public Probe<llvm::LoopPass> {
public:
  LoopProbe(CodegenTrace &t, PassMeta m, bool before, ProbeUsage u)
      : Probe(g_loop_probe_id, t, std::move(m), before, std::move(u)) {}
  bool runOnLoop(llvm::Loop *l, llvm::LPPassManager &) override {
    const llvm::Function &f = *l->getHeader()->getParent();
    // A loop pass may delete its loop: the after-probe then never runs on it,
    // and the record is closed as soon as the next probe starts.
    if (before_)
      t_.begin(m_, t_.text_of(f, Shown::Loop, *this, true),
               "loop %" + l->getName().str() + " in function " + f.getName().str(), &f);
    else
      t_.end(t_.text_of(f, Shown::Loop, *this), true, &f);
    return false;
  }
};

class ModuleProbe : public Probe<llvm::ModulePass> {
public:
  ModuleProbe(CodegenTrace &t, PassMeta m, bool before, ProbeUsage u)
      : Probe(g_module_probe_id, t, std::move(m), before, std::move(u)) {}
  bool runOnModule(llvm::Module &m) override {
    if (before_) t_.begin(m_, t_.text_of_module(m), "[module]", nullptr);
    else t_.end(t_.text_of_module(m), false, nullptr);
    return false;
  }
};

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

Snapshot CodegenTrace::text_of_module(const llvm::Module &m) {
  std::string s = print_module(m);
  // A module pass may change any function: no function text is current any more.
  units.clear();
  renumber();
  module_text = session.intern(std::move(s));
  return module_text;
}

Snapshot CodegenTrace::text_of(const llvm::Function &f, Shown shown, llvm::Pass &probe, bool reuse) {
  Unit &u = units[&f];
  const llvm::MachineFunction *mf = nullptr;
  llvm::SlotIndexes *si = nullptr;
  if (shown == Shown::Machine) {
    if (auto *w = probe.getAnalysisIfAvailable<llvm::MachineModuleInfoWrapperPass>())
      mf = w->getMMI().getMachineFunction(f);
    if (auto *s = probe.getAnalysisIfAvailable<llvm::SlotIndexesWrapperPass>()) si = &s->getSI();
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  if (mf) {
    std::uint64_t fp = fingerprint(*mf, si);
    if (u.text && u.shown == Shown::Machine && u.has_fp && u.fp == fp) return u.text;
    const llvm::TargetSubtargetInfo &sub = mf->getSubtarget();
    if (sub.getRegisterInfo()) print_machine_function(*mf, si, numbering_for(f), os);
    else mf->print(os, si);  // no register info: not the common form, print it LLVM's way
    os.flush();
    ++mir_prints;
    if (verify) {
      std::string want;
      llvm::raw_string_ostream w(want);
      mf->print(w, si);
      w.flush();
      if (want != text) {
        ++mismatches;
        text = std::move(want);
      }
    }
    u = {session.intern(std::move(text)), Shown::Machine, true, fp};
    last_mir[&f] = u.text;
    return u.text;
  }
  if (reuse && u.text && !u.has_fp) return u.text;
  // An IR text is printed again only when the function's IR fingerprint moved.
  // (Other functions do not change meanwhile: the function passes run on one
  // function at a time, and a module pass drops every cached text.)
  Fingerprint irfp = fingerprint(f);
  if (u.text && !u.has_fp && u.has_irfp && u.irfp == irfp) return u.text;
  if (u.has_irfp && !(u.irfp == irfp)) renumber();  // the IR changed: so may the numbers
  // IR: as the legacy printers print a function (a loop is shown as its function).
  os << static_cast<const llvm::Value &>(f);
  os.flush();
  u = {session.intern(std::move(text)), shown == Shown::Machine ? Shown::Function : shown, false, 0, true, irfp};
  return u.text;
}

llvm::ModuleSlotTracker &CodegenTrace::numbering_for(const llvm::Function &f) {
  // A function incorporated before is numbered again only if its IR moved
  // since (SelectionDAG lowering may split blocks); a different one is
  // incorporated afresh by the tracker itself.
  if (mst && mst_fn == &f && !(fingerprint(f) == mst_fn_fp)) renumber();
  if (!mst) {
    // As MachineFunction::print numbers: the whole module, all metadata.
    mst = std::make_unique<llvm::ModuleSlotTracker>(f.getParent(), /*ShouldInitializeAllMetadata=*/true);
    mst_fn = nullptr;
    ++numberings;
  }
  if (mst_fn != &f) {
    mst->incorporateFunction(f);
    mst_fn = &f;
    mst_fn_fp = fingerprint(f);
  }
  return *mst;
}

void CodegenTrace::begin(const PassMeta &m, Snapshot before, std::string_view anchor, const llvm::Function *fn) {
  if (open.index >= 0) {  // the previous pass's after-probe did not run (its loop was deleted)
    session.end_pass(open.index, before);
    open.index = -1;
  }
  open.before = before;
  open.index = session.begin_pass(m.name, std::move(before), lang_of(m.shown));
  session.annotate(open.index, anchor, m.arg);
  open.fn = fn;
  open.arg = m.arg;
  ++count;
  if (gate) gate->reset();
  open.start = Clock::now();  // the pass's own time excludes our printing
}

void CodegenTrace::end(Snapshot after, bool function_level, const llvm::Function *fn) {
  Clock::time_point stop = Clock::now();
  if (open.index < 0) return;
  double wall = ms_between(open.start, stop);
  const char *why = nullptr;
  if (gate && gate->asked && gate->refused) why = "opt-bisect";
  else if (gate && gate->asked && function_level && fn && fn->hasOptNone()) why = "optnone";
  // Told to skip, most passes return at once; a few (instruction selection)
  // run in a reduced, O0 form instead. Only an unchanged unit is "skipped".
  bool same = after && open.before && after->id == open.before->id;
  if (why && same) {
    session.skip_open_pass(open.index, open.arg + "; skipped: " + why);
  } else {
    if (why) session.annotate(open.index, {}, open.arg + "; told to skip (" + why + "), ran in its O0 form");
    session.end_pass(open.index, std::move(after), wall);
  }
  open.index = -1;
  open.before = nullptr;
}

void CodegenTrace::gap(const std::vector<PassMeta> &passes, const llvm::Function &f, Shown now,
                       llvm::Pass &probe) {
  // Each ran between the previous probe and this one; only the span as a whole
  // is seen, so all but the last show no change and the last shows it all.
  auto it = units.find(&f);
  Snapshot before = it != units.end() ? it->second.text : nullptr;
  Snapshot after = text_of(f, now, probe);
  if (!before) before = after;
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const PassMeta &m = passes[i];
    bool last = i + 1 == passes.size();
    int idx = session.begin_pass(m.name, before, lang_of(m.shown));
    session.annotate(idx, f.getName(),
                     m.arg + (passes.size() > 1 ? "; scheduled by the pass manager, with " +
                                                      std::to_string(passes.size() - 1) +
                                                      " more: their changes show on the last"
                                                : "; scheduled by the pass manager"));
    session.end_pass(idx, last ? after : before, 0);
    ++count;
  }
}

namespace {
bool env_on(const char *name) {
  const char *v = std::getenv(name);
  return v && *v && std::string_view(v) != "0";
}
}  // namespace

TracingPassManager::TracingPassManager(Session &session) : t_(std::make_unique<CodegenTrace>(session)) {
  t_->verify = env_on("LT_CHECK_NUMBERING");
}

TracingPassManager::~TracingPassManager() {
  if (env_on("LT_REPORT_STATS"))
    util::info("machine passes: " + std::to_string(t_->mir_prints) + " machine-function prints on " +
               std::to_string(t_->numberings) + " numberings");
  if (t_->verify)
    util::info("machine passes: numbering checked against MachineFunction::print on every print: " +
               std::to_string(t_->mismatches) + " differed");
}

void TracingPassManager::add(llvm::Pass *p) {
  if (!printed_after(p) || p->getPassKind() == llvm::PT_CallGraphSCC) {
    llvm::legacy::PassManager::add(p);
    return;
  }
  PassMeta m = meta_of(p);
  std::vector<const void *> all = required_of(p);
  // The before-probe requires the transformations the pass manager would
  // schedule for P (slotindexes, livevars, loop-simplify: registered, not
  // analyses), directly or for an analysis P needs that is not available now,
  // so they run before the probe and it records them. Analyses still run
  // between the probe and P, as they would between P's printer-less
  // predecessor and P: a change they make (LiveIntervals drops kill flags)
  // shows on P, as in -print-after-all.
  ProbeUsage u;
  for (const void *id : all) collect_required(id, u.required, 0);
  // Loop passes run in a loop pass manager, where the function-level passes
  // they need cannot run: the pass manager schedules those before it. A
  // function probe placed before the loop pass manager, requiring all that,
  // finds and records them in their place.
  if (p->getPassKind() == llvm::PT_Loop && last_kind_ != llvm::PT_Loop) {
    ProbeUsage outer;
    for (const void *id : all)
      if (llvm::PassRegistry::getPassRegistry()->getPassInfo(id) && facts_of(id).level < llvm::PMT_LoopPassManager)
        outer.required.push_back(id);
    add_probe(new FunctionProbe(*t_, m, true, std::move(outer), /*barrier=*/true));
  }
  last_kind_ = p->getPassKind();
  auto probe = [&](bool before) -> llvm::Pass * {
    ProbeUsage use = before ? u : ProbeUsage{};
    switch (p->getPassKind()) {
    case llvm::PT_Function: return new FunctionProbe(*t_, m, before, std::move(use));
    case llvm::PT_Loop: return new LoopProbe(*t_, m, before, std::move(use));
    default: return new ModuleProbe(*t_, m, before, std::move(use));
    }
  };
  add_probe(probe(true));
  llvm::legacy::PassManager::add(p);  // may delete p
  add_probe(probe(false));
}

void TracingPassManager::add_probe(llvm::Pass *probe) {
  llvm::legacy::PassManager::add(probe);
  // Every pass of this pass manager shares one top-level manager, which knows
  // what is available at this point of the pipeline.
  if (!tpm_ && probe->getResolver()) tpm_ = probe->getResolver()->getPMDataManager().getTopLevelManager();
}

void TracingPassManager::collect_required(const void *id, std::vector<const void *> &out, int depth) {
  const llvm::PassInfo *pi = llvm::PassRegistry::getPassRegistry()->getPassInfo(id);
  if (depth > 32 || (tpm_ && tpm_->findAnalysisPass(id))) return;  // available: nothing gets scheduled
  if (!pi) return;
  if (!pi->isAnalysis()) {
    if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
    return;
  }
  if (!tpm_ && depth > 0) return;  // not known yet what is available: direct requirements only
  for (const void *r : facts_of(id).required) collect_required(r, out, depth + 1);
}

bool TracingPassManager::run(llvm::Module &m) {
  t_->module = &m;
  llvm::LLVMContext &ctx = m.getContext();
  llvm::OptPassGate &previous = ctx.getOptPassGate();
  t_->gate = std::make_unique<Gate>(&previous);
  ctx.setOptPassGate(*t_->gate);
  bool changed = llvm::legacy::PassManager::run(m);
  ctx.setOptPassGate(previous);
  if (t_->open.index >= 0) t_->session.end_pass(t_->open.index, nullptr);
  t_->open.index = -1;
  return changed;
}

std::string TracingPassManager::final_machine_code() const {
  std::string out;
  if (!t_->module) return out;
  for (const llvm::Function &f : *t_->module) {
    auto it = t_->last_mir.find(&f);
    if (it != t_->last_mir.end() && it->second) out += it->second->text;
  }
  return out;
}

std::size_t TracingPassManager::records() const { return t_->count; }

}  // namespace lowertrace::llvm_capture
