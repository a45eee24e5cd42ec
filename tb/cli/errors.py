"""The command line's own errors; `tb.cli.main` turns each into its exit status."""


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


class NotModelled(Exception):
    """A Blackhole feature the model does not have yet: printed as one line, exit status 3."""
