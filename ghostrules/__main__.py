"""``python -m ghostrules``: the command line."""

from .cli import main

raise SystemExit(main())
