"""The corpus run (`make llk-corpus LLK_SRC=DIR`, `python -m tensix_sfpu.tb.cli.llk_corpus DIR`):
every SFPU entry point of the Wormhole and Blackhole kernel headers under DIR
(TTI_ kernels, and SFPI kernels through the recording SFPI stand-in),
compiled by the front end for its architecture, run on that architecture's model over a tile of inputs, each SFPLOADMACRO kernel compared
bit for bit with its non-macro path (`-D DISABLE_SFPLOADMACRO`) and its
timing explored (`sfpu race`, model.race: `timing_deterministic` and the
smallest schedule that changes its result), each op
with an FP32 row in tt-llk's accuracy budget checked over its domain
(tb/llk/accuracy.py; the budget rows are Wormhole's, so a Blackhole record
sets its max ULP against Wormhole's hardware figure), and with `--rtl BACKEND`
each Wormhole SFPI entry point that ran in lock-step on the RTL. Writes
build/llk-corpus/report.json (one record per entry point) and report.md.

Template arguments, as callers would choose them: a parameter's default where
it has one (a default naming an earlier parameter takes its value); for an
enum the values the header itself names; each bool both ways
(one whose name says fp32, such as `is_fp32_dest_acc_en`, true first even
where its default is false: the corpus runs with Fp32 Dst mode on); ITERATIONS 8, `scale` 1.0, other integers
0. The combinations are tried in that order until one compiles and runs. The
init is the header's init sharing the most of the entry's stem (the one named for
exactly that stem among equals), or one named in INIT_OF. Function arguments are
0, except those ARGUMENTS names. A kernel of a WHOLE_TILE header is called once,
the others once per face. The caller's set-up is Fp32 Dst mode on; an ADDR_MOD
slot the kernel uses without programming it is given as one step of a row
group (dst_incr=2, as tt-llk's binary and ternary callers program ADDR_MOD_6)
and the record says so.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import numpy as np

from tensix_sfpu.model import isa
from tensix_sfpu.model.hazards import rule_class
from tensix_sfpu.model.race import explore, report_to_json
from tensix_sfpu.model.run import run_program
from tensix_sfpu.model.state import SfpuState

from . import accuracy
from .entries import Entry, Function, entries
from .frontend import ARCHES, LlkError, Request, compile_call, cxx_of_message, with_cxx_locations
from .frontend import cxx_of_message as with_cxx_location
from .sources import SourceError, find_tree
from .sweep_facts import dispatch_includes_before

OUT = Path(__file__).resolve().parent.parent.parent / "build" / "llk-corpus"
MAX_CYCLES = 400_000
ENUM_FIRST = {"DataFormat": "DataFormat::Float32", "InstrModLoadStore": "InstrModLoadStore::DEFAULT",
              "PoolType": "PoolType::SUM", "ReduceDim": "ReduceDim::REDUCE_COL", "VectorMode": "VectorMode::RC",
              "DataLayout": "DataLayout::Default", "BroadcastType": "BroadcastType::COL"}


MAX_VARIANTS = 12


def _options(ptype: str, name: str, default: str | None, named: dict[str, list[str]] | None = None) -> list[str]:
    """The values tried for a template parameter, the likeliest first: its default, else for an
    enum the values the header itself names (`named`), else a value by type."""
    base = ptype.replace("const", "").replace("std::", "").strip()
    enum = base.split("::")[-1]
    if base == "bool" and "fp32" in name.lower():
        return ["true", "false"]           # the caller's Fp32 Dst mode, which the corpus sets
    if default:
        others = [v for v in (named or {}).get(enum, []) if v != default]
        return [default] + others       # an enum's other values too: callers do not all take the default
    if base in ("typename", "class"):
        return ["float"]                   # a value type the kernel is instantiated for (threshold's T)
    if base == "bool":
        return ["false", "true"]
    if name.lower() == "iterations":
        return ["8"]
    if name.lower() == "scale":
        return ["0x3F800000"]             # a scale factor given as FP32 bits: 1.0
    if named and named.get(enum):
        first = [ENUM_FIRST[enum]] if enum in ENUM_FIRST and ENUM_FIRST[enum] in named[enum] else []
        return first + [v for v in named[enum] if v not in first]
    for enum, first in ENUM_FIRST.items():
        if enum in base:
            return [first]
    if re.fullmatch(r"(unsigned |signed )?(int|uint|uint\d+_t|int\d+_t|unsigned|size_t|auto)", base):
        return ["0"]
    return [f"static_cast<{base}>(0)"]     # an enum the stand-ins do not name: its first value


def _value(ptype: str, name: str, default: str | None) -> str:
    return _options(ptype, name, default)[0]


_ENUM_VALUE = re.compile(r"\b(SfpuType|DataFormat|InstrModLoadStore|PoolType|ReduceDim|BinaryOp|SortDir|ActivationType)"
                         r"::(\w+)")


def named_values(header: Path) -> dict[str, list[str]]:
    """For each enum, the values the header names, in order of first use."""
    out: dict[str, list[str]] = {}
    for m in _ENUM_VALUE.finditer(header.read_text(errors="replace")):
        value = f"{m.group(1)}::{m.group(2)}"
        if value not in out.setdefault(m.group(1), []):
            out[m.group(1)].append(value)
    return out


def _named_first(entry: str, values: list[str]) -> list[str]:
    """The enum values sharing the most words with the entry's name first (PoolType::MAX for
    calculate_reduce_max_min, SfpuType::unary_ne for _calculate_comp_unary_), else in order."""
    words = set(entry.lower().split("_")) - {""}
    return sorted(values, key=lambda v: -len(set(v.split("::")[-1].lower().split("_")) & words))


def variants(f: Function, named: dict[str, list[str]] | None = None,
             init: Function | None = None) -> list[dict[str, str]]:
    """Template argument sets for `f` (and the parameters of its `init` that `f` does not have):
    the first option of each parameter, then every combination of the options, the first ones
    first, at most MAX_VARIANTS."""
    params = list(f.template) + [p for p in (init.template if init else []) if p.name not in
                                 {q.name for q in f.template}]
    options = [(p.name, _named_first(f.name, _options(p.type, p.name, p.default, named))) for p in params]
    out: list[dict[str, str]] = [{}]
    for name, opts in options:
        out = [{**chosen, name: value} for value in opts for chosen in out]
    out.sort(key=lambda chosen: sum(dict(options)[n].index(v) for n, v in chosen.items()))
    return out[:MAX_VARIANTS]


def call_expr(f: Function, chosen: dict[str, str] | None = None) -> str:
    """`f` called with template arguments (`chosen` by name, where given; a default naming an
    earlier parameter takes that parameter's value) and its function arguments."""
    chosen = dict(chosen or {})
    values = []
    for p in f.template:
        value = chosen.get(p.name, _value(p.type, p.name, p.default))
        value = chosen.get(value, value)
        chosen.setdefault(p.name, value)
        values.append(value)
    targs = ", ".join(values)
    # A parameter of a template parameter's type (`T threshold`) takes that type's chosen value.
    args = ", ".join(ARGUMENTS.get(p.name, _value(chosen.get(p.type, p.type), p.name, None))
                     for p in f.params if not p.default)
    return f"{f.name}{'<' + targs + '>' if f.template else ''}({args})"


def sfpu_headers(tree) -> list[Path]:
    """Every SFPU kernel header of the tree: TTI_ kernels and SFPI kernels alike."""
    return [h for d in tree.kernel_dirs for h in sorted(d.glob("ckernel_sfpu_*.h"))]


def _inputs() -> np.ndarray:
    rng = np.random.default_rng(0x11C)
    return rng.uniform(-4.0, 4.0, 1024).astype(np.float32)


def _state_with(x: np.ndarray, arch) -> SfpuState:
    """A state of `arch` with the tile of inputs in Dst."""
    from tensix_sfpu.model.dst_io import put_tile_bits32
    state = SfpuState(arch=arch)
    put_tile_bits32(state, x.view(np.uint32))
    return state


def _run(listing, x: np.ndarray):
    state = _state_with(x, listing.program.arch)
    return run_program(listing.program, state, strict=False, keep_trace=False, max_cycles=MAX_CYCLES)


# Function arguments other than 0, by parameter name: the top-k merge compares nothing with k = 0
# and so never finishes (tt-llk's test helpers call it with m_iter 5, k 10); reshuffle_rows reads
# its row mask from the L1 address it is given (the stand-in's llk_l1, all rows to row 0), and
# Blackhole's triangle solve its matrix (zero there).
# Block sizes are one tile (num_cols counts tiles, as init_reduce passes block_ct_dim): 0 would run
# no rows, or wrap round (block_height - 1).
ARGUMENTS = {"m_iter": "5", "k": "10", "idx_addr": "llk_l1_address()", "block_height": "1", "num_cols": "1",
             "block_ct_dim": "1", "block_rt_dim": "1", "l1_base": "llk_l1_address()"}


# Headers whose kernels walk all four faces of a tile themselves, by Dst address: their callers
# run them once (as the kernels of kernels/ do: vector mode "none"), not once per face.
WHOLE_TILE = {"ckernel_sfpu_reduce.h", "ckernel_sfpu_reduce_custom.h", "ckernel_sfpu_topk.h",
              "ckernel_sfpu_reshuffle_rows.h"}


# Inits the name rule (the one sharing the entry's stem) does not find.
INIT_OF = {"calculate_acosh": "init_inverse_hyperbolic", "calculate_asinh": "init_inverse_hyperbolic"}


def _init(entry: Entry):
    wanted = INIT_OF.get(entry.function.name)
    for f in entry.inits:
        if f.name == wanted:
            return f
    return entry.inits[0] if entry.inits else None


def _compile(entry: Entry, tree, chosen: dict[str, str], defines=(), *, arch: str) -> tuple[object, str]:
    init_function = _init(entry)
    init = call_expr(init_function, chosen) if init_function else None
    setup: tuple[str, ...] = ()
    note = ""
    for _ in range(3):
        request = Request(entry.header, call_expr(entry.function, chosen), init, arch=arch, defines=defines,
                          fp32_dest=1, srcb_format=None, setup=setup,
                          vector_mode="none" if entry.header.name in WHOLE_TILE else "rc", tree=tree,
                          preincludes=dispatch_includes_before(tree, entry.header, arch))
        try:
            return compile_call(request, entry.header.name), note
        except LlkError as e:
            m = re.search(r"\(slot (\d)", str(e))
            if m is None or "ADDR_MOD" not in str(e):
                raise
            setup += (f".addr_mod {m.group(1)} dst_incr=2",)
            note = f"caller set-up given: {', '.join(setup)}"
    raise LlkError("ADDR_MOD set-up still missing")


def _depends_on_arguments(error: str) -> bool:
    """Whether a compile error may go away with other template arguments."""
    # (an undefined reference: a template specialised for some enum values only)
    return any(s in error for s in ("static assertion", "--call", "no matching function", "required from",
                                    "undefined reference"))


def _check_accuracy(record: dict, entry: Entry, listing, chosen: dict[str, str], helpers) -> list[str]:
    """The entry's max ULP over its op's domain against the budget row's (fills the record)."""
    from tensix_sfpu.model.dst_io import get_tile_fp32
    if helpers is None or isinstance(helpers, str):
        return [f"accuracy not checked: {helpers or 'no test helpers'}"]
    op = accuracy.OPS[entry.name][0]
    approx = {"true": True, "false": False}.get(chosen.get("APPROXIMATION_MODE", chosen.get("APPROX", "")))
    row = accuracy.budget_row(helpers, op, approx)
    low, high = accuracy.domain(helpers, op, approx)
    x = accuracy.inputs(low, high)
    try:
        got = get_tile_fp32(_run(listing, x).state)
    except Exception as e:     # a stop on these inputs is the finding
        return [f"accuracy run stopped: {e}"]
    distance = accuracy.ulp_distance(accuracy.reference(entry.name, x), got)
    record["max_ulp"] = int(distance.max())
    notes = [f"{op}, FP32, 32-bit Dst{'' if approx is None else ', approx ' + str(approx).lower()}, "
             f"x in [{low:g}, {high:g}]: 1024 points"]
    if (distance < 0).any():
        notes.append(f"{int((distance < 0).sum())} NaN results or references")
    if row is None:
        notes.append("no budget row for FP32")
        return notes
    record["hw_max_ulp"] = row.hw_max_ulp
    if row.max_ulp is not None:
        record["checked"] = bool(record["max_ulp"] <= row.max_ulp and not (distance < 0).any())
        notes.append(f"budget {row.max_ulp} ULP")
    return notes


def rtl_lockstep(records: list[dict], kept: dict[int, tuple[str, np.ndarray]], backend: str, out: Path) -> None:
    """Each Wormhole SFPI entry point that ran, in lock-step on the RTL: its
    listing and the Dst it ran on written under `out`/rtl and run as
    `file:LISTING@DST` (`sfpu sim`); the record says whether the RTL and the
    model agreed on every cycle."""
    from tensix_sfpu.tb.sims import runner
    folder = out / "rtl"
    folder.mkdir(parents=True, exist_ok=True)
    for index, (text, dst) in kept.items():
        r = records[index]
        stem = f"{Path(r['header']).stem}.{r['entry']}"
        listing, dst_file = folder / f"{stem}.s", folder / f"{stem}.dst.npy"
        listing.write_text(text)
        np.save(dst_file, dst)
        try:
            outcomes = runner.run(backend, ["lockstep"], {"SFPU_PROGRAMS": f"file:{listing}@{dst_file}"},
                                  arch=isa.Arch(r["arch"]))
        except runner.RunnerError as e:
            r["rtl"], r["rtl_note"] = False, str(e)
            continue
        r["rtl"] = bool(outcomes) and all(o.passed for o in outcomes)
        r["rtl_note"] = "; ".join(o.message for o in outcomes if o.message)[:400]
        print(f"rtl {backend} {stem}: {'PASS' if r['rtl'] else 'FAIL'}", file=sys.stderr)


def _race(record: dict, listing, x: np.ndarray) -> list[str]:
    """`sfpu race` on the entry point: whether its result depends on timing, and the smallest schedule that changes it."""
    started = time.perf_counter()
    try:
        report = explore(listing.program, _state_with(x, listing.program.arch), seeds=RACE_SEEDS)
    except Exception as e:     # the model's own stop is the finding
        return [f"race: stopped: {e}"]
    seconds = time.perf_counter() - started
    record["timing_deterministic"] = report.deterministic
    summary = report_to_json(report)
    record["race"] = {"seconds": round(seconds, 2), "schedules_run": report.schedules_run,
                      "divergent_schedules": report.divergent_schedules,
                      "divergent_rules": report.divergent_rules,
                      "smallest": summary["divergences"][0] if summary["divergences"] else None}
    if report.deterministic:
        return []
    return [f"timing-dependent: {report.divergent_schedules} of {report.schedules_run} schedules change Dst or LRegs"]


RACE_SEEDS = 8


def run_entry(entry: Entry, tree, header_name: str, helpers=None, *, arch: str,
              keep: list | None = None, race: bool = True) -> dict:
    record = {"arch": arch, "header": header_name, "entry": entry.name, "call": None, "init": None,
              "frontend": None,
              "issues_tti": entry.function.issues_tti, "compiled": False, "ran": False, "checked": None,
              "max_ulp": None, "hw_max_ulp": None,
              "macro_equals_fallback": None, "timing_deterministic": None, "race": None, "reason": ""}
    x = _inputs()
    first_error = None
    result = None
    init = _init(entry)
    for attempt, chosen in enumerate(variants(entry.function, named_values(entry.header), init)):
        try:
            listing, note = _compile(entry, tree, chosen, arch=arch)
        except LlkError as e:
            first_error = first_error or str(e)
            compiled_elsewhere = "C++ compile error" not in str(e)
            record["compiled"] = record["compiled"] or compiled_elsewhere
            if attempt == 0 and not compiled_elsewhere and not _depends_on_arguments(str(e)):
                break            # the header itself does not compile: no template argument changes that
            if "without finishing" in str(e):
                break            # a loop bounded by a runtime argument the corpus cannot choose
            continue
        record.update(compiled=True, frontend=listing.frontend, call=listing.request.call, init=listing.request.init)
        try:
            result = _run(listing, x)
        except Exception as e:   # the model's own stop (undefined behaviour, a runaway) is the finding
            first_error = first_error or f"{listing.request.call}: run stopped: {e}"
            continue
        break
    if result is None:
        record["reason"] = first_error or "no template arguments to try"
        if " SFPI " in f" {record['reason']}" or ": SFPI " in record["reason"]:
            record["frontend"] = "sfpi"      # SFPI code ran, which the TTI_ front end stops at
        return record
    reasons = [note] if note else []
    record["ran"] = True
    if keep is not None:
        keep.append((listing.text, _state_with(x, listing.program.arch).dst))
    if entry.name in accuracy.OPS:
        reasons += _check_accuracy(record, entry, listing, chosen, helpers)
    record["findings"] = findings(result, listing)
    timing = [h for h in result.hazards if rule_class(h.rule) not in FINDING_CLASSES]
    if timing:
        reasons.append(f"{len(timing)} hazards reported ({timing[0].rule} first)")
    uses_macro = any(isa.is_mnemonic(w, "SFPLOADMACRO", listing.program.arch) for w in listing.program.words)
    if uses_macro and race:
        reasons += _race(record, listing, x)
    if uses_macro:
        try:
            fallback, _ = _compile(entry, tree, chosen, ("DISABLE_SFPLOADMACRO",), arch=arch)
            other = _run(fallback, x)
            record["macro_equals_fallback"] = bool(np.array_equal(result.state.dst, other.state.dst))
            if not record["macro_equals_fallback"]:
                differ = int(np.count_nonzero(result.state.dst != other.state.dst))
                reasons.append(f"macro and fallback Dst differ in {differ} of {result.state.dst.size} 16-bit cells")
                if other.hazards:
                    h = other.hazards[0]
                    reasons.append(f"the fallback breaks a timing rule {len(other.hazards)} times, first: "
                                   f"{with_cxx_location(str(h), fallback)}")
        except Exception as e:   # a fallback that does not compile or run is reported, not fatal
            reasons.append(f"fallback: {e}")
    record["reason"] = "; ".join(reasons)
    return record


# The warnings about what a kernel does besides timing, which the corpus lists per entry point (docs/llk.md).
FINDING_CLASSES = ("silent-effect", "state-contract")


def findings(result, listing) -> list[dict]:
    """The silent-effect and state-contract warnings of a run, one per rule and C++ line."""
    by_line: dict[tuple[str, str], dict] = {}
    for h in result.hazards:
        if rule_class(h.rule) in FINDING_CLASSES:
            where = cxx_of_message(str(h), listing).split(": ", 1)[0]
            found = by_line.setdefault((h.rule, where), {"rule": h.rule, "class": rule_class(h.rule), "count": 0,
                                                         "where": where, "message": with_cxx_locations(h.message)})
            found["count"] += 1
    return list(by_line.values())


def findings_table(records: list[dict]) -> list[str]:
    """Per architecture and rule: the findings and the entry points they come from."""
    lines = ["| arch | rule | class | findings | entry points |", "|---|---|---|---|---|"]
    for arch in ARCHES:
        by_rule: dict[str, list[str]] = {}
        for r in records:
            if r["arch"] == arch:
                for f in r.get("findings") or ():
                    by_rule.setdefault(f["rule"], []).append(r["entry"])
        for rule, entries in sorted(by_rule.items()):
            lines.append(f"| {arch} | {rule} | {rule_class(rule)} | {len(entries)} | {len(set(entries))} |")
    return lines


def run_corpus(src: str, out: Path = OUT, only: str | None = None, rtl: str | None = None,
               rtl_limit: int | None = None, shard: tuple[int, int] = (0, 1), race: bool = True) -> list[dict]:
    tree = find_tree(src, isa.DEFAULT_ARCH.value)
    try:
        helpers = accuracy.load_helpers(tree.helpers) if tree.helpers else "no tests/python_tests/helpers in the tree"
    except accuracy.HelpersError as e:
        helpers = str(e)
    if not isinstance(helpers, str) and helpers.note:
        print(f"llk-corpus: {helpers.note}", file=sys.stderr)
    records = []
    kept: dict[int, tuple[str, np.ndarray]] = {}
    trees = {}
    for arch in isa.Arch:           # the default architecture's tree is required, the others' where src has them
        try:
            trees[arch.value] = tree if arch is isa.DEFAULT_ARCH else find_tree(src, arch.value)
        except SourceError:
            trees[arch.value] = None
    position = -1
    for arch, arch_tree in trees.items():
        if arch_tree is None:
            continue
        for header in sfpu_headers(arch_tree):
            name = str(header.relative_to(arch_tree.root))
            for entry in entries(header):
                if only and only not in entry.name:
                    continue
                position += 1
                if position % shard[1] != shard[0]:
                    continue
                keep: list = []
                wanted = rtl is not None and arch == isa.DEFAULT_ARCH.value and (rtl_limit is None or len(kept) < rtl_limit)
                records.append(run_entry(entry, arch_tree, name, helpers, arch=arch, keep=keep if wanted else None,
                                         race=race))
                r = records[-1]
                if keep and r["frontend"] == "sfpi":
                    kept[len(records) - 1] = keep[0]
                print(f"{arch} {name} {entry.name}: compiled={r['compiled']} ran={r['ran']} "
                      f"macro=fallback:{r['macro_equals_fallback']} deterministic:{r['timing_deterministic']}",
                      file=sys.stderr)
    out.mkdir(parents=True, exist_ok=True)
    if rtl is not None:
        rtl_lockstep(records, kept, rtl, out)
    (out / "report.json").write_text(json.dumps(records, indent=1))
    (out / "report.md").write_text(report_md(records))
    return records


def summary(records: list[dict]) -> str:
    return " ".join(_arch_summary(records, arch) for arch in ARCHES
                    if any(r["arch"] == arch for r in records))


def _arch_summary(records: list[dict], arch: str) -> str:
    mine = [r for r in records if r["arch"] == arch]
    own = [r for r in mine if r.get("issues_tti")]
    own_ran = sum(r["ran"] for r in own)
    headers = {r["header"] for r in mine}
    compiled = sum(r["compiled"] for r in mine)
    ran = sum(r["ran"] for r in mine)
    macro = [r for r in mine if r["macro_equals_fallback"] is not None]
    equal = sum(r["macro_equals_fallback"] for r in macro)
    tti = sum(r["frontend"] == "tti" for r in mine)
    raced = [r for r in mine if r.get("timing_deterministic") is not None]
    race_seconds = sum((r.get("race") or {}).get("seconds", 0) for r in raced)
    dependent = [r["entry"] for r in raced if not r["timing_deterministic"]]
    checked = [r for r in mine if r["checked"] is not None]
    pct = 100 * ran / len(mine) if mine else 0
    budget = ("" if arch == accuracy.MEASURED_ON else
              f" (the budget's figures were measured on {accuracy.MEASURED_ON.capitalize()} hardware)")
    sfpi = [r for r in mine if r["frontend"] == "sfpi"]
    rtl = [r for r in mine if r.get("rtl") is not None]
    rtl_text = (f" {sum(r['rtl'] for r in rtl)} of {len(rtl)} SFPI entry points run in lock-step on the RTL with no "
                f"mismatch." if rtl else "")
    return (f"{arch.capitalize()}: {len(headers)} SFPU headers, {len(mine)} entry points; {compiled} compile, {ran} run "
            f"({pct:.0f}%), {tti} purely from TTI_ macros, {len(sfpi)} through the SFPI stand-in "
            f"({sum(r['ran'] for r in sfpi)} of them run).{rtl_text} Of the {len(own)} entry points whose own body issues "
            f"TTI_/TT_ macros, {sum(r['compiled'] for r in own)} compile and {own_ran} run "
            f"({100 * own_ran / len(own) if own else 0:.0f}%); the others' own code is SFPI. "
            f"{len(macro)} use SFPLOADMACRO, {equal} of them leave "
            f"Dst bit-identical to their -D DISABLE_SFPLOADMACRO path; {len(raced)} had their timing explored, "
            f"{len(raced) - len(dependent)} deterministic ({race_seconds:.0f} s of exploration)"
            f"{' (timing-dependent: ' + ', '.join(dependent) + ')' if dependent else ''}; {len(checked)} checked against tt-llk's "
            f"accuracy budget{budget}, {sum(r['checked'] for r in checked)} within it.")


def report_md(records: list[dict]) -> str:
    lines = ["# LLK corpus run", "", summary(records), "", "## Silent effects and the state contract", "",
             *findings_table(records), ""]
    for r in records:
        for f in r.get("findings") or ():
            lines.append(f"- {r['arch']} {r['entry']}: `{f['rule']}` x{f['count']} at {f['where']}: "
                         f"{f['message'][:300]}")
    lines += ["", "## Entry points", "",
             "| arch | header | entry | front end | compiled | ran | within budget | max ULP (ours / hardware) "
             "| macro = fallback | timing | RTL lock-step | reason |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in records:
        reason = r["reason"].replace("|", "\\|")[:240]
        lines.append(f"| {r['arch']} | {Path(r['header']).name} | {r['entry']} | {r['frontend'] or ''} | "
                     f"{'yes' if r['compiled'] else 'no'} | {'yes' if r['ran'] else 'no'} | "
                     f"{'' if r['checked'] is None else ('yes' if r['checked'] else 'NO')} | "
                     f"{'' if r['max_ulp'] is None else r['max_ulp']} / "
                     f"{'' if r['hw_max_ulp'] is None else r['hw_max_ulp']} | "
                     f"{'' if r['macro_equals_fallback'] is None else ('yes' if r['macro_equals_fallback'] else 'NO')}"
                     f" | {_timing(r)}"
                     f" | {'' if r.get('rtl') is None else ('pass' if r['rtl'] else 'FAIL')} | {reason} |")
    return "\n".join(lines) + "\n"


def _timing(record: dict) -> str:
    verdict = record.get("timing_deterministic")
    return "" if verdict is None else "deterministic" if verdict else "DEPENDENT"


def merge(reports: list[str], out: Path) -> list[dict]:
    """Shards' report.json files as one report (report.json and report.md under `out`)."""
    records = []
    for path in reports:
        try:
            records += json.loads(Path(path).read_text())
        except (OSError, ValueError) as e:
            raise SourceError(f"--merge {path}: not a corpus report.json ({e})") from None
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(json.dumps(records, indent=1))
    (out / "report.md").write_text(report_md(records))
    return records
