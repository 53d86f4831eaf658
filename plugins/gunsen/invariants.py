"""What must hold after every event of a Gunsen match (the conformance suite checks it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamehall.core import Invariant
from gamehall.core.words import seat_label

from .state import HIDDEN, State

OCCUPIED = bytes([0] + [1] * 255)


def troops_conserved(state: State) -> str | None:
    """Check that every clan's fifteen troops are on the board or on its clan board."""
    for seat, player in enumerate(state.players):
        if state.troops and player.clan and sum(state.troops[seat]) + player.supply != 15:
            return f"{seat_label(seat)} has {sum(state.troops[seat])} troops out and {player.supply} home"
    return None


def one_clan_per_space(state: State) -> str | None:
    """Check that only a combat's space holds two clans, and heroes stand with their troops."""
    if not state.troops:
        return None
    size = len(state.troops[0])
    allowed = 0 if state.combat is None else 1 << (8 * (size - 1 - state.combat.space))
    seen = 0
    for row in state.troops:
        mask = int.from_bytes(row.translate(OCCUPIED), "big")  # one bit per occupied space
        if seen & mask & ~allowed:
            return "a space holds troops of two clans outside a combat"
        seen |= mask
    for seat, player in enumerate(state.players):
        spaces = [s for _, s in player.heroes]
        outside = [s for s in spaces if s != state.forts[seat]]
        if len(outside) != len(set(outside)):
            return f"{seat_label(seat)} has two heroes on one space outside its fort"
        if state.combat is None and any(not state.troops[seat][s] for s in outside):
            return f"a hero of {seat_label(seat)} stands without troops outside its fort"
    return None


def components_once(state: State) -> str | None:
    """Check that every order card and village token is in one place, markers within reach."""
    cards = [*state.deck, *state.row, *state.discard]
    tokens = [t for _, t in state.villages if t] + list(state.boxed)
    for player in state.players:
        cards += [c for column in player.columns for c in column] + [c for c in player.noble if c]
        tokens += player.tokens
        if len(player.tokens) > 3 or len(player.tactics) > 3:
            return (
                f"{player.clan} holds {len(player.tokens)} tokens and {len(player.tactics)} tactics"
            )
        if len(player.achievements) + 1 > 12:
            return f"{player.clan} has {len(player.achievements)} markers on boxes"
    cards = [c for c in cards if c != HIDDEN]
    if len(cards) != len(set(cards)) or len(tokens) != len(set(tokens)):
        return "an order card or a village token lies in two places"
    if len(state.row) > 5:
        return f"the row holds {len(state.row)} cards"
    return None


def invariants(rules: Any) -> Sequence[Invariant]:
    """Return the game's invariants (``rules`` is the ruleset's)."""
    return [
        Invariant("gunsen-troops-conserved", troops_conserved, "15 troops per clan"),
        Invariant("gunsen-one-clan-per-space", one_clan_per_space, "armies and heroes"),
        Invariant("gunsen-components-once", components_once, "cards, tokens, markers"),
    ]
