import sys

from engine.core.cli import main

sys.exit(main())
