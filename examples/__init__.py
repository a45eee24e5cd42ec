"""Example programs (`sfpu sim example:NAME`), an example kernel header (`example:ckernel_sfpu_affine.h`
wherever a header is named) and a kernel author's test to copy."""

from pathlib import Path

FOLDER = Path(__file__).resolve().parent      # in a checkout examples/, in an install the package's own copy
