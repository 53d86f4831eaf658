"""How each event changes the state: pure, no randomness, one small function per event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from .events import (
    ColoursChosen,
    EffectFinished,
    MatchEnded,
    RegionTaken,
    StartPlayerChosen,
    SupplyShuffled,
    TroopDiscarded,
    TroopMoved,
    TroopPlaced,
    TroopRecovered,
    TroopReturned,
    TroopsDrawn,
    TroopSnatched,
    TroopsRemoved,
    TroopTurnedDown,
    TurnEnded,
)
from .state import State, WaitingEffect, put, without
from .terrain import Board


def _pop(stacks: dict[int, tuple[str, ...]], spot: int) -> dict[int, tuple[str, ...]]:
    stacks = dict(stacks)
    rest = stacks[spot][:-1]
    if rest:
        stacks[spot] = rest
    else:
        del stacks[spot]
    return stacks


def _push(stacks: dict[int, tuple[str, ...]], spot: int, troop: str) -> dict[int, tuple[str, ...]]:
    return {**stacks, spot: stacks.get(spot, ()) + (troop,)}


def _to_rack(state: State, seat: int, troop: str, known: bool) -> dict[str, Any]:
    rack = state.racks[seat] + (troop,)
    changes: dict[str, Any] = {"racks": put(state.racks, seat, rack)}
    if known:
        changes["known"] = put(state.known, seat, state.known[seat] + (troop,))
    return changes


def _off_rack(state: State, seat: int, troop: str) -> dict[str, Any]:
    changes: dict[str, Any] = {"racks": put(state.racks, seat, without(state.racks[seat], troop))}
    if troop in state.known[seat]:
        changes["known"] = put(state.known, seat, without(state.known[seat], troop))
    if troop in state.face_down[seat]:
        changes["face_down"] = put(state.face_down, seat, without(state.face_down[seat], troop))
    return changes


class Evolver:
    """Fold events into states; dispatches on the event's exact type."""

    def __init__(self, boards: dict[str, Board]) -> None:
        self.boards = boards
        self.handlers: dict[type, Callable[[State, Any], State]] = {
            ColoursChosen: lambda s, e: replace(s, blue=e.blue),
            SupplyShuffled: lambda s, e: replace(s, supply=put(s.supply, e.seat, e.order or ())),
            TroopsRemoved: self.removed,
            StartPlayerChosen: lambda s, e: replace(s, turn=e.seat, ready=True),
            TroopsDrawn: self.drawn,
            TroopPlaced: self.placed,
            RegionTaken: self.region_taken,
            EffectFinished: lambda s, e: replace(s, queue=s.queue[1:]),
            TroopDiscarded: self.discarded,
            TroopSnatched: self.snatched,
            TroopReturned: self.returned,
            TroopRecovered: self.recovered,
            TroopMoved: self.moved,
            TroopTurnedDown: self.turned_down,
            TurnEnded: self.turn_ended,
            MatchEnded: lambda s, e: replace(
                s,
                over=True,
                winner=e.winner,
                reason=e.reason,
                ended_by=e.ended_by,
                stuck=e.stuck,
            ),
        }

    def evolve(self, state: State, event: Any) -> State:
        """Return the state after one event; events of other games leave it unchanged."""
        handler = self.handlers.get(type(event))
        return state if handler is None else handler(state, event)

    @staticmethod
    def removed(state: State, event: TroopsRemoved) -> State:
        """Move the first troops of a supply out of the match."""
        supply = state.supply[event.seat]
        gone = supply[: event.count]
        return replace(
            state,
            supply=put(state.supply, event.seat, supply[event.count :]),
            removed=put(state.removed, event.seat, gone),
        )

    @staticmethod
    def drawn(state: State, event: TroopsDrawn) -> State:
        """Move troops from the top of a supply to the rack."""
        seat, troops = event.seat, event.troops or ()
        supply = state.supply[seat]
        return replace(
            state,
            supply=put(state.supply, seat, supply[len(troops) :]),
            racks=put(state.racks, seat, state.racks[seat] + troops),
        )

    @staticmethod
    def placed(state: State, event: TroopPlaced) -> State:
        """Stack the troop on its spot and queue its effects (troop first, base last)."""
        queue = state.queue
        if event.troop_effect:
            queue = (
                WaitingEffect(event.troop_effect, event.seat, event.troop, event.spot),
            ) + queue
        if event.base_effect:
            queue += (WaitingEffect(event.base_effect, event.seat, event.troop, event.spot, True),)
        return replace(
            state,
            stacks=_push(state.stacks, event.spot, event.troop),
            queue=queue,
            **_off_rack(state, event.seat, event.troop),
        )

    @staticmethod
    def region_taken(state: State, event: RegionTaken) -> State:
        """Give the region's medals to the seat, once and for good."""
        medals = list(state.medals)
        medals[event.seat] += event.medals
        return replace(
            state,
            medals=(medals[0], medals[1]),
            taken=state.taken + ((event.region, event.seat),),
        )

    @staticmethod
    def discarded(state: State, event: TroopDiscarded) -> State:
        """Move a top troop from the terrain to the discard pile."""
        return replace(
            state, stacks=_pop(state.stacks, event.spot), discard=state.discard + (event.troop,)
        )

    @staticmethod
    def snatched(state: State, event: TroopSnatched) -> State:
        """Move a troop from a rack to the discard pile."""
        return replace(
            state,
            discard=state.discard + (event.troop,),
            **_off_rack(state, event.seat, event.troop),
        )

    @staticmethod
    def returned(state: State, event: TroopReturned) -> State:
        """Move a top troop from the terrain to its owner's rack, where both know it is."""
        return replace(
            state,
            stacks=_pop(state.stacks, event.spot),
            **_to_rack(state, event.seat, event.troop, True),
        )

    @staticmethod
    def recovered(state: State, event: TroopRecovered) -> State:
        """Move a troop from the discard pile to its owner's rack."""
        return replace(
            state,
            discard=without(state.discard, event.troop),
            **_to_rack(state, event.seat, event.troop, True),
        )

    @staticmethod
    def moved(state: State, event: TroopMoved) -> State:
        """Move a top troop onto the top of another stack."""
        return replace(state, stacks=_push(_pop(state.stacks, event.source), event.to, event.troop))

    @staticmethod
    def turned_down(state: State, event: TroopTurnedDown) -> State:
        """Mark a rack troop as face down; it stays on the rack."""
        seat = event.seat
        down = state.face_down[seat] + ((event.troop,) if event.troop else ())
        return replace(state, face_down=put(state.face_down, seat, down))

    @staticmethod
    def turn_ended(state: State, event: TurnEnded) -> State:
        """Stand the ending seat's face-down troops up and pass the turn."""
        return replace(state, turn=event.next, face_down=put(state.face_down, event.seat, ()))
