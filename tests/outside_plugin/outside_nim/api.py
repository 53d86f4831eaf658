"""Nim's public extension API: what an expansion of Nim may use.

Stability: kept from one minor version to the next; fields are only added, with defaults.
"""

from __future__ import annotations

from gamehall.core import hookimpl

from . import NimSpecs, State, Take

__all__ = ["NimSpecs", "State", "Take", "hookimpl"]
