"""Reading the command line's input files and writing its outputs: every
failure is a CliError that names the file."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np

from tensix_sfpu.model import isa, tensix
from tensix_sfpu.model.asm import Program, assemble, decode_source
from tensix_sfpu.model import dst_io
from tensix_sfpu.tb.cli.errors import CliError

MAX_INPUT_BYTES = 16 << 20     # a program or hex file


def read_input(path: str, what: str) -> bytes:
    """The bytes of an input file, or a CliError saying why not."""
    try:
        if Path(path).is_dir():
            raise CliError(f"{path}: is a directory, not {what}")
        with open(path, "rb") as f:
            data = f.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except OSError as e:
        raise CliError(f"{path}: cannot read: {e.strerror or e}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise CliError(f"{path}: larger than {MAX_INPUT_BYTES >> 20} MB, the most {what} may be")
    return data


def read_program(path: str, strict: bool = True, arch: isa.Arch | None = None) -> Program:
    """The assembled program; with `strict`, a TTI_ argument wider than its
    field is an error, otherwise a warning printed here. `arch` (from
    `--arch`) must agree with the program's `.arch` directive, if any."""
    program = assemble(decode_source(read_input(path, "an assembly program"), path), path, strict, arch)
    for warning in program.warnings:
        print(f"{warning.loc}: warning: {warning.message}", file=sys.stderr)
    return program


HEX_WORD = re.compile(r"(?:0[xX])?[0-9a-fA-F]{1,8}", re.ASCII)


def read_words(path: str | None, words: list[str], arch: isa.Arch = isa.DEFAULT_ARCH) -> list[int]:
    """Instruction words from the command line or a text file of hex words."""
    out = []
    sources: list[tuple[str, int, str]] = [("<args>", i + 1, w) for i, w in enumerate(words)]
    if path:
        text = decode_source(read_input(path, "a file of instruction words"), path)
        for number, line in enumerate(text.splitlines(), start=1):
            text = line.split("#")[0].strip()
            if text:
                sources.extend((path, number, token) for token in text.split())
    for where, number, token in sources:
        if not HEX_WORD.fullmatch(token):
            raise CliError(f"{where}:{number}: {token[:40]!r} is not a hexadecimal instruction word "
                           "(up to 8 hex digits, optionally after 0x)")
        word = int(token, 16)
        if not tensix.is_issued(word):
            try:
                isa.decode(word, arch)
            except isa.DecodeError as e:
                raise CliError(f"{where}:{number}: {e}") from None
        out.append(word)
    return out


def load_npy(path: str, what: str) -> np.ndarray:
    try:
        return dst_io.load_npy(path, what)
    except dst_io.DstFileError as e:
        raise CliError(str(e)) from None


def load_dst(path: str) -> np.ndarray:
    try:
        return dst_io.load_dst(path)
    except dst_io.DstFileError as e:
        raise CliError(str(e)) from None


def load_input(path: str, fmt: dst_io.Format) -> np.ndarray:
    """A typed input array (`--input`), checked against its format and Dst's size."""
    values = load_npy(path, "an input array")
    if values.dtype.kind not in "fiu":
        raise CliError(f"{path}: dtype {values.dtype} is not numbers; --format {fmt.name} takes "
                       f"{np.dtype(fmt.dtype).name} ({fmt.note})")
    problem = dst_io.fit_problem(values.size, fmt)
    if problem:
        raise CliError(f"{path}: {problem}")
    flat = values.reshape(-1)
    with np.errstate(all="ignore"):            # a value that does not fit is found just below
        converted = values.astype(fmt.dtype)
        bad = converted.reshape(-1) != flat
    if flat.dtype.kind == "f" and np.dtype(fmt.dtype).kind == "f":
        bad &= ~np.isnan(flat)                 # NaN stays NaN
    if bad.any():
        index = int(np.flatnonzero(bad)[0])
        raise CliError(f"{path}: value {flat[index].item()!r} (index {index} of the flattened array) is not "
                       f"a {np.dtype(fmt.dtype).name}, which --format {fmt.name} takes ({fmt.note}); "
                       f"convert the array first, e.g. with .astype(np.{np.dtype(fmt.dtype).name})")
    return converted


def write_output(path: str, data: str | bytes) -> None:
    try:
        if isinstance(data, str):
            Path(path).write_text(data)
        else:
            Path(path).write_bytes(data)
    except OSError as e:
        raise CliError(f"{path}: cannot write: {e.strerror or e}") from None


def write_text(path: str | None, text: str) -> None:
    """Text to the `--output` file, or to standard output when there is none."""
    if path:
        write_output(path, text)
    else:
        sys.stdout.write(text)


def write_json(record, where: str) -> None:
    if where == "-":
        json.dump(record, sys.stdout)
        sys.stdout.write("\n")
    else:
        write_output(where, json.dumps(record))
