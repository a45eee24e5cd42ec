"""`python -m tb.cli`: the same as the `sfpu` command."""

import sys

from tb.cli.main import main

sys.exit(main())
