"""What the rules read of an effect: its name, prompt and rule, and how it is offered and used.

:class:`~gamehall.plugins.toy_battle.effects.Effect` (the base of every effect, the box's and
an expansion's) has this shape; the rules object keeps its effects as this protocol, so the
rules module does not import the effects, which take the rules object as their ``game``.
"""

from __future__ import annotations

from typing import Any, Protocol

from gamehall.core import Command, Context, Emitter

from .state import State, WaitingEffect


class EffectRule(Protocol):
    """An effect as the rules use it (see :class:`~gamehall.plugins.toy_battle.effects.Effect`)."""

    name: str
    prompt: str
    rule: str
    accepts: tuple[type[Command], ...]
    mandatory: bool

    def options(self, game: Any, state: State, waiting: WaitingEffect) -> list[Command]:
        """Return the commands that use this effect now (empty: it cannot be used)."""
        ...

    def apply(
        self, game: Any, emitter: Emitter[State], waiting: WaitingEffect, command: Any, ctx: Context
    ) -> None:
        """Check the command and add the events of using the effect to ``emitter``."""
        ...
