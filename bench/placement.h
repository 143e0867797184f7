// A kernel timed from a copy of its machine code that starts at a chosen byte of a 64-byte
// line (./lab placement). The linker decides where each kernel's loops fall in the lines;
// on a Zen 5 guest that alone made affine/ssse3/dot1 1.8x slower (docs/findings/zen5.md,
// 2026-12-05), so a time is a kernel's only once it is known at every placement.
//
// NNUELAB_PLACE="<address> <size> <offset> <hash> [<field>...]", written by
// tools/placement.py from the binary's symbol table and objdump: the function at link
// address <address> (hex) of <size> bytes is copied to byte <offset> of a fresh page (byte
// offset % 64 of line offset / 64), a multiple of 16 MiB away from its own page: only the
// offset in the page, and bits from 24 up, differ from the original's address. Each <field> is the offset in the
// function of a 4-byte RIP-relative displacement that leaves it (a constant's load, a call
// or a tail jump), re-aimed at the same target from the copy; jumps within the function
// move with it. <hash> (FNV-1a of the function's bytes, hex) must match the loaded bytes, so
// a stale description refuses instead of running something else.
// Most registry entries are a few instructions ending in a jump to the kernel proper (a
// template's function shared by several entries). For those the value goes on with
// "; <entry address> <size> <hash> <tail field> [<field>...]": the entry is copied too (to
// the next pages, at its own offset in a page), its fields re-aimed and its tail jump
// aimed at the kernel's copy, and the benchmark calls the entry's copy. A switch's jump
// table goes with its function as "t<lea field>:<table address>:<entries>" among the
// fields: copied after the kernel, its entries measured from the copy. "p<offset>:<hex>"
// among the fields writes those bytes over the copy once it is made: tests use it to make
// a copy compute something else on purpose, which the benchmark must then refuse.
#pragma once
#include <stdexcept>
#include <string>

namespace nnuelab::bench {

// Reads and checks NNUELAB_PLACE (std::runtime_error naming what is wrong); no-op unset.
void check_placement();

// The copy of `function` when NNUELAB_PLACE names it (made once), else `function` itself.
const void* placed_code(const void* function);

template <class F>
F placed(F f) {
  return f ? reinterpret_cast<F>(const_cast<void*>(placed_code(reinterpret_cast<const void*>(f)))) : f;
}

// The refusal of a copy that wrote other outputs than the original `who` (`where`: on
// which input, or empty).
[[noreturn]] inline void refuse_copy(const std::string& who, const std::string& where = "") {
  throw std::runtime_error(who + ": its placed copy wrote other outputs than the original" + where +
                           " (NNUELAB_PLACE re-aims the wrong fields?)");
}

// placed(f), the copy only once same(f, copy) said that it computes what f does (the
// caller runs both on its inputs and compares bytes: a copy re-aimed wrongly must not be
// timed as the kernel); refuse_copy(who) otherwise.
template <class F, class Same>
F placed_checked(F f, const std::string& who, Same same) {
  const F copy = placed(f);
  if (copy != f && !same(f, copy)) refuse_copy(who);
  return copy;
}

}  // namespace nnuelab::bench
