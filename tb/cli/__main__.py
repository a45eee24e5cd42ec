"""`python -m tensix_sfpu.tb.cli`: the same as the `sfpu` command."""

import sys

from tensix_sfpu.tb.cli.main import main

sys.exit(main())
