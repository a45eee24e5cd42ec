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
  of its modifier field (as `tb.directed.MODIFIER` names it);
- lane flags: LaneFlags none / some / all set, with UseLaneFlagsForLaneEnable
  off / on, at the end of each cycle;
- flag stack depth 0..8 at the end of each cycle;
- SFPLOAD / SFPSTORE formats by Mod0 (SRCB split by what it resolves to);
  SFPLOADMACRO's load and macro-scheduled stores count as well;
- macro scheduling: sub-unit x delay x delay kind, when SFPLOADMACRO schedules;
- events: the SFPSWAP interlock stall, and a thread instruction discarded
  because a due macro instruction claims its sub-unit (per sub-unit);
- hazard rules reported (break programs).
"""

from __future__ import annotations

import json

from model import isa
from model.cycle import MACRO_UNITS, CycleModel
from model.dst_format import Mod0Fmt, resolve_srcb
from model.hazards import RULES
from model.state import FLAG_STACK_DEPTH, LANES
from model.trace import CycleRecord, lane_mask
from tb.directed import MODIFIER
from model.run import run_program
from tb.generator import UNDEFINED_MODIFIERS

ALL_LANES = (1 << LANES) - 1
DELAY_KINDS = ("cycles", "instructions")
_MACRO_UNIT_NAMES = tuple(u.value for u in MACRO_UNITS)


def _instruction_bins() -> tuple[list[str], dict[str, str]]:
    bins, excluded = [], {}
    for mnemonic, op in isa.OPCODES.items():
        field = MODIFIER[mnemonic]
        if field is None:
            bins.append(mnemonic)
            continue
        for value in range(1 << op.field_map[field].width):
            name = f"{mnemonic} {field}={value}"
            reason = UNDEFINED_MODIFIERS.get(mnemonic, {}).get(value)
            if reason is not None:
                excluded[name] = reason
            else:
                bins.append(name)
    return bins, excluded


def _format_bins() -> list[str]:
    names = [f"{int(f)} {f.name}" for f in Mod0Fmt if f != Mod0Fmt.SRCB]
    return names + [f"0 SRCB as {f.name}" for f in (Mod0Fmt.FP16, Mod0Fmt.BF16, Mod0Fmt.FP32)]


def _format_bin(mod0: int, fp32_dest: bool, srcb_format: int) -> str:
    if mod0 == Mod0Fmt.SRCB:
        return f"0 SRCB as {resolve_srcb(fp32_dest, srcb_format).name}"
    return f"{mod0} {Mod0Fmt(mod0).name}"


def _layout() -> dict[str, tuple[list[str], dict[str, str]]]:
    instr, instr_excluded = _instruction_bins()
    flags = [f"use_flags={u}, lane_flags={p}" for u in ("off", "on") for p in ("none", "some", "all")]
    macro = [f"{unit} delay={d} {kind}" for unit in _MACRO_UNIT_NAMES for d in range(8) for kind in DELAY_KINDS]
    return {
        "instruction x modifier": (instr, instr_excluded),
        "lane flags": (flags, {}),
        "flag stack depth": ([str(d) for d in range(FLAG_STACK_DEPTH + 1)], {}),
        "SFPLOAD format": (_format_bins(), {}),
        "SFPSTORE format": (_format_bins(), {}),
        "macro sub-unit x delay x kind": (macro, {}),
        "events": (["SFPSWAP interlock stall"] + [f"discarded on {u}" for u in _MACRO_UNIT_NAMES], {}),
        "hazard rules": (list(RULES), {}),
    }


LAYOUT = _layout()


class Coverage:
    """Hit counts per group and bin; excluded bins carry their reason."""

    def __init__(self):
        self.hits: dict[str, dict[str, int]] = {g: dict.fromkeys(bins, 0) for g, (bins, _) in LAYOUT.items()}
        self.excluded: dict[str, dict[str, str]] = {g: dict(ex) for g, (_, ex) in LAYOUT.items()}

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
        t = state.tensix
        for activity in record.units.values():
            ins = isa.decode(activity.word)
            if activity.origin == "thread":
                field = MODIFIER[ins.mnemonic]
                self._hit("instruction x modifier",
                          ins.mnemonic if field is None else f"{ins.mnemonic} {field}={ins[field]}")
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
            self._hit("events", "SFPSWAP interlock stall")
        for h in record.hazards:
            if h.rule == "discarded":
                self._hit("events", f"discarded on {h.unit}")
            self._hit("hazard rules", h.rule)

    def finish(self, model: CycleModel) -> None:
        """Count hazards reported after the last step (only `drain` reports
        `macro-left-pending`, and it does so outside any step)."""
        for h in model.hazards:
            if h.rule == "macro-left-pending":
                self._hit("hazard rules", h.rule)

    # -- combining and saving ---------------------------------------------------

    def merge(self, other: "Coverage") -> "Coverage":
        """Add `other`'s counts to this one (in place); returns self."""
        for group, bins in other.hits.items():
            for name, count in bins.items():
                self.hits[group][name] = self.hits[group].get(name, 0) + count
        return self

    def to_json(self) -> dict:
        return {"hits": self.hits, "excluded": self.excluded}

    @classmethod
    def from_json(cls, data: dict | str) -> "Coverage":
        if isinstance(data, str):
            data = json.loads(data)
        cov = cls()
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
        out = ["# Functional coverage", "", "| group | hit | total | % |", "|---|---:|---:|---:|"]
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
    cov = coverage if coverage is not None else Coverage()
    model = run_program(program, strict=strict, on_cycle=cov.sample)
    cov.finish(model)
    return cov


__all__ = ["Coverage", "LAYOUT", "DELAY_KINDS", "collect"]
