"""Run ``python -m gamehall.adapters.cli`` (as the ``gamehall`` command: see
:mod:`gamehall.adapters.launch`)."""

from gamehall.adapters.launch import main

raise SystemExit(main())
