"""Where kernel headers come from: the unpacked `ttnn` wheel's `ttnn/tt_metal`
folder, a tt-metal checkout, or a tt-llk checkout (`--src DIR`, or the
environment variable SFPU_LLK_SRC). Nothing from these trees is ever copied
into the project; the front end reads them where they are.

The Wormhole kernel folders are found by their tails:
`tt_llk_wormhole_b0/common/inc/sfpu` (tt-llk's kernels, included as
`sfpu/ckernel_sfpu_*.h`) and `wormhole_b0/metal/llk_api/llk_sfpu` (tt-metal's).

`example:NAME` names a header of the package's examples (tensix_sfpu.examples),
found wherever the package is installed. Errors name the tree as the caller
gave it: `--src DIR` on the command line, `src=DIR` in the Python API
(`option`), or the environment variable.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from tensix_sfpu.examples import FOLDER as EXAMPLES
from tensix_sfpu.model.spelling import did_you_mean

ENV = "SFPU_LLK_SRC"
CLI_OPTION = "--src"        # how a caller gives the tree, as its errors say it (the API passes "src=")
EXAMPLE = "example:"
_MAX_DEPTH = 6


@dataclass(frozen=True)
class Upstream:
    """How the upstream sources name one architecture."""
    llk_dir: str                    # tt-llk's tree: LLK_DIR/common/inc/sfpu
    metal_dir: str                  # tt-metal's: METAL_DIR/metal/llk_api/llk_sfpu
    define: str                     # the macro tt-llk's sources test (`#if defined(ARCH_BLACKHOLE)`)
    stand_ins: tuple[str, ...] = () # stand-ins (tb/llk/include) of helpers only this tree has


# By `Arch.value`, as the front end passes architectures.
UPSTREAM = {"wormhole": Upstream("tt_llk_wormhole_b0", "wormhole_b0", "ARCH_WORMHOLE"),
            "blackhole": Upstream("tt_llk_blackhole", "blackhole", "ARCH_BLACKHOLE", ("llk_blackhole.h",))}


@dataclass(frozen=True)
class SourceTree:
    root: Path | None
    llk_sfpu: Path | None         # tt-llk's common/inc/sfpu
    metal_sfpu: Path | None       # tt-metal's llk_api/llk_sfpu
    sfpu_types: Path | None       # tt-metal's llk_api/llk_sfpu_types.h (SfpuType)
    helpers: Path | None          # tt-llk's tests/python_tests/helpers

    @property
    def include_dirs(self) -> list[Path]:
        return [d for d in (self.metal_sfpu,) if d is not None]

    @property
    def kernel_dirs(self) -> list[Path]:
        return [d for d in (self.llk_sfpu, self.metal_sfpu) if d is not None]


class SourceError(ValueError):
    pass


def _find(root: Path, tail: tuple[str, ...]) -> Path | None:
    """The shallowest folder under root whose path ends with `tail`."""
    frontier = [root]
    for _ in range(_MAX_DEPTH + len(tail)):
        nxt = []
        for folder in frontier:
            candidate = folder.joinpath(*tail)
            if candidate.is_dir():
                return candidate
            try:
                nxt += [p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")]
            except OSError:
                continue
        frontier = nxt
        if not frontier:
            break
    return None


def given(option: str, value: object) -> str:
    """A value as the caller gave it: `--src DIR` or `src=DIR`."""
    return f"{option}{value}" if option.endswith("=") else f"{option} {value}"


def find_tree(src: str | Path | None, arch: str, option: str = CLI_OPTION) -> SourceTree | None:
    """The kernel folders under `src` (or $SFPU_LLK_SRC); None when neither is given."""
    named = given(option, src) if src else f"{ENV}={os.environ.get(ENV)}"
    src = src or os.environ.get(ENV)
    if not src:
        return None
    root = Path(src).expanduser().resolve()
    if not root.is_dir():
        raise SourceError(f"{named}: no such folder")
    llk_name, metal_name = UPSTREAM[arch].llk_dir, UPSTREAM[arch].metal_dir
    llk = _find(root, (llk_name, "common", "inc", "sfpu"))
    metal = _find(root, (metal_name, "metal", "llk_api", "llk_sfpu"))
    if llk is None and metal is None:
        raise SourceError(f"{named}: no {llk_name}/common/inc/sfpu or {metal_name}/metal/llk_api/llk_sfpu "
                          "folder under it (give the unpacked wheel's ttnn/tt_metal, a tt-metal or a tt-llk "
                          "checkout)")
    types = metal.parent / "llk_sfpu_types.h" if metal is not None else None
    helpers = _find(root, ("tests", "python_tests", "helpers"))
    return SourceTree(root, llk, metal, types if types is not None and types.is_file() else None, helpers)


def find_header(name: str, tree: SourceTree | None, option: str = CLI_OPTION) -> Path:
    """HEADER as `example:NAME`, a path, a path inside the tree, or a file
    name looked up in the tree's kernel folders."""
    if name.startswith(EXAMPLE):
        return _example(name)
    path = Path(name)
    if path.is_file():
        return path
    if tree is not None and tree.root is not None and (tree.root / name).is_file():
        return tree.root / name
    if tree is not None:
        for folder in tree.kernel_dirs:
            if (folder / name).is_file():
                return folder / name
    # A path to one of the package's examples that no longer holds (an older copy of test_my_kernel.py).
    example = f"; the package's example of that name is {EXAMPLE}{path.name}" if _is_example(path.name) else ""
    if tree is not None:
        headers = {h.name for folder in tree.kernel_dirs for h in folder.glob("*.h")}
        raise SourceError(f"{name}: no such header, nor under {tree.root}{did_you_mean(path.name, headers)}{example}")
    if len(path.parts) > 1:
        raise SourceError(f"{name}: no such file{example}")
    raise SourceError(f"{name}: no such header (a file name is looked up in a kernel tree: give "
                      f"{given(option, 'DIR')} or set {ENV}){example}")


def _is_example(name: str) -> bool:
    """Whether `name` is a file name (no folder) of an example header."""
    return name.endswith(".h") and Path(name).name == name and (EXAMPLES / name).is_file()


def _example(name: str) -> Path:
    """`example:NAME`: a header of the package's examples."""
    wanted = name[len(EXAMPLE):]
    if _is_example(wanted):
        return EXAMPLES / wanted
    there = ", ".join(EXAMPLE + p.name for p in sorted(EXAMPLES.glob("*.h")))
    raise SourceError(f"{name}: the package has no such example header (it has {there})")
