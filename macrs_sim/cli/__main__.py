"""`python -m macrs_sim.cli ...`: the same as `macrs-sim ...`."""

import sys

from macrs_sim.cli import main

sys.exit(main())
