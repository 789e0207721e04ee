import sys

from redact.cli import main

sys.exit(main())
