"""Functional coverage, collected on the model side of a lock-step run.

`Coverage.sample(model, record)` is called after every `CycleModel.step()`;
it reads the cycle's record and the model's public state and counts hits in
fixed bins, so that reports from different runs line up and can be merged.
`finish(model)` picks up what a run reports outside any step (a
`macro-left-pending` found while draining).

Bins the ISA leaves undefined, or that no program can reach, are not dropped:
they are listed as excluded with the reason, so a report always shows the
whole space and why part of it is not expected to be hit.

Groups:
- instruction x modifier: every opcode executed from the thread, by the value
  of its modifier field (as `tb.stimulus.directed.MODIFIER` names it);
- lane flags: LaneFlags none / some / all set, with UseLaneFlagsForLaneEnable
  off / on, at the end of each cycle;
- flag stack depth 0..8 at the end of each cycle;
- SFPLOAD / SFPSTORE formats by Mod0 (SRCB split by what it resolves to);
  SFPLOADMACRO's load and macro-scheduled stores count as well;
- macro scheduling: sub-unit x delay x delay kind, when SFPLOADMACRO schedules;
- events: each cause of a stall (the interlock after each instruction that
  has one: SFPSWAP on Wormhole, also SFPSHFT2 on Blackhole; with
  `Features.mad_stall`, a read of each MAD-class instruction's result in
  flight), and a thread instruction
  discarded because a due macro instruction claims its sub-unit (per sub-unit);
- hazard rules reported (break programs), Blackhole's stall-logic gaps among
  them;
- mode fields: every value of each mode field that is not an instruction's
  modifier (the AddrMod of SFPLOAD, SFPSTORE and SFPLOADMACRO, 2 bits on
  Wormhole and 3 on Blackhole; SFPSTOCHRND's use_imm5 and its rounding mode,
  Wormhole's 1-bit stochastic or Blackhole's 2-bit rnd_mode; SFPLOADMACRO's macro).

The bins come from the architecture's ISA table (`Coverage(arch)`).
"""

from __future__ import annotations

import json

from tensix_sfpu.model import isa, tensix
from tensix_sfpu.model.cycle import MACRO_UNITS, CycleModel
from tensix_sfpu.model.dst_format import resolve_srcb
from tensix_sfpu.model.isa import Mod0Fmt
from tensix_sfpu.model.hazards import CONTRACT_RULES, FIELD_RULES, RULES, SILENT_RULES, STALL_GAP_RULES, interlocks_next, stalls_after_mad
from tensix_sfpu.model.state import FLAG_STACK_DEPTH, LANES
from tensix_sfpu.model.trace import CycleRecord, lane_mask
from tensix_sfpu.tb.stimulus.directed import MODIFIERS, modifier_field
from tensix_sfpu.model.run import run_program
from tensix_sfpu.tb.stimulus.generator import undefined_modifiers

ALL_LANES = (1 << LANES) - 1
DELAY_KINDS = ("cycles", "instructions")
_MACRO_UNIT_NAMES = tuple(u.value for u in MACRO_UNITS)


def _instruction_bins(arch: isa.Arch) -> tuple[list[str], dict[str, str]]:
    bins, excluded = [], {}
    undefined = undefined_modifiers(arch)
    for mnemonic, op in isa.ISA[arch].opcodes.items():
        field = MODIFIERS[arch][mnemonic]
        if field is None:
            bins.append(mnemonic)
            continue
        for value in range(1 << op.field_map[field].width):
            name = f"{mnemonic} {field}={value}"
            reason = undefined.get(mnemonic, {}).get(value)
            if reason is not None:
                excluded[name] = reason
            else:
                bins.append(name)
    return bins, excluded


def _rule_bins(arch: isa.Arch) -> tuple[list[str], dict[str, str]]:
    """Every documented hazard rule; without `Features.mad_stall` the
    stall-logic gaps are excluded, and the field-report rules everywhere (the
    random programs keep to the documented rules; directed tests break those)."""
    excluded = {} if arch.features.mad_stall else {
        rule: "a hole in the MAD stall logic (Features.mad_stall), which this architecture does not have" for rule in RULES
        if rule in STALL_GAP_RULES}
    excluded.update({rule: "a field-report rule, broken by directed tests, not by random programs"
                     for rule in FIELD_RULES})
    excluded.update({rule: "a silent-effect rule, broken by directed tests, not aimed at by random programs"
                     for rule in SILENT_RULES})
    excluded.update({rule: "the state contract between ops, which needs a chain's directives" for rule in CONTRACT_RULES})
    return [rule for rule in RULES if rule not in excluded], excluded


# Mode fields that only restate another (SFPLUTFP32's mirror of Mod1) are not binned.
_NOT_MODES = frozenset({"mod1_mirror"})


def _mode_fields(op: isa.Opcode) -> list[isa.Field]:
    """`op`'s mode fields other than its modifier."""
    return [f for f in op.fields
            if f.kind is isa.Kind.MOD and f.name != modifier_field(op) and f.name not in _NOT_MODES]


def _mode_bins(arch: isa.Arch) -> tuple[list[str], dict[str, str]]:
    bins, excluded = [], {}
    for mnemonic, op in isa.ISA[arch].opcodes.items():
        for f in _mode_fields(op):
            for value in range(1 << f.width):
                name = f"{mnemonic} {f.name}={value}"
                if op.is_defined(f.name, value):
                    bins.append(name)
                else:
                    excluded[name] = f"{mnemonic} {f.name}={value} is undefined"
    return bins, excluded


def _interlocking(arch: isa.Arch) -> list[str]:
    """Instructions after which only SFPNOP may be issued (in some mode)."""
    out = []
    for op in isa.ISA[arch].table:
        modes = [{"mod1": m} for m in sorted(op.two_cycle_mod1)] or [{}]
        if any(interlocks_next(isa.decode(isa.encode(op.mnemonic, arch, **mode), arch)) for mode in modes):
            out.append(op.mnemonic)
    return out


def _stall_bins(arch: isa.Arch) -> list[str]:
    """The stall causes: each interlock, and each MAD-class result read in flight (none without
    `Features.mad_stall`)."""
    mad_class = [op.mnemonic for op in isa.ISA[arch].table
                 if stalls_after_mad(isa.decode(isa.encode(op.mnemonic, arch), arch))]
    return ([f"stall: only SFPNOP after {mn}" for mn in _interlocking(arch)]
            + [f"stall: reads a result of {mn} in flight" for mn in mad_class])


def _format_bins() -> list[str]:
    names = [f"{int(f)} {f.name}" for f in Mod0Fmt if f != Mod0Fmt.SRCB]
    return names + [f"0 SRCB as {f.name}" for f in (Mod0Fmt.FP16, Mod0Fmt.BF16, Mod0Fmt.FP32)]


def _format_bin(mod0: int, fp32_dest: bool, srcb_format: int) -> str:
    if mod0 == Mod0Fmt.SRCB:
        return f"0 SRCB as {resolve_srcb(fp32_dest, srcb_format).name}"
    return f"{mod0} {Mod0Fmt(mod0).name}"


def _layout(arch: isa.Arch) -> dict[str, tuple[list[str], dict[str, str]]]:
    instr, instr_excluded = _instruction_bins(arch)
    flags = [f"use_flags={u}, lane_flags={p}" for u in ("off", "on") for p in ("none", "some", "all")]
    macro = [f"{unit} delay={d} {kind}" for unit in _MACRO_UNIT_NAMES for d in range(8) for kind in DELAY_KINDS]
    return {
        "instruction x modifier": (instr, instr_excluded),
        "lane flags": (flags, {}),
        "flag stack depth": ([str(d) for d in range(FLAG_STACK_DEPTH + 1)], {}),
        "SFPLOAD format": (_format_bins(), {}),
        "SFPSTORE format": (_format_bins(), {}),
        "macro sub-unit x delay x kind": (macro, {}),
        "events": (_stall_bins(arch) + [f"discarded on {u}" for u in _MACRO_UNIT_NAMES], {}),
        "hazard rules": _rule_bins(arch),
        "mode fields": _mode_bins(arch),
    }


LAYOUTS = {arch: _layout(arch) for arch in isa.architectures()}
LAYOUT = LAYOUTS[isa.DEFAULT_ARCH]     # a program's architecture without an .arch line


class Coverage:
    """Hit counts per group and bin of `arch`'s layout; excluded bins carry their reason."""

    def __init__(self, arch: isa.Arch):
        self.arch = arch
        layout = LAYOUTS[arch]
        self.hits: dict[str, dict[str, int]] = {g: dict.fromkeys(bins, 0) for g, (bins, _) in layout.items()}
        self.excluded: dict[str, dict[str, str]] = {g: dict(ex) for g, (_, ex) in layout.items()}
        self._issued: isa.Instruction | None = None     # the thread's last accepted instruction (stall causes)

    def _hit(self, group: str, name: str) -> None:
        bins = self.hits[group]
        if name in bins:
            bins[name] += 1
        elif name not in self.excluded[group]:
            raise KeyError(f"coverage group {group!r} has no bin {name!r}")

    # -- sampling -------------------------------------------------------------

    def sample(self, model: CycleModel, record: CycleRecord) -> None:
        """Count what `record` (the cycle `model` just ran) shows."""
        state = model.state
        if state.arch is not self.arch:
            raise ValueError(f"a {self.arch.value} coverage cannot sample a {state.arch.value} run")
        t = state.tensix
        for activity in record.units.values():
            ins = isa.decode(activity.word, self.arch)
            if activity.origin == "thread":
                field = MODIFIERS[self.arch][ins.mnemonic]
                self._hit("instruction x modifier",
                          ins.mnemonic if field is None else f"{ins.mnemonic} {field}={ins[field]}")
                for f in _mode_fields(ins.op):
                    self._hit("mode fields", f"{ins.mnemonic} {f.name}={ins[f.name]}")
            if ins.mnemonic in ("SFPLOAD", "SFPLOADMACRO"):
                self._hit("SFPLOAD format", _format_bin(ins["mod0"], t.fp32_dest, t.srcb_format))
            elif ins.mnemonic == "SFPSTORE":
                self._hit("SFPSTORE format", _format_bin(ins["mod0"], t.fp32_dest, t.srcb_format))

        flags, use = lane_mask(state.lane_flags), lane_mask(state.use_flags)
        pattern = "none" if flags == 0 else "all" if flags == ALL_LANES else "some"
        self._hit("lane flags", f"use_flags={'on' if use else 'off'}, lane_flags={pattern}")
        self._hit("flag stack depth", str(len(state.flag_stack)))

        # An SFPLOADMACRO accepted this cycle has just scheduled its instructions,
        # each with its counter still at the sequence's delay.
        for p in model.pending:
            if p.macro_cycle == record.cycle:
                self._hit("macro sub-unit x delay x kind",
                          f"{p.unit.value} delay={p.counter} {DELAY_KINDS[p.by_instructions]}")

        if record.stalled is not None:
            self._hit("events", self._stall_bin())
        if record.issued is not None:
            self._issued = None if tensix.is_issued(record.issued) else isa.decode(record.issued, self.arch)
        for h in record.hazards:
            if h.rule == "discarded":
                self._hit("events", f"discarded on {h.unit}")
            self._hit("hazard rules", h.rule)

    def _stall_bin(self) -> str:
        """The stall's cause, from the instruction the thread issued last: a
        stall lasts one cycle after it, and nothing is issued in between."""
        producer = self._issued
        assert producer is not None, "a stall with no instruction issued before it"
        if interlocks_next(producer):
            return f"stall: only SFPNOP after {producer.mnemonic}"
        return f"stall: reads a result of {producer.mnemonic} in flight"

    def finish(self, model: CycleModel) -> None:
        """Count hazards reported after the last step (only `drain` reports
        `macro-left-pending`, and it does so outside any step)."""
        for h in model.hazards:
            if h.rule == "macro-left-pending":
                self._hit("hazard rules", h.rule)

    # -- combining and saving ---------------------------------------------------

    def merge(self, other: "Coverage") -> "Coverage":
        """Add `other`'s counts to this one (in place); returns self."""
        if other.arch is not self.arch:
            raise ValueError(f"cannot merge {other.arch.value} coverage into {self.arch.value} coverage")
        for group, bins in other.hits.items():
            for name, count in bins.items():
                self.hits[group][name] = self.hits[group].get(name, 0) + count
        return self

    def to_json(self) -> dict:
        # The default architecture's report keeps the form it had before there were two: no "arch" key.
        arch = {} if self.arch is isa.DEFAULT_ARCH else {"arch": self.arch.value}
        return {**arch, "hits": self.hits, "excluded": self.excluded}

    @classmethod
    def from_json(cls, data: dict | str) -> "Coverage":
        if isinstance(data, str):
            data = json.loads(data)
        cov = cls(isa.Arch.parse(data.get("arch", isa.DEFAULT_ARCH.value)))     # regress leaves the default's out
        for group, bins in data["hits"].items():
            for name, count in bins.items():
                cov.hits.setdefault(group, {})[name] = int(count)
        for group, bins in data.get("excluded", {}).items():
            cov.excluded.setdefault(group, {}).update(bins)
        return cov

    # -- reports ------------------------------------------------------------------

    def group_summary(self, group: str) -> tuple[int, int]:
        bins = self.hits[group]
        return sum(1 for c in bins.values() if c), len(bins)

    def unhit(self, group: str) -> list[str]:
        return [name for name, count in self.hits[group].items() if not count]

    def summary(self) -> str:
        width = max(len(g) for g in self.hits)
        lines = [f"{'group':<{width}}  {'hit':>5} / {'total':<5}  {'%':>6}  excluded"]
        total_hit = total = 0
        for group in self.hits:
            hit, n = self.group_summary(group)
            total_hit, total = total_hit + hit, total + n
            lines.append(f"{group:<{width}}  {hit:>5} / {n:<5}  {100 * hit / n:>5.1f}%  {len(self.excluded[group])}")
        lines.append(f"{'total':<{width}}  {total_hit:>5} / {total:<5}  {100 * total_hit / total:>5.1f}%")
        return "\n".join(lines)

    def report_markdown(self) -> str:
        title = "# Functional coverage" + ("" if self.arch is isa.DEFAULT_ARCH else f", {self.arch.title}")
        out = [title, "", "| group | hit | total | % |", "|---|---:|---:|---:|"]
        for group in self.hits:
            hit, n = self.group_summary(group)
            out.append(f"| {group} | {hit} | {n} | {100 * hit / n:.1f} |")
        for group in self.hits:
            out += ["", f"## {group}", ""]
            missing = self.unhit(group)
            out.append("Unhit bins: " + (", ".join(f"`{m}`" for m in missing) if missing else "none") + ".")
            if self.excluded[group]:
                out += ["", "Excluded bins:", ""]
                out += [f"- `{name}`: {reason}" for name, reason in self.excluded[group].items()]
        return "\n".join(out) + "\n"


def collect(program, strict: bool = True, coverage: Coverage | None = None) -> Coverage:
    """Run `program` on the model (as the lock-step bench steps it) and sample every cycle."""
    cov = coverage if coverage is not None else Coverage(program.arch)
    model = run_program(program, strict=strict, on_cycle=cov.sample)
    cov.finish(model)
    return cov


__all__ = ["Coverage", "LAYOUT", "LAYOUTS", "DELAY_KINDS", "collect"]
