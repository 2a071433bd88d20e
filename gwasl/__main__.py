"""``python -m gwasl`` runs the command line."""

from gwasl.cli import main

raise SystemExit(main())
