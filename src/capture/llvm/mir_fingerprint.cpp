#include "mir_fingerprint.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/CodeGen/MachineConstantPool.h>
#include <llvm/CodeGen/MachineFrameInfo.h>
#include <llvm/CodeGen/MachineFunction.h>
#include <llvm/CodeGen/MachineInstr.h>
#include <llvm/CodeGen/MachineJumpTableInfo.h>
#include <llvm/CodeGen/MachineMemOperand.h>
#include <llvm/CodeGen/MachineRegisterInfo.h>
#include <llvm/CodeGen/SlotIndexes.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>

namespace lowertrace::llvm_capture {

namespace {

// Words are collected and hashed once (xxh3) rather than combined one by one.
struct Words {
  llvm::SmallVector<std::uint64_t, 512> w;
  void add(std::uint64_t v) { w.push_back(v); }
  void ptr(const void *p) { w.push_back(reinterpret_cast<std::uintptr_t>(p)); }
};

void add_operand(Words &h, const llvm::MachineOperand &mo) {
  h.add(llvm::hash_value(mo));
  if (mo.isReg()) {
    // hash_value(MachineOperand) leaves out the flags the printer shows.
    h.add(std::uint64_t(mo.isImplicit()) | std::uint64_t(mo.isKill()) << 1 |
          std::uint64_t(mo.isDead()) << 2 | std::uint64_t(mo.isUndef()) << 3 |
          std::uint64_t(mo.isEarlyClobber()) << 4 | std::uint64_t(mo.isDebug()) << 5 |
          std::uint64_t(mo.isInternalRead()) << 6 | std::uint64_t(mo.isRenamable()) << 7 |
          std::uint64_t(mo.isTied()) << 8);
  }
}

void add_instr(Words &h, const llvm::MachineInstr &mi, llvm::SlotIndexes *si) {
  h.add(mi.getOpcode());
  h.add(mi.getFlags());
  h.add(mi.getAsmPrinterFlags());
  h.add(mi.getNumOperands());
  for (const llvm::MachineOperand &mo : mi.operands()) add_operand(h, mo);
  for (const llvm::MachineMemOperand *mmo : mi.memoperands()) {
    h.ptr(mmo);
    h.add(mmo->getFlags());
    h.add(mmo->getOffset());
    h.add(mmo->getAlign().value());
    h.ptr(mmo->getValue());
    h.ptr(mmo->getPseudoValue());
  }
  h.ptr(mi.getDebugLoc().get());
  h.ptr(mi.getPreInstrSymbol());
  h.ptr(mi.getPostInstrSymbol());
  h.ptr(mi.getHeapAllocMarker());
  h.ptr(mi.getPCSections());
  h.add(mi.getCFIType());
  h.add(mi.peekDebugInstrNum());
  if (si && si->hasIndex(mi)) h.add(si->getZeroIndex().distance(si->getInstructionIndex(mi)));
}

}  // namespace

std::uint64_t fingerprint(const llvm::MachineFunction &mf, llvm::SlotIndexes *si) {
  Words h;
  llvm::SmallString<128> props;
  llvm::raw_svector_ostream ps(props);
  mf.getProperties().print(ps);
  h.add(llvm::xxh3_64bits(llvm::StringRef(props)));
  h.add(mf.getAlignment().value());

  const llvm::MachineFrameInfo &fi = mf.getFrameInfo();
  h.add(fi.getStackSize());
  h.add(fi.getMaxAlign().value());
  h.add(fi.getOffsetAdjustment());
  h.add(std::uint64_t(fi.adjustsStack()) | std::uint64_t(fi.hasCalls()) << 1);
  for (int i = fi.getObjectIndexBegin(), e = fi.getObjectIndexEnd(); i < e; ++i) {
    h.add(static_cast<std::uint64_t>(i));
    if (fi.isDeadObjectIndex(i)) {
      h.add(~0ull);
      continue;
    }
    h.add(static_cast<std::uint64_t>(fi.getObjectSize(i)));
    h.add(static_cast<std::uint64_t>(fi.getObjectOffset(i)));
    h.add(fi.getObjectAlign(i).value());
    h.add(fi.getStackID(i) | std::uint64_t(fi.isSpillSlotObjectIndex(i)) << 8);
  }
  // Shrink wrapping's save and restore points, and the callee-saved registers.
  for (const llvm::SaveRestorePoints *points : {&fi.getSavePoints(), &fi.getRestorePoints()}) {
    std::uint64_t sum = 0;  // a map: its order is not what changed
    for (const auto &[mbb, csi] : *points) {
      std::uint64_t e = llvm::hash_combine(mbb->getNumber(), csi.size());
      for (const llvm::CalleeSavedInfo &c : csi) e = llvm::hash_combine(e, c.getReg().id(), c.getFrameIdx());
      sum += e;
    }
    h.add(points->size());
    h.add(sum);
  }
  h.add(fi.isCalleeSavedInfoValid());
  for (const llvm::CalleeSavedInfo &c : fi.getCalleeSavedInfo()) {
    h.add(c.getReg().id());
    h.add(static_cast<std::uint64_t>(c.getFrameIdx()));
  }
  if (const llvm::MachineConstantPool *cp = mf.getConstantPool()) h.add(cp->getConstants().size());
  if (const llvm::MachineJumpTableInfo *jt = mf.getJumpTableInfo())
    for (const llvm::MachineJumpTableEntry &e : jt->getJumpTables()) {
      h.add(e.MBBs.size());
      for (const llvm::MachineBasicBlock *b : e.MBBs) h.add(b->getNumber());
    }

  const llvm::MachineRegisterInfo &mri = mf.getRegInfo();
  h.add(mri.getNumVirtRegs());
  for (unsigned i = 0, e = mri.getNumVirtRegs(); i < e; ++i) {
    llvm::Register r = llvm::Register::index2VirtReg(i);
    h.ptr(mri.getRegClassOrRegBank(r).getOpaqueValue());
  }
  for (const auto &li : mri.liveins()) {
    h.add(li.first.id());
    h.add(li.second.id());
  }

  for (const llvm::MachineBasicBlock &mbb : mf) {
    h.add(0x6262u);  // block separator
    h.add(mbb.getNumber());
    h.ptr(mbb.getBasicBlock());
    h.add(mbb.getAlignment().value());
    h.add(std::uint64_t(mbb.isEHPad()) | std::uint64_t(mbb.hasAddressTaken()) << 1 |
          std::uint64_t(mbb.isEHFuncletEntry()) << 2 | std::uint64_t(mbb.isInlineAsmBrIndirectTarget()) << 3 |
          std::uint64_t(mbb.isIRBlockAddressTaken()) << 4 | std::uint64_t(mbb.isMachineBlockAddressTaken()) << 5);
    if (si) h.add(si->getZeroIndex().distance(si->getMBBStartIdx(&mbb)));
    for (auto it = mbb.succ_begin(), e = mbb.succ_end(); it != e; ++it) {
      h.add((*it)->getNumber());
      h.add(mbb.getSuccProbability(it).getNumerator());
    }
    for (const auto &lv : mbb.liveins()) {
      h.add(lv.PhysReg.id());
      h.add(lv.LaneMask.getAsInteger());
    }
    for (const llvm::MachineInstr &mi : mbb.instrs()) add_instr(h, mi, si);
  }
  return llvm::xxh3_64bits(llvm::ArrayRef<std::uint8_t>(
      reinterpret_cast<const std::uint8_t *>(h.w.data()), h.w.size() * sizeof(std::uint64_t)));
}

}  // namespace lowertrace::llvm_capture
