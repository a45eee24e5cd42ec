"""The `sfpu` command line: `main` builds the parser from one module per
subcommand, each with `register(subparsers)`; errors, options and files hold
what several of them share. `fuzz` drives it with hostile inputs (`make fuzz`)."""
