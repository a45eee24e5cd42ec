"""Kernels from their source: every kernel of tb/kernels that names its C++
call (`Kernel.llk_source`) compiled by the front end from a tt-metal/tt-llk
tree, and compared with its hand listing: the SFPU instruction words the
kernel's own C++ issues against the hand listing's, and the Dst each leaves
on the same inputs, bit for bit, with the generated one also checked against
numpy as the kernel requires.

    python -m tb.llk.regenerate DIR [NAME...]
    python -m tb.llk.regenerate --arch blackhole DIR [NAME...]

With `--arch blackhole` the same calls are compiled from the tree's Blackhole
headers and run on the Blackhole model: each against numpy, each macro kernel
against its twin compiled the same way, and its cycles per row group against
the Wormhole kernel's claim (there is no Blackhole hand listing to compare).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from model import isa
from model.asm import Directive, Instr
from tb import kernels

from .frontend import LlkError, Listing, Request, compile_call
from .frontend import cxx_of_message as with_cxx_location
from .sources import SourceError, find_header, find_tree


@dataclass
class Regenerated:
    name: str
    call: str
    words_equal: bool | None
    word_note: str
    dst_equal: bool | None
    accuracy: str
    error: str = ""


def body_words(program) -> list[int]:
    """The SFPU instruction words after `.mark body`: the kernel's calls, without its init."""
    out, body = [], False
    for item in program.items:
        if isinstance(item, Directive) and item.name == "mark" and item.args[0] == "body":
            body = True
        elif body and isinstance(item, Instr) and item.word >> 24 in isa.BY_OPCODE:
            out.append(item.word)
    return out


def compile_source(kernel: kernels.Kernel, tree, arch: str = "wormhole") -> Listing:
    src = kernel.llk_source
    request = Request(find_header(src.header, tree), src.call, src.init, arch, src.defines, src.fp32_dest,
                      src.srcb_format, src.setup, src.vector_mode, tree)
    return compile_call(request, f"{kernel.name} (from {src.header}, {arch})")


def _first_difference(a: list[int], b: list[int]) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"word {i}: 0x{x:08X} generated, 0x{y:08X} by hand"
    return f"{len(a)} generated words, {len(b)} by hand"


def regenerate(kernel: kernels.Kernel, tree) -> Regenerated:
    src = kernel.llk_source
    try:
        listing = compile_source(kernel, tree)
    except (LlkError, SourceError) as e:
        return Regenerated(kernel.name, src.call, None, "", None, "", str(e))
    generated = body_words(listing.program)
    hand = body_words(kernels.prepared(kernel)[0])
    equal = generated == hand
    try:
        by_source = kernels.run_kernel(kernel, program=listing.program)
    except Exception as e:       # the model's stop is a result to report
        return Regenerated(kernel.name, src.call, equal, "" if equal else _first_difference(generated, hand),
                           None, "", f"run stopped: {with_cxx_location(str(e), listing)}")
    by_hand = kernels.run_kernel(kernel)
    ok, how = kernels.check_accuracy(by_source)
    return Regenerated(kernel.name, src.call, equal, "" if equal else _first_difference(generated, hand),
                       bool(np.array_equal(by_source.result.state.dst, by_hand.result.state.dst)),
                       f"{'ok' if ok else 'FAILS'}: {how}")


def programs_from_source(src: str, names: list[str]) -> dict:
    """The generated program of each named kernel that has a source call. Raises ValueError
    naming the kernel and the C++ line when one does not compile."""
    try:
        tree = find_tree(src, "wormhole")
    except SourceError as e:
        raise ValueError(str(e)) from None
    table = kernels.all_kernels()
    out = {}
    for name in names:
        if table[name].llk_source is None:
            continue
        try:
            out[name] = compile_source(table[name], tree).program
        except (LlkError, SourceError) as e:
            raise ValueError(f"{name}: {e}") from None
    return out


@dataclass
class OnBlackhole:
    name: str
    call: str
    accuracy: str = ""
    cycles_per_row: float | None = None
    twin: str = ""
    error: str = ""


def _run_generated(kernel: kernels.Kernel, tree):
    listing = compile_source(kernel, tree, "blackhole")
    try:
        return kernels.run_kernel(kernel, program=listing.program)
    except Exception as e:       # the model's stop is a result to report
        raise LlkError(f"run stopped: {with_cxx_location(str(e), listing)}") from None


def on_blackhole(kernel: kernels.Kernel, tree, table: dict) -> OnBlackhole:
    """The kernel's source call compiled for Blackhole and run on its model."""
    out = OnBlackhole(kernel.name, kernel.llk_source.call)
    try:
        run = _run_generated(kernel, tree)
    except (LlkError, SourceError) as e:
        out.error = str(e)
        return out
    ok, how = kernels.check_accuracy(run)
    out.accuracy, out.cycles_per_row = f"{'ok' if ok else 'FAILS'}: {how}", run.cycles_per_row
    twin = table.get(kernel.twin) if kernel.twin else None
    if twin is not None and twin.llk_source is not None:
        try:
            other = _run_generated(twin, tree)
            same = np.array_equal(run.result.state.dst, other.result.state.dst)
            out.twin = f"{twin.name}: {'bit-identical' if same else 'DIFFERENT'}"
        except (LlkError, SourceError) as e:
            out.twin = f"{twin.name}: {e}"
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tb.llk.regenerate", description=__doc__.splitlines()[0])
    p.add_argument("--arch", choices=("wormhole", "blackhole"), default="wormhole")
    p.add_argument("src")
    p.add_argument("names", nargs="*")
    args = p.parse_args(argv)
    try:
        tree = find_tree(args.src, args.arch)
    except SourceError as e:
        print(f"regenerate: error: {e}", file=sys.stderr)
        return 2
    table = kernels.all_kernels()
    names = args.names or [n for n, k in table.items() if k.llk_source is not None]
    unknown = [n for n in names if n not in table]
    if unknown:
        print(f"regenerate: error: no kernel named {', '.join(unknown)} (sfpu kernels --list)", file=sys.stderr)
        return 2
    if args.arch == "blackhole":
        print("| kernel | call | against numpy | cycles per row group (Wormhole's claim) | macro = twin |")
        print("|---|---|---|---|---|")
        for name in names:
            k = table[name]
            if k.llk_source is None:
                continue
            r = on_blackhole(k, tree, table)
            claim = f" ({k.claimed_cycles_per_row:g})" if k.claimed_cycles_per_row else ""
            cycles = f"{r.cycles_per_row:.3f}{claim}" if r.cycles_per_row is not None else ""
            print(f"| {r.name} | `{r.call}` | {r.accuracy or r.error} | {cycles} | {r.twin} |")
        return 0
    print("| kernel | call | SFPU words of the body = hand listing | Dst = hand kernel | against numpy |")
    print("|---|---|---|---|---|")
    for name in names:
        r = regenerate(table[name], tree)
        words = "yes" if r.words_equal else (f"no ({r.word_note})" if r.words_equal is False else "")
        dst = {True: "bit-identical", False: "DIFFERENT", None: ""}[r.dst_equal]
        print(f"| {r.name} | `{r.call}` | {words} | {dst} | {r.accuracy or r.error} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
