"""`sfpu verilog`: the Verilog of the SFPU top or of one component (hdl.export)."""

from __future__ import annotations

from tensix_sfpu.tb.cli.errors import CliError
from tensix_sfpu.tb.cli.files import write_text
from tensix_sfpu.model.isa import DEFAULT_ARCH
from tensix_sfpu.tb.cli.options import arch_type, name, out_path


def cmd_verilog(args) -> int:
    """Write a component's Verilog (`hdl.export`); the top `Sfpu` by default."""
    from tensix_sfpu.hdl import export      # only this subcommand needs the RTL

    component = args.component or export.TOP
    try:
        if args.list:
            for listed in export.registry():
                print(listed)
            return 0
        text = export.verilog(component, args.arch or DEFAULT_ARCH)
    except export.ExportError as e:
        raise CliError(str(e)) from None
    write_text(args.output, text)
    return 0


def register(sub) -> None:
    p = sub.add_parser("verilog", help="write the Verilog of the SFPU top or of one component")
    p.add_argument("-o", "--output", type=out_path, help="write here instead of standard output")
    p.add_argument("--component", metavar="NAME", type=name,
                   help="a registered component instead of the top (see --list)")
    p.add_argument("--list", action="store_true", help="list the components")
    p.add_argument("--arch", type=arch_type, default=None, metavar="{wormhole,blackhole}",
                   help="the architecture the RTL is elaborated for (default wormhole)")
    p.set_defaults(func=cmd_verilog)
