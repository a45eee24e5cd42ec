"""The Tensix SFPU of Wormhole B0 and Blackhole A0: golden model, RTL and testbenches.

    tensix_sfpu.model     the golden model (bit- and cycle-exact), the ISA table and feature records
    tensix_sfpu.hdl       the Amaranth RTL
    tensix_sfpu.tb        the verification environment, the kernel front end and the `sfpu` command
    tensix_sfpu.kernels   real SFPU kernels as programs, with their references
    tensix_sfpu.api       the Python API (docs/api.md)

In a checkout these folders sit beside this one (model/, hdl/, tb/, kernels/,
examples/); an installed wheel has them inside the package.
"""

from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent
if (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "model" / "__init__.py").is_file():
    __path__.append(str(_CHECKOUT))       # noqa: F821 (the package's own search path)


def __getattr__(name: str):
    if name == "api":                     # imported when first asked for: it loads the front end
        from .tb import api
        return api
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
