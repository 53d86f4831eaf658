"""Toy Battle's rules as a decider (rule ids in docs/rules/toy-battle.md)."""

from __future__ import annotations

import random
from collections.abc import Collection, Hashable, Mapping, Sequence
from typing import Any

from gamehall.core import (
    Command,
    Context,
    Decision,
    Emitter,
    Event,
    IllegalCommand,
    Outcome,
    Rules,
    decides,
    evolves,
    merge_by_key,
)
from gamehall.core.errors import InvalidOptions
from gamehall.core.rules import MatchConfig
from msgspec.structs import replace

from . import changes, words
from . import estimate as guess
from . import events as events_
from . import view as seen
from .commands import DRAW, SKIP, DrawTroops, PlaceTroop, SkipEffect
from .effect_rule import EffectRule
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
from .placement import (
    RACK_LIMIT,
    can_place,
    completed_regions,
    draw_count,
    placement_refusal,
    placements,
    seat_of,
)
from .state import Options, State, WaitingEffect, put, without
from .terrain import ALIASES, Board, terrain_name
from .troops import Army

REMOVED = 4
OPENING_RACKS = (3, 4)
TURN = Decision("turn", "draw 2 troops or place 1 troop")


class ToyBattle(Rules[State]):
    """Two toy armies race for the enemy headquarters or the terrain's medal target.

    A turn is one action (draw or place), then the effects the placement queued, one step a
    command; each step ends with whatever follows by itself (``settle_after``). How each
    event changes the state follows the commands, one ``@evolves`` method per event.
    """

    revealing = (
        events_.ColoursChosen,
        events_.SupplyShuffled,
        events_.TroopsRemoved,
        events_.StartPlayerChosen,
        events_.TroopsDrawn,
        events_.TroopSnatched,
        events_.TroopTurnedDown,
        events_.TroopRecovered,
    )
    secret_fields = {events_.SupplyShuffled: ("order",), events_.TroopsRemoved: ("troops",)}
    private_fields = {events_.TroopsDrawn: ("troops",), events_.TroopTurnedDown: ("troop",)}

    def __init__(self, hook: Any) -> None:
        super().__init__(hook)
        self.army = Army(merge_by_key(hook.toy_battle_troop_kinds(), lambda k: k.key))
        terrains = {t.key: t for t in merge_by_key(hook.toy_battle_terrains(), lambda t: t.key)}
        self.boards = {key: Board(terrain) for key, terrain in terrains.items()}
        self.terrain_names = {terrain_name(alias): key for alias, key in ALIASES.items()}
        for key, terrain in terrains.items():
            for name in (terrain.name_nl, terrain.name, key):
                self.terrain_names[terrain_name(name)] = key
        self.effects: dict[str, EffectRule] = {
            e.name: e for e in merge_by_key(hook.toy_battle_effects(), lambda e: e.name)
        }
        self.decisions = {
            name: Decision(f"effect:{name}", effect.prompt) for name, effect in self.effects.items()
        }

    def option_choices(self) -> Mapping[str, Sequence[tuple[Any, str]]]:
        """Offer the ruleset's terrains (the box's and its expansions') by name (TB-SETUP-1)."""
        terrains = [
            (key, f"{board.terrain.name} / {board.terrain.name_nl}")
            for key, board in self.boards.items()
        ]
        return {"terrain": terrains}

    # -- setup -----------------------------------------------------------------------------

    def initial(self, config: MatchConfig) -> State:
        """Return the chosen terrain with its medals laid out and nothing else (TB-SETUP-1)."""
        options = config.options if isinstance(config.options, Options) else Options()
        key = self.terrain_names.get(terrain_name(options.terrain))
        if key is None:
            known = "; ".join(
                f"{b.key} ({b.terrain.name}, {b.terrain.name_nl})" for b in self.boards.values()
            )
            raise InvalidOptions(
                f"unknown terrain {options.terrain!r}: give a key or an English or Dutch name, "
                f"in any case: {known}"
            )
        return State(terrain=key, options=options)

    def start(self, state: State, config: MatchConfig, rng: random.Random) -> Sequence[Event]:
        """Choose colours, shuffle, remove 4 unseen, draw the start player (TB-SETUP-2 … 6)."""
        colour = state.options.colour
        blue = rng.randrange(2) if colour == "random" else (0 if colour == "blue" else 1)
        events: list[Event] = [ColoursChosen(blue=blue)]
        for seat in (0, 1):
            order = list(self.army.tokens["blue" if seat == blue else "red"])
            rng.shuffle(order)
            events.append(SupplyShuffled(seat=seat, size=len(order), order=tuple(order)))
            events.append(TroopsRemoved(seat=seat, count=REMOVED, troops=tuple(order[:REMOVED])))
        first = rng.randrange(2)
        events.append(StartPlayerChosen(seat=first))
        for seat, count in ((first, OPENING_RACKS[0]), (1 - first, OPENING_RACKS[1])):
            shuffled = next(
                e.order for e in events if isinstance(e, SupplyShuffled) and e.seat == seat
            )
            drawn = (shuffled or ())[REMOVED : REMOVED + count]
            events.append(TroopsDrawn(seat=seat, count=count, cause="setup", troops=drawn))
        return events

    # -- deciding --------------------------------------------------------------------------

    def phase(self, state: State) -> Hashable:
        """Return what a command answers: the end, an effect of the placement, or the turn."""
        return "over" if state.over else "effect" if state.queue else "turn"

    def decide(self, state: State, command: Command, ctx: Context) -> Sequence[Event]:
        """Return the events of one action or one effect step, then of what follows by itself."""
        turn = Emitter(self, state, ctx)
        decider = self.decider(state, command)
        assert decider is not None  # every phase has a method for any command
        decider(self, turn, command)
        self._advance(turn, state.turn)
        return turn.events

    @decides(Command, phase="over")
    def _over(self, turn: Emitter[State], command: Command) -> None:
        raise IllegalCommand("the match is over")

    @decides(DrawTroops, phase="turn")
    def _draw(self, turn: Emitter[State], command: DrawTroops) -> None:
        """Draw troops from the supply onto the rack (TB-DRAW-1)."""
        state, seat = turn.state, turn.state.turn
        if len(state.racks[seat]) >= RACK_LIMIT:
            raise IllegalCommand("your rack is full (8 troops): place a troop", "TB-DRAW-2")
        count = draw_count(state, seat, 2)
        if not count:
            raise IllegalCommand("your supply is empty: place a troop", "TB-DRAW-3")
        troops = state.supply[seat][:count]
        turn.emit(TroopsDrawn(seat=seat, count=count, cause="draw", troops=troops))

    @decides(PlaceTroop, phase="turn")
    def _place(self, turn: Emitter[State], command: PlaceTroop) -> None:
        """Place a troop from the rack (TB-PLACE-1)."""
        self.place(turn, turn.state.turn, command.troop, command.spot)

    @decides(Command, phase="turn")
    def _not_an_action(self, turn: Emitter[State], command: Command) -> None:
        raise IllegalCommand("it is your turn: draw troops or place one", "TB-TURN-1")

    @decides(Command, phase="effect")
    def _effect_step(self, turn: Emitter[State], command: Command) -> None:
        """Go on with the optional effects of the placement (TB-EFFECT-1)."""
        head = turn.state.queue[0]
        effect = self.effects[head.effect]
        if isinstance(command, SkipEffect) and effect.mandatory:
            raise IllegalCommand(f"this effect cannot be skipped: {effect.prompt}", effect.rule)
        if isinstance(command, SkipEffect):
            turn.emit(EffectFinished(seat=head.seat, effect=head.effect, outcome="skipped"))
            return
        if type(command) not in effect.accepts:
            raise IllegalCommand(f"first use or skip the effect: {effect.prompt}", "TB-EFFECT-1")
        turn.emit(EffectFinished(seat=head.seat, effect=head.effect, outcome="used"))
        assert turn.ctx is not None
        effect.apply(self, turn, head, command, turn.ctx)

    def place(self, emitter: Emitter[State], seat: int, troop: str, spot: int) -> None:
        """Place a troop, queue its effects, and settle regions and the end (TB-PLACE-1 … 6)."""
        state, board = emitter.state, self.board(emitter.state)
        refusal = placement_refusal(board, self.army, state, seat, troop, spot)
        if refusal is not None:
            raise IllegalCommand(*refusal)
        if spot in board.hq_owner:
            emitter.emit(TroopPlaced(seat=seat, troop=troop, spot=spot))
            medals = emitter.state.medals
            emitter.emit(MatchEnded(winner=seat, reason="headquarters", medals=medals))
            return
        specials = state.options.special_bases
        muted = specials and spot in board.muted
        emitter.emit(
            TroopPlaced(
                seat=seat,
                troop=troop,
                spot=spot,
                troop_effect="" if muted else self.army.kind[troop].effect,
                base_effect=board.effect_at.get(spot, "") if specials else "",
            )
        )
        self.settle(emitter, seat)

    def settle(self, emitter: Emitter[State], mover: int) -> None:
        """Award completed regions (the mover's first) and end the match on a medal target."""
        board = self.board(emitter.state)
        for seat, region in completed_regions(board, emitter.state, mover):
            worth = board.terrain.regions[region].medals
            emitter.emit(RegionTaken(seat=seat, region=region, medals=worth))
        medals = emitter.state.medals
        for seat in (mover, 1 - mover):
            if medals[seat] >= board.terrain.medal_target and not emitter.state.over:
                emitter.emit(MatchEnded(winner=seat, reason="medals", medals=medals))

    def _advance(self, emitter: Emitter[State], seat: int) -> None:
        """Go on with the optional effects of the placement (TB-EFFECT-1)."""
        while not emitter.state.over:
            queue = emitter.state.queue
            if not queue:
                self._end_turn(emitter, seat)
                return
            head = queue[0]
            if self.effects[head.effect].options(self, emitter.state, head):
                return
            emitter.emit(EffectFinished(seat=seat, effect=head.effect, outcome="impossible"))

    def _end_turn(self, emitter: Emitter[State], seat: int) -> None:
        """End the turn, or the match when nobody can act (TB-TURN-1)."""
        emitter.emit(TurnEnded(seat=seat, next=1 - seat))
        state = emitter.state
        # Either player may be the one who can no longer act (TB-END-3), the mover too.
        stuck = [s for s in (1 - seat, seat) if not self.can_act(state, s)]
        if not stuck:
            return
        alone = stuck[0] if len(stuck) == 1 else seat
        ender = alone if state.options.tie_loser == "stuck" else seat
        zero, one = state.medals
        winner = 0 if zero > one else 1 if one > zero else 1 - ender
        emitter.emit(
            MatchEnded(
                winner=winner,
                reason="stuck",
                medals=state.medals,
                ended_by=ender,
                stuck=tuple(sorted(stuck)),
            )
        )

    def can_act(self, state: State, seat: int) -> bool:
        """Tell whether a seat could still draw a troop or place one (TB-END-3)."""
        return bool(draw_count(state, seat, 2)) or can_place(
            self.board(state), self.army, state, seat
        )

    # -- helpers for effects ---------------------------------------------------------------

    def board(self, state: State) -> Board:
        """Return the match's terrain."""
        return self.boards[state.terrain]

    def placement_commands(self, state: State, seat: int) -> list[Command]:
        """Return a PlaceTroop for every legal placement of ``seat``."""
        return [
            PlaceTroop(troop=troop, spot=spot)
            for troop, spot in placements(self.board(state), self.army, state, seat)
        ]

    def enemy_tops_near(self, state: State, waiting: WaitingEffect) -> list[tuple[str, int]]:
        """Return (troop, base) for each enemy top troop one path from the waiting spot."""
        board, out = self.board(state), []
        for spot in board.adjacent[waiting.spot]:
            top = state.top(spot)
            if (
                top is not None
                and spot not in board.hq_owner
                and seat_of(state, top) != waiting.seat
            ):
                out.append((top, spot))
        return out

    def visible_target(self, state: State, troop: str, owner: int, rule: str) -> int:
        """Return the spot a target troop tops, refusing hidden, covered or wrong-side troops."""
        if troop not in self.army.kind:
            raise IllegalCommand(f"there is no troop {troop!r}", rule)
        spot = next((s for s, stack in state.stacks.items() if troop in stack), None)
        if spot is None:
            raise IllegalCommand(
                f"{troop} is not a troop you can see on the terrain", "TB-EFFECT-2"
            )
        if state.stacks[spot][-1] != troop:
            raise IllegalCommand(
                f"{troop} is covered: only visible troops can be targeted", "TB-EFFECT-2"
            )
        if seat_of(state, troop) != owner:
            side = "your own" if owner == state.turn else "an enemy"
            raise IllegalCommand(f"this effect needs {side} troop", rule)
        return spot

    def check_room(self, state: State, seat: int, rule: str) -> None:
        """Refuse an effect that would take the rack past 8 troops (TB-EFFECT-3)."""
        if len(state.racks[seat]) >= RACK_LIMIT:
            raise IllegalCommand("your rack already holds 8 troops", "TB-EFFECT-3")

    # -- how each event changes the state --------------------------------------------------

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
            stacks=changes.push(state.stacks, event.spot, event.troop),
            queue=queue,
            **changes.off_rack(state, event.seat, event.troop),
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
            state,
            stacks=changes.pop(state.stacks, event.spot),
            discard=state.discard + (event.troop,),
        )

    @evolves(TroopSnatched)
    def troop_snatched(self, state: State, event: TroopSnatched) -> State:
        """Move a troop from a rack to the discard pile."""
        return replace(
            state,
            discard=state.discard + (event.troop,),
            **changes.off_rack(state, event.seat, event.troop),
        )

    @evolves(TroopReturned)
    def troop_returned(self, state: State, event: TroopReturned) -> State:
        """Move a top troop from the terrain to its owner's rack, where both know it is."""
        return replace(
            state,
            stacks=changes.pop(state.stacks, event.spot),
            **changes.to_rack(state, event.seat, event.troop, True),
        )

    @evolves(TroopRecovered)
    def troop_recovered(self, state: State, event: TroopRecovered) -> State:
        """Move a troop from the discard pile to its owner's rack."""
        return replace(
            state,
            discard=without(state.discard, event.troop),
            **changes.to_rack(state, event.seat, event.troop, True),
        )

    @evolves(TroopMoved)
    def troop_moved(self, state: State, event: TroopMoved) -> State:
        """Move a top troop onto the top of another stack."""
        return replace(
            state,
            stacks=changes.push(changes.pop(state.stacks, event.source), event.to, event.troop),
        )

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

    # -- asking ----------------------------------------------------------------------------

    def awaiting(self, state: State) -> Mapping[int, Decision]:
        """Return the seat to move and what it is asked: its action or the first effect."""
        if state.over or not state.ready:
            return {}
        if state.queue:
            return {state.turn: self.decisions[state.queue[0].effect]}
        return {state.turn: TURN}

    def legal(self, state: State, seat: int) -> Sequence[Command]:
        """Return every command ``seat`` may send now."""
        if state.over or not state.ready or seat != state.turn:
            return []
        if state.queue:
            effect = self.effects[state.queue[0].effect]
            uses = effect.options(self, state, state.queue[0])
            return uses if effect.mandatory else [*uses, SKIP]
        out: list[Command] = [DRAW] if draw_count(state, seat, 2) else []
        out.extend(self.placement_commands(state, seat))
        return out

    def outcome(self, state: State) -> Outcome | None:
        """Return the winner once the match is over (TB-END-1 … TB-END-4)."""
        if not state.over or state.winner is None:
            return None
        return words.outcome(seen.view(self.board(state), state, None), self.board(state))

    # -- what each seat sees ---------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> Any:
        """Return what ``seat`` may see (TB-HIDDEN-1 … 5)."""
        asked = self.awaiting(state)
        prompt = next(iter(asked.values())).prompt if asked else ""
        return seen.view(self.board(state), state, seat, self.army.added, prompt)

    def hidden(self, state: State, seat: int | None) -> Collection[str]:
        """Return the tokens of every troop whose identity ``seat`` does not know."""
        return seen.hidden(state, seat)

    def sample(self, view: Any, seat: int, rng: random.Random) -> State:
        """Return a state ``seat`` could be in, its unseen troops drawn at random (for IS-MCTS)."""
        return seen.sample(self.army.tokens, view, seat, rng)

    def estimate(self, state: State) -> tuple[float, float]:
        """Return each seat's chance of winning, as a rule of thumb (for bots' playouts)."""
        return guess.estimate(self.board(state), state)
