"""Run ``python -m gamehall.adapters.cli``."""

from . import main

raise SystemExit(main())
