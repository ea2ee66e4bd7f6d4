// capture/llvm/mir_fingerprint.h - a cheap hash of what MachineFunction::print shows.
//
// The machine-pass tracer prints a machine function only when this hash moved
// since its last print: most codegen passes change few functions, and printing
// MIR (with its slot tracker) costs far more than walking it once.
//
// Covered: function properties, frame objects, constant pool and jump table
// sizes, virtual register classes and live-ins, every block (number, IR block,
// alignment, flags, successors with probabilities, live-ins), save/restore
// points and callee-saved registers, and every
// instruction (opcode, flags, each operand with its register flags, memory
// operands, debug location, symbols) and, when the printer would show them,
// slot indexes. Not covered: a change made in place inside a memory operand or
// a constant-pool entry (pointers are hashed, not contents) - see the notes.
#pragma once

#include <cstdint>

namespace llvm {
class MachineFunction;
class SlotIndexes;
}  // namespace llvm

namespace lowertrace::llvm_capture {

// `indexes`: the SlotIndexes the printer would use (null when not available).
std::uint64_t fingerprint(const llvm::MachineFunction &mf, llvm::SlotIndexes *indexes);

}  // namespace lowertrace::llvm_capture
