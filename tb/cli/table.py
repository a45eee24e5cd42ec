"""Plain-text tables that fit a terminal: `format_table` shortens the widest
columns (their cells end in "…") until a row fits `width` characters;
`width=None` (the commands' `--wide`) prints every cell in full."""

from __future__ import annotations

WIDTH = 120          # columns of output by default
MIN_COLUMN = 8


def fit(widths: list[int], width: int | None, gap: int = 2) -> list[int]:
    """Column widths shrunk, widest first, until they and the gaps fit `width`."""
    widths = list(widths)
    if width is None:
        return widths
    while sum(widths) + gap * (len(widths) - 1) > width:
        widest = max(range(len(widths)), key=lambda i: widths[i])
        if widths[widest] <= MIN_COLUMN:
            break
        widths[widest] -= 1
    return widths


def cell(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def format_table(header: list[str], rows: list[list[str]], width: int | None = WIDTH,
                 right: frozenset[int] = frozenset(), notes: dict[int, str] | None = None) -> str:
    """A header, a rule and the rows; columns in `right` are right-aligned;
    `notes[i]` is printed, indented, on a line of its own under row i."""
    widths = fit([max(len(r[i]) for r in [header] + rows) for i in range(len(header))], width)

    def line(r: list[str]) -> str:
        cells = [cell(c, w) for c, w in zip(r, widths)]
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    lines = [line(header), "  ".join("-" * w for w in widths)]
    for i, r in enumerate(rows):
        lines.append(line(r))
        if notes and i in notes:
            lines.append(cell("    " + notes[i], width) if width else "    " + notes[i])
    return "\n".join(lines)
