"""The `sfpu` command line: one module per subcommand, each with `register(subparsers)`."""
