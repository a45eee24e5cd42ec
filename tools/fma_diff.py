"""`make fma-diff`: `model.fma` against the bit-perfect C models of the ISA documentation's fma.c.

Usage: python tools/fma_diff.py --fma-c PATH [--arch bh|wh] [--triples N] [--seed S] [--jobs J]

The user's fma.c (not part of this repository) is compiled with the system C
compiler into a temporary folder, together with a small driver that loops
``fma_model_bh`` or ``fma_model_wh`` over arrays, and loaded with ctypes.
Random triples are generated in blocks from a seeded generator (block i
always holds the same triples, whichever worker runs it), evaluated by both
models and compared bit for bit.  Each block is split evenly between the input
classes of ``CLASSES``.

Exit status: 0 all equal, 1 mismatches (the first 10 are printed with their
hex triples), 2 the C model could not be set up (missing file, compile error,
function not defined), with a message and no traceback.
"""

from __future__ import annotations

import argparse
import ctypes
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

# This checkout's model, not whichever copy of the package is installed.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tensix_sfpu.model.fma import fma_bh, fma_wh  # noqa: E402

ARCHES = {"bh": ("fma_model_bh", fma_bh), "wh": ("fma_model_wh", fma_wh)}

BLOCK = 1 << 20
SHOW = 10

_DRIVER = """\
#include <stddef.h>
#include <stdint.h>
uint32_t {fn}(uint32_t x, uint32_t y, uint32_t z);
#ifdef __cplusplus
extern "C"
#endif
void fma_diff_run(const uint32_t *x, const uint32_t *y, const uint32_t *z, uint32_t *out, size_t n) {{
  for (size_t i = 0; i < n; i++) out[i] = {fn}(x[i], y[i], z[i]);
}}
"""


class DiffError(Exception):
    """A setup problem, reported as one message (exit status 2)."""


# ---------------------------------------------------------------------------
# The C side
# ---------------------------------------------------------------------------

def _compiler() -> list[str]:
    for name in (os.environ.get("CC"), "gcc", "cc", "clang", "g++"):
        if name and shutil.which(name):
            return [name]
    raise DiffError("no C compiler found (gcc, cc, clang or g++): apt-get install -y gcc")


def _run(cmd: list[str], what: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        raise DiffError(f"{what}: the compiler took more than 120 s") from None


def _tail(text: str, lines: int = 15) -> str:
    out = text.strip().splitlines()
    return "\n".join("    " + s for s in out[:lines]) + ("\n    ..." if len(out) > lines else "")


def build(fma_c: str, arch: str, workdir: Path) -> Path:
    """Compile fma.c and the driver into a shared library in `workdir`."""
    if not fma_c:
        raise DiffError("FMA_C is not set: make fma-diff FMA_C=/path/to/tt-isa-documentation/"
                        "Miscellaneous/FMA/fma.c")
    src = Path(fma_c).expanduser()
    if not src.is_file():
        raise DiffError(f"FMA_C={fma_c}: " + ("not a file" if src.exists() else "no such file"))
    fn = ARCHES[arch][0]
    cc = _compiler()
    obj, drv, lib = workdir / "fma.o", workdir / "driver.c", workdir / "libfmadiff.so"
    r = _run(cc + ["-O2", "-fPIC", "-c", str(src), "-o", str(obj)], str(src))
    if r.returncode:
        raise DiffError(f"{src} does not compile with {cc[0]}:\n{_tail(r.stderr)}")
    drv.write_text(_DRIVER.format(fn=fn))
    r = _run(cc + ["-O2", "-fPIC", "-shared", str(drv), str(obj), "-o", str(lib),
                   "-Wl,--no-undefined"], "driver")
    if r.returncode:
        if fn in r.stderr:
            raise DiffError(f"{src} does not define {fn}(uint32_t, uint32_t, uint32_t)")
        raise DiffError(f"linking {src} with the driver failed:\n{_tail(r.stderr)}")
    return lib


class CModel:
    def __init__(self, lib: Path):
        self._run = ctypes.CDLL(str(lib)).fma_diff_run
        p = ctypes.POINTER(ctypes.c_uint32)
        self._run.argtypes = [p, p, p, p, ctypes.c_size_t]
        self._run.restype = None

    def __call__(self, x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
        x, y, z = (np.ascontiguousarray(v, dtype=np.uint32) for v in (x, y, z))
        out = np.empty_like(x)
        p = ctypes.POINTER(ctypes.c_uint32)
        self._run(x.ctypes.data_as(p), y.ctypes.data_as(p), z.ctypes.data_as(p), out.ctypes.data_as(p), x.size)
        return out


# ---------------------------------------------------------------------------
# Triples
# ---------------------------------------------------------------------------

_SPECIAL_EXP = np.array([0, 0, 1, 1, 2, 126, 127, 128, 253, 254, 254, 255, 255], dtype=np.uint32)
_SPECIAL_FRAC = np.array([0, 0, 1, 2, 3, 0x7FFFFF, 0x7FFFFE, 0x400000, 0x400001, 0x000100], dtype=np.uint32)


def _words(rng, n) -> np.ndarray:
    return rng.integers(0, 1 << 32, n, dtype=np.uint32)


def _pick(rng, table: np.ndarray, n: int) -> np.ndarray:
    return table[rng.integers(0, table.size, n)]


def _frac(rng, n) -> np.ndarray:
    """Fractions: random, all-ones/zero/one, or a few leading bits only."""
    kind = rng.integers(0, 4, n)
    r = _words(rng, n) & 0x7FFFFF
    few = r & ~((np.uint32(1) << rng.integers(8, 23, n).astype(np.uint32)) - 1) & 0x7FFFFF
    return np.select([kind == 0, kind == 1], [_pick(rng, _SPECIAL_FRAC, n), few], r).astype(np.uint32)


def _compose(sign, exp, frac) -> np.ndarray:
    return ((sign.astype(np.uint32) & 1) << 31) | (np.clip(exp, 0, 255).astype(np.uint32) << 23) | frac


def _sign(rng, n) -> np.ndarray:
    return rng.integers(0, 2, n, dtype=np.uint32)


def gen_uniform(rng, n):
    return _words(rng, n), _words(rng, n), _words(rng, n)


def gen_special(rng, n):
    def word():
        w = _compose(_sign(rng, n), _pick(rng, _SPECIAL_EXP, n),
                     np.where(rng.integers(0, 2, n) == 0, _pick(rng, _SPECIAL_FRAC, n), _words(rng, n) & 0xF))
        return np.where(rng.integers(0, 4, n) == 0, _words(rng, n), w)
    return word(), word(), word()


def _f64(bits: np.ndarray) -> np.ndarray:
    return bits.view(np.float32).astype(np.float64)


def gen_cancel(rng, n):
    ex = rng.integers(1, 255, n)
    pe = rng.integers(2, 253, n)                               # product exponent field
    ey = np.clip(pe + 127 - ex, 1, 254)
    x = _compose(_sign(rng, n), ex, _frac(rng, n))
    y = _compose(_sign(rng, n), ey, _frac(rng, n))
    with np.errstate(over="ignore", under="ignore"):
        p32 = (_f64(x) * _f64(y)).astype(np.float32).view(np.uint32)   # the rounded product
    # Half: z = -p (or +p) nudged by a few ulps - massive cancellation.
    near = (p32 ^ np.where(rng.integers(0, 4, n) == 0, np.uint32(0), np.uint32(0x80000000))) \
        + rng.integers(-8, 9, n).astype(np.uint32)
    # Half: z a given exponent gap away from the product, either sign: the
    # aligner's semi-sticky shifts, from none to everything shifted out.
    gap = np.where(rng.integers(0, 2, n) == 0, rng.integers(-4, 5, n), rng.integers(-40, 41, n))
    far = _compose(_sign(rng, n), ((p32 >> 23) & 0xFF).astype(np.int64) + gap, _frac(rng, n))
    return x, y, np.where(rng.integers(0, 2, n) == 0, near, far)


def gen_edge(rng, n):
    # Product exponent field just around 0 (below 2**-126) or 254 (overflow).
    low = rng.integers(0, 2, n) == 0
    pe = np.where(low, rng.integers(-3, 4, n), rng.integers(251, 258, n))
    ex = rng.integers(1, 255, n)
    ey = np.clip(pe + 127 - ex, 1, 254)
    x = _compose(_sign(rng, n), ex, _frac(rng, n))
    y = _compose(_sign(rng, n), ey, _frac(rng, n))
    kind = rng.integers(0, 6, n)
    z = np.select(
        [kind == 0, kind == 1, kind == 2, kind == 3, kind == 4],
        [_compose(_sign(rng, n), np.zeros(n, np.int64), np.where(rng.integers(0, 2, n) == 0, 0, _frac(rng, n))),
         _compose(_sign(rng, n), rng.integers(1, 4, n), _frac(rng, n)),                 # tiny normals
         _compose(_sign(rng, n), rng.integers(251, 256, n), _frac(rng, n)),             # huge, Inf, NaN
         _compose(_sign(rng, n), pe + rng.integers(-3, 4, n), _frac(rng, n)),          # near the product
         _compose(_sign(rng, n), rng.integers(0, 256, n), _frac(rng, n))],
        _words(rng, n)).astype(np.uint32)
    return x, y, z


def gen_tiny(rng, n):
    # x*y and z share an exponent field E in 1..4 and differ by 2**b - s
    # units of the product's 27-bit grid: with b <= 27 - E the sum lands at
    # or below exponent 0, where only an all-ones significand survives (by
    # rounding up to 2**-126).  The cut product is worked out here only to
    # place z; which result is right is the C model's business.
    e = rng.integers(1, 5, n)
    ex = rng.integers(1, e + 127)
    ey = e + 127 - ex
    x = _compose(_sign(rng, n), ex, _words(rng, n) & 0x7FFFFF)
    y = _compose(_sign(rng, n), ey, _frac(rng, n))
    xm = (x & 0x7FFFFF | 0x800000).astype(np.uint64)
    ym = (y & 0x7FFFFF | 0x800000).astype(np.uint64)
    p48 = xm * ym
    pm = ((p48 >> np.uint64(20)) | ((p48 & np.uint64(0xFFFFF)) != 0)).astype(np.int64)
    b = rng.integers(20, 28 - e)
    zm = (pm - (np.int64(1) << b) + rng.integers(-8, 9, n)) >> 3     # z's 24 bits on the same grid
    ok = (zm >= 1 << 23) & (zm < 1 << 24)
    z = _compose(((x ^ y) >> 31) ^ 1, e, (zm & 0x7FFFFF).astype(np.uint32))
    return x, y, np.where(ok, z, _compose(_sign(rng, n), e, _frac(rng, n)))


#: Input classes, each an equal share of every block: name -> (generator, what it draws).
CLASSES = {
    "uniform": (gen_uniform, "three uniformly random 32-bit words"),
    "special": (gen_special, "words biased to exponents 0, 1, 2, 126-128, 253-255 and to small or "
                             "all-ones fractions"),
    "cancel": (gen_cancel, "z near -(x*y), or a controlled exponent gap from the product (cancellation, "
                           "alignment)"),
    "edge": (gen_edge, "products near the bottom and the top of the exponent range; z zero, denormal, "
                       "tiny, huge or Inf"),
    "tiny": (gen_tiny, "x*y and -z in the lowest binades differing by just under a power of two: results "
                       "that round up to 2**-126 or are flushed"),
}


def block_triples(seed: int, index: int, size: int):
    """Triples of block `index`: (x, y, z, class number per triple)."""
    rng = np.random.default_rng([seed, index])
    gens = [gen for gen, _ in CLASSES.values()]
    bounds = [size * k // len(gens) for k in range(len(gens) + 1)]
    parts = [gen(rng, bounds[k + 1] - bounds[k]) for k, gen in enumerate(gens)]
    x, y, z = (np.concatenate([p[i] for p in parts]) for i in range(3))
    cls = np.repeat(np.arange(len(gens), dtype=np.uint8), np.diff(bounds))
    return x, y, z, cls


# ---------------------------------------------------------------------------
# Workers
# ---------------------------------------------------------------------------

_state: dict = {}


def _init(lib: str, arch: str, seed: int, total: int) -> None:
    _state.update(c=CModel(Path(lib)), model=ARCHES[arch][1], seed=seed, total=total)


def run_block(index: int):
    """(per-class counts, mismatch count, first mismatches, model seconds)."""
    size = min(BLOCK, _state["total"] - index * BLOCK)
    x, y, z, cls = block_triples(_state["seed"], index, size)
    want = _state["c"](x, y, z)
    t = time.perf_counter()
    got = _state["model"](x, y, z)
    model_s = time.perf_counter() - t
    bad = np.flatnonzero(got != want)
    shown = [(index * BLOCK + int(i), int(cls[i]), int(x[i]), int(y[i]), int(z[i]), int(want[i]), int(got[i]))
             for i in bad[:SHOW]]
    return np.bincount(cls, minlength=len(CLASSES)), bad.size, shown, model_s


# ---------------------------------------------------------------------------

def diff(fma_c: str, arch: str, triples: int, seed: int, jobs: int, out=None) -> int:
    out = out or sys.stdout
    names = list(CLASSES)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="fma-diff-") as tmp:
        lib = build(fma_c, arch, Path(tmp))
        fn = ARCHES[arch][0]
        print(f"fma-diff {arch}: {fn} from {fma_c} against model.fma.fma_{arch}, "
              f"{triples:,} triples, seed {seed}, {jobs} worker(s)", file=out, flush=True)
        blocks = range(-(-triples // BLOCK))
        counts = np.zeros(len(names), dtype=np.int64)
        mismatches, shown, model_s = 0, [], 0.0
        last = start
        init = (str(lib), arch, seed, triples)
        if jobs > 1:
            pool = multiprocessing.get_context("fork").Pool(jobs, _init, init)
            results = pool.imap_unordered(run_block, blocks)
        else:
            pool = None
            _init(*init)
            results = map(run_block, blocks)
        try:
            for c, nbad, first, ms in results:
                counts += c
                mismatches += nbad
                shown.extend(first)
                model_s += ms
                now = time.perf_counter()
                if now - last >= 30:
                    last = now
                    done = int(counts.sum())
                    print(f"  {done:,} triples ({100 * done / triples:.1f} %), {mismatches:,} mismatches, "
                          f"{now - start:.0f} s, {done / (now - start) / 1e6:.2f}M triples/s",
                          file=out, flush=True)
        finally:
            if pool is not None:
                pool.terminate()
                pool.join()
    elapsed = time.perf_counter() - start
    done = int(counts.sum())
    shown.sort()                                   # the first ones by triple number, whichever worker ran them
    for pos, k, x, y, z, want, got in shown[:SHOW]:
        print(f"  MISMATCH x=0x{x:08X} y=0x{y:08X} z=0x{z:08X}: fma.c 0x{want:08X}, "
              f"model 0x{got:08X} ({names[k]}, triple {pos:,})", file=out)
    per_class = ", ".join(f"{name} {n:,}" for name, n in zip(names, counts.tolist()))
    print(f"fma-diff {arch}: {done:,} triples ({per_class}), {mismatches:,} mismatches, "
          f"{elapsed:.1f} s, {done / elapsed / 1e6:.2f}M triples/s overall, "
          f"model fma_{arch} {done / model_s / 1e6:.2f}M triples/s per core",
          file=out, flush=True)
    return 1 if mismatches else 0


def main(argv=None) -> int:
    classes = "\n".join(f"  {k}: {v}" for k, (_, v) in CLASSES.items())
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog="input classes:\n" + classes,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fma-c", default="", help="path to the ISA documentation's Miscellaneous/FMA/fma.c")
    ap.add_argument("--arch", choices=sorted(ARCHES), default="bh")
    ap.add_argument("--triples", type=int, default=10**9)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    if args.triples < 1 or args.jobs < 1 or args.seed < 0:
        ap.error("--triples and --jobs must be positive, --seed non-negative")
    try:
        return diff(args.fma_c, args.arch, args.triples, args.seed, args.jobs)
    except DiffError as e:
        print(f"fma-diff: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("fma-diff: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
