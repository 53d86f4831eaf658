"""What each seat may see: views, redacted events, the hidden tokens (TB-HIDDEN-1 … 5) and
the sampler that draws a whole state from a view, for bots that must not peek.

A seat sees its own rack and face-down troops, the size of the other rack (plus the troops
there that it saw go back, e.g. through the Castle), the sizes of both supplies but never their
order or contents, never the removed troops, and everything on the terrain and discard pile.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping

import msgspec

from .state import Options, State, WaitingEffect
from .terrain import Board
from .troops import TroopKind


class PlayerView(msgspec.Struct, frozen=True):
    """One seat as the asking seat may see it; ``rack`` is ``None`` for anyone but its owner."""

    seat: int
    colour: str
    headquarters: tuple[int, ...]
    supply: int
    removed: int
    rack_size: int
    face_down: int
    medals: int
    rack: tuple[str, ...] | None = None
    face_down_troops: tuple[str, ...] | None = None
    known: tuple[str, ...] = ()


class RegionView(msgspec.Struct, frozen=True):
    """A region: its bases, its medals still on the board, and who took them."""

    bases: tuple[int, ...]
    medals: int
    taken_by: int | None = None


class View(msgspec.Struct, frozen=True):
    """The match as one seat (``None``: a spectator) may see it."""

    terrain: str
    terrain_name: str
    special_bases: bool
    seat: int | None
    turn: int
    medal_target: int
    players: tuple[PlayerView, PlayerView]
    stacks: dict[int, tuple[str, ...]]
    discard: tuple[str, ...]
    regions: tuple[RegionView, ...]
    queue: tuple[WaitingEffect, ...]
    over: bool
    winner: int | None
    reason: str
    ended_by: int | None = None
    stuck: tuple[int, ...] = ()
    kwak_on_restricted: bool = False
    added_kinds: tuple[TroopKind, ...] = ()
    """Troop kinds that expansions added: their names, codes and descriptions, for boards."""
    prompt: str = ""
    """What the seat to move is asked now, in words (an expansion's effect names its own)."""
    tie_loser: str = "stuck"


def _player(board: Board, state: State, seat: int, asking: int | None) -> PlayerView:
    own = seat == asking
    colour = state.colour(seat)
    return PlayerView(
        seat=seat,
        colour=colour,
        headquarters=board.headquarters[colour],
        supply=len(state.supply[seat]),
        removed=len(state.removed[seat]),
        rack_size=len(state.racks[seat]),
        face_down=len(state.face_down[seat]),
        medals=state.medals[seat],
        rack=state.racks[seat] if own else None,
        face_down_troops=state.face_down[seat] if own else None,
        known=() if own else state.known[seat],
    )


def view(
    board: Board,
    state: State,
    seat: int | None,
    added_kinds: tuple[TroopKind, ...] = (),
    prompt: str = "",
) -> View:
    """Return the match as ``seat`` may see it."""
    takers = dict(state.taken)
    regions = tuple(
        RegionView(r.bases, 0 if i in takers else r.medals, takers.get(i))
        for i, r in enumerate(board.terrain.regions)
    )
    return View(
        terrain=state.terrain,
        terrain_name=board.name,
        special_bases=state.options.special_bases,
        seat=seat,
        turn=state.turn,
        medal_target=board.terrain.medal_target,
        players=(_player(board, state, 0, seat), _player(board, state, 1, seat)),
        stacks=dict(state.stacks),
        discard=state.discard,
        regions=regions,
        queue=state.queue,
        over=state.over,
        winner=state.winner,
        reason=state.reason,
        ended_by=state.ended_by,
        stuck=state.stuck,
        kwak_on_restricted=state.options.kwak_on_restricted,
        added_kinds=added_kinds,
        prompt=prompt,
        tie_loser=state.options.tie_loser,
    )


def hidden(state: State, seat: int | None) -> Collection[str]:
    """Return the tokens of supplies, removed troops and racks that ``seat`` does not know."""
    out: set[str] = set()
    for other in (0, 1):
        out.update(state.supply[other], state.removed[other])
        if other != seat:
            out.update(set(state.racks[other]) - set(state.known[other]))
    return out


def sample(
    tokens: Mapping[str, tuple[str, ...]], seen: View, seat: int, rng: random.Random
) -> State:
    """Return a state ``seat`` could be in, given its view: every unknown troop drawn at random.

    ``tokens`` holds every troop of each colour. The troops a seat has not seen (its own
    supply and removed troops; the other seat's rack but for the troops it saw go back, its
    supply and its removed troops) are shuffled and dealt back into those places, as many as
    the view counts; the other seat's face-down troops are drawn from its rack.
    """
    me, other, shown = seen.players[seat], seen.players[1 - seat], _on_table(seen)
    mine = _unseen(tokens[me.colour], shown | set(me.rack or ()), rng)
    theirs = _unseen(tokens[other.colour], shown | set(other.known), rng)
    unknown = other.rack_size - len(other.known)
    rack = (*other.known, *theirs[:unknown])
    down = tuple(rng.sample(rack, other.face_down))
    # Per seat: rack, supply, removed, face-down troops, troops the other seat knows.
    parts = {
        seat: (me.rack or (), *_deal(mine, me.supply), me.face_down_troops or (), ()),
        1 - seat: (rack, *_deal(theirs[unknown:], other.supply), down, other.known),
    }
    racks, supply, removed, face_down, known = ((parts[0][i], parts[1][i]) for i in range(5))
    blue = 0 if seen.players[0].colour == "blue" else 1
    return State(
        terrain=seen.terrain,
        options=Options(
            terrain=seen.terrain,
            colour="blue" if blue == 0 else "red",
            special_bases=seen.special_bases,
            kwak_on_restricted=seen.kwak_on_restricted,
            tie_loser="last" if seen.tie_loser == "last" else "stuck",
        ),
        blue=blue,
        turn=seen.turn,
        racks=racks,
        supply=supply,
        removed=removed,
        face_down=face_down,
        known=known,
        stacks=dict(seen.stacks),
        discard=seen.discard,
        medals=(seen.players[0].medals, seen.players[1].medals),
        taken=tuple((i, r.taken_by) for i, r in enumerate(seen.regions) if r.taken_by is not None),
        queue=seen.queue,
        ready=True,
        over=seen.over,
        winner=seen.winner,
        reason=seen.reason,
        ended_by=seen.ended_by,
        stuck=seen.stuck,
    )


def _on_table(seen: View) -> set[str]:
    return {troop for stack in seen.stacks.values() for troop in stack} | set(seen.discard)


def _unseen(troops: tuple[str, ...], seen: set[str], rng: random.Random) -> list[str]:
    unseen = [troop for troop in troops if troop not in seen]
    rng.shuffle(unseen)
    return unseen


def _deal(troops: list[str], supply: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    # The supply is drawn from the front; the rest were removed at setup (TB-SETUP-5).
    return tuple(troops[:supply]), tuple(troops[supply:])
