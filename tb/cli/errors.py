"""The command line's own errors; `tb.cli.main` turns each into its exit status."""

import re


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


class NotModelled(Exception):
    """A Blackhole feature the model does not have yet: printed as one line, exit status 3."""


# API parameters whose errors the command line reports under the option that set them.
_OPTION_PARAMETERS = ("backend ", "allow ", "setup ")
_SRC = re.compile(r"(?<![\w-])src=")       # the kernel tree as the API names it (tb.llk.sources)


def from_api(error: Exception) -> CliError:
    """An `api.ApiError` as the command line says it: a parameter spelled as its option."""
    message = _SRC.sub("--src ", str(error))
    return CliError("--" + message if message.startswith(_OPTION_PARAMETERS) else message)
