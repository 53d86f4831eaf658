"""How each event changes the state: pure, no randomness, one method per event.

:class:`ToyBattleEvents` is the base of the rules class (``rules.py``): its ``@evolves``
methods join the rules' table, which ``Rules.evolve`` reads.
"""

from __future__ import annotations

from typing import Any

from gamehall.core import Rules, evolves
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


class ToyBattleEvents(Rules[State]):
    """Fold Toy Battle's events into states; an expansion's events leave the state unchanged."""

    @evolves(ColoursChosen)
    def colours_chosen(self, state: State, event: ColoursChosen) -> State:
        """Give blue to the seat the setup drew."""
        return replace(state, blue=event.blue)

    @evolves(SupplyShuffled)
    def supply_shuffled(self, state: State, event: SupplyShuffled) -> State:
        """Lay a seat's supply out in its shuffled order."""
        return replace(state, supply=put(state.supply, event.seat, event.order or ()))

    @evolves(TroopsRemoved)
    def troops_removed(self, state: State, event: TroopsRemoved) -> State:
        """Move the first troops of a supply out of the match."""
        supply = state.supply[event.seat]
        gone = supply[: event.count]
        return replace(
            state,
            supply=put(state.supply, event.seat, supply[event.count :]),
            removed=put(state.removed, event.seat, gone),
        )

    @evolves(StartPlayerChosen)
    def start_player_chosen(self, state: State, event: StartPlayerChosen) -> State:
        """Give the first turn; the match is ready."""
        return replace(state, turn=event.seat, ready=True)

    @evolves(TroopsDrawn)
    def troops_drawn(self, state: State, event: TroopsDrawn) -> State:
        """Move troops from the top of a supply to the rack."""
        seat, troops = event.seat, event.troops or ()
        supply = state.supply[seat]
        return replace(
            state,
            supply=put(state.supply, seat, supply[len(troops) :]),
            racks=put(state.racks, seat, state.racks[seat] + troops),
        )

    @evolves(TroopPlaced)
    def troop_placed(self, state: State, event: TroopPlaced) -> State:
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

    @evolves(RegionTaken)
    def region_taken(self, state: State, event: RegionTaken) -> State:
        """Give the region's medals to the seat, once and for good."""
        medals = list(state.medals)
        medals[event.seat] += event.medals
        return replace(
            state,
            medals=(medals[0], medals[1]),
            taken=state.taken + ((event.region, event.seat),),
        )

    @evolves(EffectFinished)
    def effect_finished(self, state: State, event: EffectFinished) -> State:
        """Take the effect off the queue, used, skipped or impossible."""
        return replace(state, queue=state.queue[1:])

    @evolves(TroopDiscarded)
    def troop_discarded(self, state: State, event: TroopDiscarded) -> State:
        """Move a top troop from the terrain to the discard pile."""
        return replace(
            state, stacks=_pop(state.stacks, event.spot), discard=state.discard + (event.troop,)
        )

    @evolves(TroopSnatched)
    def troop_snatched(self, state: State, event: TroopSnatched) -> State:
        """Move a troop from a rack to the discard pile."""
        return replace(
            state,
            discard=state.discard + (event.troop,),
            **_off_rack(state, event.seat, event.troop),
        )

    @evolves(TroopReturned)
    def troop_returned(self, state: State, event: TroopReturned) -> State:
        """Move a top troop from the terrain to its owner's rack, where both know it is."""
        return replace(
            state,
            stacks=_pop(state.stacks, event.spot),
            **_to_rack(state, event.seat, event.troop, True),
        )

    @evolves(TroopRecovered)
    def troop_recovered(self, state: State, event: TroopRecovered) -> State:
        """Move a troop from the discard pile to its owner's rack."""
        return replace(
            state,
            discard=without(state.discard, event.troop),
            **_to_rack(state, event.seat, event.troop, True),
        )

    @evolves(TroopMoved)
    def troop_moved(self, state: State, event: TroopMoved) -> State:
        """Move a top troop onto the top of another stack."""
        return replace(state, stacks=_push(_pop(state.stacks, event.source), event.to, event.troop))

    @evolves(TroopTurnedDown)
    def troop_turned_down(self, state: State, event: TroopTurnedDown) -> State:
        """Mark a rack troop as face down; it stays on the rack."""
        seat = event.seat
        down = state.face_down[seat] + ((event.troop,) if event.troop else ())
        return replace(state, face_down=put(state.face_down, seat, down))

    @evolves(TurnEnded)
    def turn_ended(self, state: State, event: TurnEnded) -> State:
        """Stand the ending seat's face-down troops up and pass the turn."""
        return replace(state, turn=event.next, face_down=put(state.face_down, event.seat, ()))

    @evolves(MatchEnded)
    def match_ended(self, state: State, event: MatchEnded) -> State:
        """End the match with its winner and why."""
        return replace(
            state,
            over=True,
            winner=event.winner,
            reason=event.reason,
            ended_by=event.ended_by,
            stuck=event.stuck,
        )
