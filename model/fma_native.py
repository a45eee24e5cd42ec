"""The FMAs of `model.fma` compiled for the golden model's 32-lane instructions.

numpy's per-call overhead makes `model.fma` (written for millions of operands
at once) cost over 100 µs on 32 lanes, most of a MAD-class instruction.
fma_lanes.cpp is the same computation one lane at a time, as a Python
extension module: it is compiled with g++ on first use into build/native/
(named by a hash of the source and of the Python version, so either change
rebuilds it). `fma_wh` and `fma_bh` here take and give what `model.fma`'s do.
Without g++ or Python's headers, or with SFPU_NATIVE=0 in the environment,
they are `model.fma`'s own. `fma_for(features)` gives either for any
features (model.fma.FmaFeatures). tests/model/test_fma_native.py checks both
against `model.fma` bit for bit.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import numpy as np

from . import fma

SOURCE = Path(__file__).with_name("fma_lanes.cpp")
BUILD = Path(os.environ.get("SFPU_BUILD", Path(__file__).resolve().parent.parent / "build")) / "native"


def _module_path() -> Path:
    digest = hashlib.sha256(SOURCE.read_bytes() + sys.version.encode()).hexdigest()[:16]
    return BUILD / f"fma_lanes-{digest}{sysconfig.get_config_var('EXT_SUFFIX')}"


def _compile(target: Path) -> None:
    """g++ into a temporary file, then renamed: parallel test workers may race."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=target.parent, suffix=".so", delete=False) as tmp:
        partial = Path(tmp.name)
    try:
        subprocess.run(["g++", "-O2", "-shared", "-fPIC", "-I", sysconfig.get_paths()["include"], "-o",
                        str(partial), str(SOURCE)], check=True, capture_output=True, timeout=300)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)


def load():
    """The compiled module, building it if needed; None if it cannot be had."""
    if os.environ.get("SFPU_NATIVE", "1") == "0" or shutil.which("g++") is None:
        return None
    target = _module_path()
    try:
        if not target.is_file():
            _compile(target)
        loader = importlib.machinery.ExtensionFileLoader("fma_lanes", str(target))
        module = importlib.util.module_from_spec(importlib.util.spec_from_loader("fma_lanes", loader))
        loader.exec_module(module)
    except (OSError, ImportError, subprocess.SubprocessError):
        return None
    return module


_NATIVE = load()
AVAILABLE = _NATIVE is not None
U32 = np.uint32


def feature_bits(features) -> int:
    """`features` (model.fma.FmaFeatures' fields) as fma_lanes.cpp's bits, the first field lowest."""
    return sum(1 << i for i, on in enumerate(fma.FmaFeatures.of(features)) if on)


def _lanes(bits: int, a, b, c) -> np.ndarray:
    out = np.empty(np.shape(a), dtype=U32)
    try:
        _NATIVE.fma(a, b, c, out, bits)          # the common case: three uint32[32] operands
    except (ValueError, TypeError, BufferError):
        shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
        x, y, z = (np.ascontiguousarray(np.broadcast_to(np.asarray(v, dtype=U32), shape)) for v in (a, b, c))
        out = np.empty(shape, dtype=U32)
        _NATIVE.fma(x, y, z, out, bits)
    return out


if AVAILABLE:
    @functools.cache
    def fma_for(features):
        """`model.fma.fma` with `features` fixed, compiled: a function of (a, b, c)."""
        bits = feature_bits(features)
        return lambda a, b, c: _lanes(bits, a, b, c)
else:
    @functools.cache
    def fma_for(features):
        """`model.fma.fma` with `features` fixed: a function of (a, b, c)."""
        fixed = fma.FmaFeatures.of(features)
        return lambda a, b, c: fma.fma(a, b, c, fixed)

fma_wh, fma_bh = (fma.fma_wh, fma.fma_bh) if not AVAILABLE else (fma_for(fma.WORMHOLE_FMA), fma_for(fma.BLACKHOLE_FMA))

__all__ = ["AVAILABLE", "fma_for", "fma_wh", "fma_bh", "feature_bits", "load"]
