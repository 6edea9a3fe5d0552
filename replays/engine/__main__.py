"""`python -m replays.engine ...`: the engine's command line under its old name (`python -m speedrules`)."""

import sys

from speedrules.cli import main

sys.exit(main())
