#include "assembler.h"

#include "ir_text.h"

#include <fmt/format.h>

#include <algorithm>

namespace lowertrace::dump {

struct Assembler::Item {
  std::string name, arg, detail, anchor, lang, phase, unit, chain_key;
  Snapshot before, after, last_internal;
  bool resolved = false, failed = false, skipped = false, has_steps = false;
  std::string error, note;
  std::vector<std::unique_ptr<Item>> children;
  Item *parent = nullptr;
  bool complete() const {
    if (!resolved) return false;
    for (const auto &c : children)
      if (!c->complete()) return false;
    return true;
  }
  bool is_ancestor_of(const Item *o) const {
    for (const Item *p = o->parent; p; p = p->parent)
      if (p == this) return true;
    return false;
  }
};

struct Assembler::Stream {
  enum Mode { Unknown, Paired, BeforeOnly } mode = Unknown;
  std::vector<Item *> open;               // waiting for their after-text, oldest first
  std::map<std::string, Snapshot> chain;  // latest text per unit (MLIR, MIR)
  std::string lang, phase;
};

// Latest LLVM IR per unit. Function texts newer than the module text are kept
// apart and spliced in when a module-level pass needs its before-text, so a
// module pass after a run of function passes diffs against the real module.
struct Assembler::LlvmChain {
  std::string module;
  bool has_module = false;
  bool module_scope = false;  // -print-module-scope: function passes printed the module
  std::map<std::string, std::string> fns, other;

  std::string get(const std::string &unit) {
    if (unit == "[module]") {
      if (has_module && !fns.empty()) {
        module = llvm_splice(module, fns);
        fns.clear();
      }
      return has_module ? module : std::string();
    }
    if (auto names = llvm_scc_names(unit); !names.empty()) {
      std::string out;
      for (const auto &n : names) {
        if (!out.empty()) out += '\n';
        out += get(n);
      }
      return out;
    }
    if (!llvm_loop_function(unit).empty()) {
      auto it = other.find(unit);
      return it == other.end() ? std::string() : it->second;
    }
    if (auto it = fns.find(unit); it != fns.end()) return it->second;
    if (has_module)
      if (auto f = llvm_extract_function(module, unit)) return *f;
    return {};
  }

  void set(const std::string &unit, const std::string &body) {
    if (llvm_unit_of(body) == "[module]") {  // module passes, or -print-module-scope
      module = body;
      has_module = true;
      fns.clear();
      other.clear();
      return;
    }
    if (!llvm_loop_function(unit).empty()) {
      other[unit] = body;
      return;
    }
    auto parts = llvm_split_functions(body);
    if (parts.empty()) {
      other[unit] = body;
      return;
    }
    for (auto &[name, text] : parts) {
      fns[name] = std::move(text);
      // Loops of a function that changed are re-read from their next dump.
      std::string suffix = " in function " + name;
      for (auto it = other.begin(); it != other.end();)
        it = it->first.ends_with(suffix) ? other.erase(it) : std::next(it);
    }
  }

  void erase(const std::string &unit) {
    other.erase(unit);
    if (fns.erase(unit) == 0 && has_module && llvm_unit_of(unit).empty()) {
      // A deleted function disappears from the module text too.
      std::map<std::string, std::string> gone{{unit, std::string()}};
      if (llvm_extract_function(module, unit)) module = llvm_splice(module, gone);
    }
  }
};

Assembler::Assembler(Target &target, std::function<void(std::string)> warn)
    : t_(target), warn_(std::move(warn)), mlir_(std::make_unique<Stream>()),
      llvm_(std::make_unique<Stream>()), mir_(std::make_unique<Stream>()),
      chain_(std::make_unique<LlvmChain>()) {
  mlir_->lang = "mlir";
  mlir_->phase = "mlir";
  llvm_->lang = "llvm";
  llvm_->phase = "llvm";
  mir_->lang = "mir";
  mir_->phase = "mir";
}

Assembler::~Assembler() = default;

std::string Assembler::llvm_function_text(const std::string &fn) { return chain_->get(fn); }

Assembler::Item *Assembler::add_item(const Dump &d, Stream &fam, Snapshot before) {
  auto it = std::make_unique<Item>();
  const Banner &b = d.banner;
  it->name = b.display_name();
  it->arg = b.arg;
  if (!b.arg.empty()) it->detail = b.pass + b.opts;
  it->lang = fam.lang;
  it->phase = (&fam == mlir_.get() && !phase_.empty()) ? phase_ : fam.phase;
  // A null before-text stays null: the dump does not show it (the first
  // after-only dump of a unit), which the record must say, not fake as "".
  it->before = std::move(before);
  Item *raw = it.get();
  queue_.push_back(std::move(it));
  return raw;
}

void Assembler::resolve(Item *it, Snapshot after, std::string note) {
  it->after = after ? std::move(after) : t_.intern(std::string_view());
  it->resolved = true;
  if (!note.empty()) it->note = it->note.empty() ? note : it->note + "; " + note;
}

// Moves `child` (just queued last) under `parent`.
static void adopt(std::deque<std::unique_ptr<Assembler::Item>> &q, Assembler::Item *parent) {
  std::unique_ptr<Assembler::Item> c = std::move(q.back());
  q.pop_back();
  c->parent = parent;
  c->phase = parent->phase;
  parent->children.push_back(std::move(c));
}

void Assembler::on_dump(Dump &&d) {
  ++dumps_;
  switch (d.banner.family) {
  case Family::Mlir: on_mlir(std::move(d)); break;
  case Family::MlirInternal: on_mlir_internal(std::move(d)); break;
  case Family::Llvm: on_llvm(std::move(d), false); break;
  case Family::Mir: on_llvm(std::move(d), true); break;
  }
  pump();
}

namespace {
bool is_module_unit(std::string_view u) { return unit_kind(u) == "builtin.module"; }
// Passes that run a nested pipeline on each function in the middle of their
// own run (the inliner's simplification pipeline). In a before-only dump that
// is the only nesting that can be told apart from a flat sequence.
bool runs_nested_pipeline(const std::string &arg) { return arg.find("inline") != std::string::npos; }
// The new PM's pass managers and adaptors (what -print-changed calls
// "ignored"): "PassManager<Loop, ...>", "ModuleToFunctionPassAdaptor". They are
// no passes of their own, and -print-after-all never prints them.
bool is_pass_manager(std::string_view pass) {
  std::string_view prefix = pass.substr(0, pass.find('<'));
  for (std::string_view s : {"PassManager", "PassAdaptor", "AnalysisManagerProxy", "DevirtSCCRepeatedPass",
                             "ModuleInlinerWrapperPass"})
    if (prefix.ends_with(s)) return true;
  return false;
}
}  // namespace

void Assembler::on_mlir(Dump &&d) {
  Stream &fam = *mlir_;
  const Banner &b = d.banner;
  std::string unit = b.module_scope ? (b.sym.empty() ? b.op : b.op + " @" + b.sym) : mlir_unit_of(d.body);
  std::string key = b.module_scope ? std::string("<top>") : unit;
  Snapshot text = t_.intern(std::string_view(d.body));

  if (d.body.empty()) {
    // A banner without IR (the splitter warned): it names no op, so it can
    // neither open a pass nor be a parent. An After still closes its pass.
    if (b.kind == Kind::Before) return;
    for (auto it = fam.open.rbegin(); it != fam.open.rend(); ++it)
      if ((*it)->name == b.display_name()) {
        Item *o = *it;
        fam.open.erase(std::next(it).base());
        if (b.kind == Kind::AfterFailed) {
          o->failed = true;
          o->error = d.diagnostic.empty() ? std::string("pass failed") : d.diagnostic;
        }
        resolve(o, o->before, "after-text missing in the dump (banner without IR); shown unchanged");
        if (o->failed) o->after = nullptr;
        return;
      }
    // No open pass: the banner still says this pass ran; its texts are unknown.
    resolve(add_item(d, fam, Snapshot()), Snapshot(), "banner without IR in the dump");
    return;
  }
  if (b.kind == Kind::Before) {
    if (fam.mode == Stream::Unknown)
      for (Item *o : fam.open)
        if (o->unit == unit) fam.mode = Stream::BeforeOnly;  // a second Before on one op, no After
    Item *parent = nullptr;
    if (fam.mode == Stream::BeforeOnly) {
      auto nests = [&](Item *o) {
        return runs_nested_pipeline(o->arg) && is_module_unit(o->unit) && !is_module_unit(unit);
      };
      while (!fam.open.empty()) {
        Item *o = fam.open.back();
        if (nests(o)) break;
        if (o->chain_key == key) {
          resolve(o, text);
        } else if (is_module_unit(unit)) {
          auto e = mlir_extract(d.body, o->unit);
          if (!e) break;
          resolve(o, t_.intern(std::string_view(*e)));
        } else {
          break;
        }
        fam.open.pop_back();
      }
      if (!fam.open.empty() && nests(fam.open.back())) parent = fam.open.back();
    } else {
      // Paired (or not yet known): the innermost open pass on a different kind
      // of op (or the same op) is the parent; one on a sibling op is not.
      for (auto it = fam.open.rbegin(); it != fam.open.rend(); ++it) {
        Item *o = *it;
        if (unit_kind(o->unit) == unit_kind(unit) && o->unit != unit) continue;
        parent = o;
        break;
      }
    }
    Item *it = add_item(d, fam, text);
    it->unit = unit;
    it->chain_key = key;
    it->anchor = unit;
    if (parent) adopt(queue_, parent);
    fam.open.push_back(it);
    fam.chain[key] = text;
    return;
  }

  // After / After ... Failed.
  Item *match = nullptr;
  for (auto it = fam.open.rbegin(); it != fam.open.rend(); ++it)
    if ((*it)->unit == unit && ((*it)->name == b.display_name())) {
      match = *it;
      break;
    }
  if (match) {
    if (b.kind == Kind::After && fam.mode == Stream::Unknown) fam.mode = Stream::Paired;
    // Anything still open inside it ended with it.
    for (Item *o : fam.open)
      if (o != match && match->is_ancestor_of(o)) resolve(o, text, "after-text taken from the enclosing pass");
    fam.open.erase(std::remove_if(fam.open.begin(), fam.open.end(),
                                  [&](Item *o) { return o == match || match->is_ancestor_of(o); }),
                   fam.open.end());
  } else {
    // After-only: the before-text is this unit's previous text.
    if (fam.mode == Stream::Unknown) fam.mode = Stream::Paired;
    Snapshot before;
    if (auto c = fam.chain.find(key); c != fam.chain.end()) before = c->second;
    else if (auto top = fam.chain.find("<top>"); top != fam.chain.end() && !b.module_scope) {
      if (auto e = mlir_extract(top->second->text, unit)) before = t_.intern(std::string_view(*e));
    }
    Item *parent = nullptr;
    for (auto it = fam.open.rbegin(); it != fam.open.rend(); ++it)
      if (!(unit_kind((*it)->unit) == unit_kind(unit) && (*it)->unit != unit)) {
        parent = *it;
        break;
      }
    match = add_item(d, fam, before);
    match->unit = unit;
    match->chain_key = key;
    match->anchor = unit;
    if (!before) match->note = "before-text not in the dump";
    if (parent) adopt(queue_, parent);
  }
  if (b.kind == Kind::AfterFailed) {
    match->failed = true;
    match->error = d.diagnostic.empty() ? std::string("pass failed") : d.diagnostic;
    match->note = match->note.empty() ? "IR after the failure is in the dump" : match->note;
  }
  resolve(match, text);
  fam.chain[key] = text;
}

void Assembler::on_mlir_internal(Dump &&d) {
  Stream &fam = *mlir_;
  Snapshot text = t_.intern(std::string_view(d.body));
  Item *owner = fam.open.empty() ? nullptr : fam.open.back();
  Snapshot before = owner ? (owner->last_internal ? owner->last_internal : owner->before) : Snapshot();
  if (!before)
    if (auto c = fam.chain.find("<top>"); c != fam.chain.end()) before = c->second;
  Item *it = add_item(d, fam, before);
  it->name = d.banner.pass;
  it->detail = owner ? "internal step of " + owner->name : "internal step";
  it->unit = it->anchor = "builtin.module";
  it->chain_key = "<top>";
  resolve(it, text);
  if (owner) {
    adopt(queue_, owner);
    owner->last_internal = text;
    owner->has_steps = true;
  }
}

void Assembler::on_llvm(Dump &&d, bool mir) {
  Stream &fam = mir ? *mir_ : *llvm_;
  const Banner &b = d.banner;
  std::string unit = b.unit;
  if (unit.empty()) unit = mir ? mir_function_of(d.body) : llvm_unit_of(d.body);
  if (mir && unit.empty()) unit = b.unit;
  std::string anchor = unit == "[module]"                    ? unit
                       : !llvm_loop_function(unit).empty()   ? unit
                       : !llvm_scc_names(unit).empty()       ? "scc " + unit
                       : mir                                 ? "machine function " + unit
                                                             : "function " + unit;
  std::string lang = fam.lang;
  // -print-module-scope prints the whole module for a function (loop, SCC)
  // pass: its before-text is the module too, not the function alone.
  // ("(invalidated)" dumps print a bare "; ModuleID" line: no module text.)
  bool module_body = !mir && b.kind == Kind::After && unit != "[module]" && llvm_unit_of(d.body) == "[module]";
  if (module_body) chain_->module_scope = true;
  auto current = [&]() -> std::string {
    if (!mir) {
      std::string t = chain_->get(module_body ? std::string("[module]") : unit);
      // Module scope: a unit without a text of its own (a loop about to be
      // invalidated) last showed up inside the module.
      if (t.empty() && chain_->module_scope) t = chain_->get("[module]");
      return t;
    }
    if (auto c = fam.chain.find(unit); c != fam.chain.end()) return c->second->text;
    lang = "llvm";  // first machine pass: the function still is LLVM IR (ISel's input)
    return chain_->get(unit);
  };
  auto remember = [&](const std::string &body) {
    if (mir) fam.chain[unit] = t_.intern(std::string_view(body));
    else chain_->set(unit, body);
  };
  // What the chain knows; null when it knows nothing (IR text is never empty).
  auto known = [&](const std::string &text) { return text.empty() ? Snapshot() : t_.intern(std::string_view(text)); };
  auto new_item = [&](Snapshot before) {
    Item *it = add_item(d, fam, std::move(before));
    it->unit = it->chain_key = unit;
    it->anchor = anchor;
    it->lang = lang;
    if (b.family == Family::Llvm && !b.arg.empty()) it->detail = b.pass;  // legacy PM description
    return it;
  };

  switch (b.kind) {
  case Kind::AtStart:
    chain_->set("[module]", d.body);
    return;
  case Kind::Before: {
    if (fam.mode == Stream::Unknown)
      for (Item *o : fam.open)
        if (o->unit == unit) fam.mode = Stream::BeforeOnly;
    if (d.body.empty()) {  // a banner without IR (the splitter warned): the pass, text unknown
      fam.open.push_back(new_item(Snapshot()));
      return;
    }
    Snapshot text = t_.intern(std::string_view(d.body));
    if (fam.mode == Stream::BeforeOnly) {
      for (auto it = fam.open.begin(); it != fam.open.end();) {
        Item *o = *it;
        std::optional<std::string> e;
        if (o->unit == unit) resolve(o, text);
        else if (unit == "[module]" && !mir && (e = llvm_extract_function(d.body, o->unit)))
          resolve(o, t_.intern(std::string_view(*e)));
        else { ++it; continue; }
        it = fam.open.erase(it);
      }
    }
    Item *it = new_item(text);
    fam.open.push_back(it);
    remember(d.body);
    return;
  }
  case Kind::After:
  case Kind::AfterInvalidated: {
    Item *match = nullptr;
    for (auto it = fam.open.rbegin(); it != fam.open.rend(); ++it)
      if ((*it)->unit == unit && (*it)->name == b.display_name()) {
        match = *it;
        fam.open.erase(std::next(it).base());
        if (fam.mode == Stream::Unknown) fam.mode = Stream::Paired;
        break;
      }
    if (b.kind == Kind::AfterInvalidated) {
      if (!match) match = new_item(known(current()));
      resolve(match, Snapshot(), "invalidated: the pass deleted its IR unit");
      if (!mir) chain_->erase(unit);
      else fam.chain.erase(unit);
      return;
    }
    if (b.changed_style && is_diff_body(d.body)) {
      auto [before, after] = split_diff_body(d.body);
      if (!match) match = new_item(t_.intern(std::string_view(before)));
      resolve(match, t_.intern(std::string_view(after)),
              "from a -print-changed diff: only the lines the diff shows");
      return;
    }
    if (d.body.empty()) {  // a banner without IR (the splitter warned): nothing to learn
      if (!match) match = new_item(known(current()));
      resolve(match, match->before, "after-text missing in the dump (banner without IR); shown unchanged");
      return;
    }
    if (!match) {
      match = new_item(known(current()));
      if (!match->before) match->note = "before-text not in the dump";
    }
    resolve(match, t_.intern(std::string_view(d.body)));
    remember(d.body);
    return;
  }
  case Kind::AfterFailed:  // MLIR only
    return;
  case Kind::Omitted: {
    Snapshot s = known(current());
    Item *it = new_item(s);
    resolve(it, s, "omitted because no change");
    return;
  }
  case Kind::Ignored:
    // Pass managers and adaptors: -print-changed names them, but they are no
    // passes of their own (-print-after-all never prints them).
    return;
  case Kind::FilteredOut: {
    Item *it = new_item(Snapshot());
    it->skipped = true;
    it->error = "filtered out";
    it->resolved = true;
    return;
  }
  case Kind::Invalidated:
    if (is_pass_manager(b.pass)) return;  // its pass (LoopDeletion) said so already
    [[fallthrough]];
  case Kind::Deleted: {
    if (b.kind == Kind::Invalidated && unit.empty()) {
      unit = fam.open.empty() ? std::string("[module]") : fam.open.back()->unit;
      anchor = "";
    }
    Item *it = new_item(known(current()));
    resolve(it, Snapshot(),
            b.kind == Kind::Deleted ? "IR deleted by the pass" : "invalidated: the pass deleted its IR unit");
    if (b.kind == Kind::Deleted) chain_->erase(unit);
    return;
  }
  }
}

void Assembler::relabel_last(const std::string &name, const std::string &phase) {
  if (!queue_.empty() && queue_.back()->name == name) queue_.back()->phase = phase;
}

void Assembler::close_stage(const std::optional<std::string> &output) {
  Stream &fam = *mlir_;
  if (fam.mode == Stream::Paired || !output) return;
  Snapshot s = t_.intern(std::string_view(*output));
  for (Item *o : fam.open) resolve(o, s, "after-text from the stage output");
  fam.open.clear();
  pump();
}

void Assembler::finish() {
  deferred_ = false;
  for (Stream *fam : {mlir_.get(), llvm_.get(), mir_.get()}) close_open(*fam);
  pump();
}

void Assembler::end_mlir() {
  close_open(*mlir_);
  pump();
}

void Assembler::close_open(Stream &family) {
  Stream *fam = &family;
  {
    for (Item *o : fam->open) {
      if (fam->mode == Stream::Paired) {
        o->failed = true;
        o->error = "no After dump for this pass (input truncated, or the compiler stopped)";
        resolve(o, Snapshot());
        o->after = nullptr;  // no after-text at all
      } else {
        // Before-only and nothing follows: keep the pass, say what is known.
        resolve(o, o->before, "after-text not in the dump (last pass of the stream); shown unchanged");
      }
    }
    fam->open.clear();
  }
}

bool Assembler::in_pipeline_pass() const {
  return !mlir_->open.empty() && mlir_->open.back()->arg == "tritongpu-pipeline";
}

bool Assembler::attach_internal(Dump &&d) {
  ++dumps_;
  bool restart = first_step_.empty() || d.banner.pass == first_step_ || !step_owner_;
  if (first_step_.empty()) first_step_ = d.banner.pass;
  Item *owner = restart ? nullptr : step_owner_;
  if (!owner)
    for (auto &it : queue_)
      if (it->arg == "tritongpu-pipeline" && !it->has_steps) {
        owner = it.get();
        break;
      }
  if (!owner) return false;
  Snapshot text = t_.intern(std::string_view(d.body));
  auto c = std::make_unique<Item>();
  c->name = d.banner.pass;
  c->detail = "internal step of " + owner->name + " (printed to stderr)";
  c->unit = c->anchor = "builtin.module";
  c->lang = "mlir";
  c->phase = owner->phase;
  c->parent = owner;
  c->before = owner->last_internal ? owner->last_internal : owner->before;
  c->after = text;
  c->resolved = true;
  owner->children.push_back(std::move(c));
  owner->last_internal = text;
  owner->has_steps = true;
  step_owner_ = owner;
  return true;
}

void Assembler::pump() {
  if (deferred_) return;
  while (!queue_.empty() && queue_.front()->complete()) {
    emit(*queue_.front());
    queue_.pop_front();
  }
}

bool Assembler::emit(Item &it) {
  if (!it.parent) t_.set_phase(it.phase);
  std::string detail = it.detail;
  if (!it.note.empty()) detail = detail.empty() ? it.note : detail + "; " + it.note;
  if (it.skipped) {
    int idx = t_.skipped_pass(it.name, it.before, it.error);
    t_.annotate(idx, it.anchor, detail);
    ++records_;
    return false;
  }
  int idx = t_.begin_pass(it.name, it.before, it.lang);
  ++records_;
  t_.annotate(idx, it.anchor, detail);
  for (auto &c : it.children)
    if (emit(*c)) return true;  // the session failed this pass with its child
  // The IR a failing pass left behind (MLIR "After ... Failed") is kept.
  if (it.failed) t_.fail_pass_with_ir(idx, it.error, it.after);
  else t_.end_pass(idx, it.after);
  return it.failed;
}

}  // namespace lowertrace::dump
