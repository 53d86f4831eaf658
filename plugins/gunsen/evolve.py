"""How each event changes the state: pure methods, no rule is checked here."""

from __future__ import annotations

from typing import Any

from gamehall.core import Event, Rules, evolves
from msgspec.structs import replace

from . import events as ev
from .state import BOX, NOBODY, Activation, Combat, Player, Selection, State, Step


def _player(state: State, seat: int, **changes: Any) -> State:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def _add(state: State, seat: int, resource: str, amount: int) -> State:
    player = state.players[seat]
    return _player(state, seat, **{resource: getattr(player, resource) + amount})


def _troops(state: State, seat: int, changes: dict[int, int], supply: int = 0) -> State:
    row = bytearray(state.troops[seat])
    for space, delta in changes.items():
        row[space] += delta
    rows = list(state.troops)
    rows[seat] = bytes(row)
    state = replace(state, troops=tuple(rows))
    if supply:
        state = _player(state, seat, supply=state.players[seat].supply + supply)
    return state


def _move_heroes(state: State, seat: int, heroes: tuple[str, ...], to: int) -> State:
    if not heroes:
        return state
    moved = tuple((h, to if h in heroes else s) for h, s in state.players[seat].heroes)
    return _player(state, seat, heroes=moved)


def _remove(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    index = items.index(item)
    return items[:index] + items[index + 1 :]


def _remove_all(items: tuple[str, ...], gone: tuple[str, ...]) -> tuple[str, ...]:
    for item in gone:
        items = _remove(items, item)
    return items


def _activation(state: State, **changes: Any) -> State:
    assert state.activation is not None
    return replace(state, activation=replace(state.activation, **changes))


def _combat(state: State, **changes: Any) -> State:
    assert state.combat is not None
    return replace(state, combat=replace(state.combat, **changes))


def _side(combat: Combat, seat: int) -> int:
    return 0 if seat == combat.attacker else 1


# -- setup -------------------------------------------------------------------------------------


# -- orders ------------------------------------------------------------------------------------


def _lapse_tower(state: State) -> State:
    """A watchtower move right after a move must come at the next decision (GUN-TOWER-2)."""
    activation = state.activation
    if activation is None or not activation.tower_after:
        return state
    return _activation(state, tower_after=False)


# -- combat ------------------------------------------------------------------------------------


def _reward(state: State, seat: int, reward: str, amount: int) -> State:
    if not amount:
        return state
    if reward == "troop":
        return _troops(state, seat, {state.forts[seat]: amount}, -amount)
    return _add(state, seat, reward, amount)


# -- claims, achievements, end of turn ---------------------------------------------------------


def new_players(count: int) -> tuple[Player, ...]:
    """Return the players before setup."""
    return tuple(Player() for _ in range(count))


class GunsenEvents(Rules[State]):
    """How each of Gunsen's events changes the state: one ``@evolves`` method per event;
    :class:`~.rules.Gunsen` inherits them."""

    @evolves(ev.BoardSetUp)
    def board_set_up(self, state: State, e: ev.BoardSetUp) -> State:
        colours = {colour for _, colour in e.shrines}
        upgrades = tuple(NOBODY if c in colours else BOX for c in ("blue", "yellow", "purple"))
        return replace(
            state,
            side=e.side,
            forts=e.forts,
            towers=e.towers,
            shrines=e.shrines,
            troops=tuple(bytes(e.spaces) for _ in state.players),
            upgrades=(*upgrades, NOBODY),
        )

    @evolves(ev.VillagesDealt)
    def villages_dealt(self, state: State, e: ev.VillagesDealt) -> State:
        return replace(state, villages=tuple(zip(e.spaces, e.tokens, strict=True)))

    @evolves(ev.DeckShuffled)
    def deck_shuffled(self, state: State, e: ev.DeckShuffled) -> State:
        discard = () if e.reshuffle else state.discard
        return replace(state, deck=e.order, discard=discard, reshuffled=e.reshuffle)

    @evolves(ev.RowRefilled)
    def row_refilled(self, state: State, e: ev.RowRefilled) -> State:
        return replace(state, row=state.row + e.cards, deck=state.deck[len(e.cards) :])

    @evolves(ev.StartPlayerDrawn)
    def start_player_drawn(self, state: State, e: ev.StartPlayerDrawn) -> State:
        return replace(state, start=e.seat, turn=e.seat, asked=e.seat, phase="clan")

    @evolves(ev.ClanChosen)
    def clan_chosen(self, state: State, e: ev.ClanChosen) -> State:
        return _player(state, e.seat, clan=e.clan)

    @evolves(ev.ClanSetUp)
    def clan_set_up(self, state: State, e: ev.ClanSetUp) -> State:
        state = _player(state, e.seat, koku=e.koku, wood=e.wood, influence=e.influence)
        return _troops(state, e.seat, {state.forts[e.seat]: e.troops}, -e.troops)

    @evolves(ev.TacticsDealt)
    def tactics_dealt(self, state: State, e: ev.TacticsDealt) -> State:
        return _player(state, e.seat, hand=e.cards)

    @evolves(ev.Asked)
    def asked(self, state: State, e: ev.Asked) -> State:
        return replace(state, asked=e.seat, phase=e.phase)

    @evolves(ev.RowReplaced)
    def row_replaced(self, state: State, e: ev.RowReplaced) -> State:
        return replace(state, discard=state.discard + state.row, row=(), replaced=True)

    @evolves(ev.CardTaken)
    def card_taken(self, state: State, e: ev.CardTaken) -> State:
        state = replace(state, row=_remove(state.row, e.card), card=e.card)
        return _add(state, e.seat, e.price, -1) if e.price else state

    @evolves(ev.CardPlaced)
    def card_placed(self, state: State, e: ev.CardPlaced) -> State:
        columns = list(state.players[e.seat].columns)
        columns[e.column] = (e.card, *columns[e.column])
        return replace(_player(state, e.seat, columns=tuple(columns)), card="")

    @evolves(ev.NobleActionBegun)
    def noble_action_begun(self, state: State, e: ev.NobleActionBegun) -> State:
        player = state.players[e.seat]
        noble = list(player.noble)
        noble[e.level - 1] = e.card
        state = _player(state, e.seat, noble=tuple(noble), influence=player.influence - e.level)
        return replace(state, card="", noble=e.level)

    @evolves(ev.ColumnActivated)
    def column_activated(self, state: State, e: ev.ColumnActivated) -> State:
        return replace(state, activation=Activation(e.column, e.steps, one_shots=e.one_shots))

    @evolves(ev.Gained)
    def gained(self, state: State, e: ev.Gained) -> State:
        return _add(state, e.seat, e.resource, e.amount)

    @evolves(ev.ActionUsed)
    def action_used(self, state: State, e: ev.ActionUsed) -> State:
        assert state.activation is not None
        head, *rest = state.activation.steps
        if head.kind in ("buy_move", "build", "tactics"):
            return state  # an infinity action stays until the player stops it
        if head.kind in ("move", "recruit") and head.amount > 1:
            return _activation(state, steps=(replace(head, amount=head.amount - 1), *rest))
        return _activation(state, steps=tuple(rest))

    @evolves(ev.ActionSkipped)
    def action_skipped(self, state: State, e: ev.ActionSkipped) -> State:
        activation = state.activation
        if activation is None:
            return state
        if not activation.steps:
            return _activation(state, tower_after=False)
        return _activation(state, steps=activation.steps[1:], tower_before=False, tower_after=False)

    @evolves(ev.ActivationEnded)
    def activation_ended(self, state: State, e: ev.ActivationEnded) -> State:
        player = state.players[e.seat]
        columns = tuple(tuple(c for c in col if c not in e.discarded) for col in player.columns)
        return replace(_player(state, e.seat, columns=columns), activation=None, selection=None)

    @evolves(ev.TroopRecruited)
    def troop_recruited(self, state: State, e: ev.TroopRecruited) -> State:
        return _lapse_tower(_troops(state, e.seat, {e.space: 1}, -1))

    @evolves(ev.MoveBought)
    def move_bought(self, state: State, e: ev.MoveBought) -> State:
        state = _lapse_tower(_add(state, e.seat, e.resource, -1))
        assert state.activation is not None
        bought = Step("move", 1, "", "bought")
        return _activation(state, steps=(bought, *state.activation.steps))

    @evolves(ev.ArmySelected)
    def army_selected(self, state: State, e: ev.ArmySelected) -> State:
        return replace(state, selection=Selection(e.space, e.troops, e.hero, e.tower))

    @evolves(ev.ArmyMoved)
    def army_moved(self, state: State, e: ev.ArmyMoved) -> State:
        state = _troops(state, e.seat, {e.origin: -e.troops, e.to: e.troops})
        state = replace(
            _move_heroes(state, e.seat, (e.hero,) if e.hero else (), e.to), selection=None
        )
        activation = state.activation
        if activation is None:
            return state
        if e.tower:
            state = _add(state, e.seat, "influence", -1)
            if activation.tower_after:
                return _activation(state, tower_after=False)
            return _activation(state, tower_before=True)
        return _activation(state, tower_after=not activation.tower_before, tower_before=False)

    @evolves(ev.MovementLapsed)
    def movement_lapsed(self, state: State, e: ev.MovementLapsed) -> State:
        assert state.activation is not None
        steps = tuple(s for s in state.activation.steps if s.kind not in ("move", "buy_move"))
        return _activation(state, steps=steps, lapsed=True, tower_after=False, tower_before=False)

    @evolves(ev.CombatArose)
    def combat_arose(self, state: State, e: ev.CombatArose) -> State:
        return replace(state, combat=Combat(e.space, e.attacker, e.defender))

    @evolves(ev.ToshiRanboEntered)
    def toshi_ranbo_entered(self, state: State, e: ev.ToshiRanboEntered) -> State:
        return replace(state, taken=True)

    @evolves(ev.BuildingBuilt)
    def building_built(self, state: State, e: ev.BuildingBuilt) -> State:
        player = state.players[e.seat]
        state = _player(
            state,
            e.seat,
            buildings=(*player.buildings, (e.building, e.space)),
            wood=player.wood - e.cost,
        )
        return _lapse_tower(state)

    @evolves(ev.TacticBought)
    def tactic_bought(self, state: State, e: ev.TacticBought) -> State:
        player = state.players[e.seat]
        hand = _remove(player.hand, e.tactic) if e.tactic in player.hand else player.hand
        state = _player(
            state, e.seat, tactics=(*player.tactics, e.tactic), hand=hand, koku=player.koku - e.cost
        )
        return _lapse_tower(state)

    @evolves(ev.HeroRecruited)
    def hero_recruited(self, state: State, e: ev.HeroRecruited) -> State:
        player = state.players[e.seat]
        return replace(_player(state, e.seat, heroes=(*player.heroes, (e.hero, e.space))), card="")

    @evolves(ev.SpecialOrderTaken)
    def special_order_taken(self, state: State, e: ev.SpecialOrderTaken) -> State:
        player = state.players[e.seat]
        columns = list(player.columns)
        columns[e.column] = (e.card, *columns[e.column])
        state = _player(state, e.seat, columns=tuple(columns), specials=(*player.specials, e.card))
        return replace(state, card="")

    @evolves(ev.TributeDecided)
    def tribute_decided(self, state: State, e: ev.TributeDecided) -> State:
        state = _add(state, e.seat, "influence", -e.amount) if e.amount else state
        if e.paid:
            return state
        assert state.combat is not None
        ignored = list(state.combat.ignored)
        ignored[_side(state.combat, e.seat)] = True
        return _combat(state, ignored=tuple(ignored))

    @evolves(ev.HeroRode)
    def hero_rode(self, state: State, e: ev.HeroRode) -> State:
        return _move_heroes(state, e.seat, (e.hero,), e.to)

    @evolves(ev.TroopAdded)
    def troop_added(self, state: State, e: ev.TroopAdded) -> State:
        return _troops(state, e.seat, {e.space: 1}, -1)

    @evolves(ev.DiceThrown)
    def dice_thrown(self, state: State, e: ev.DiceThrown) -> State:
        return _combat(state, roller=e.seat, dice=e.faces, rerolls=e.rerolls)

    @evolves(ev.DiceRerolled)
    def dice_rerolled(self, state: State, e: ev.DiceRerolled) -> State:
        assert state.combat is not None
        dice = _remove_all(state.combat.dice, e.old) + e.new
        return _combat(state, dice=tuple(sorted(dice)), rerolls=state.combat.rerolls - 1)

    @evolves(ev.RerollsStopped)
    def rerolls_stopped(self, state: State, e: ev.RerollsStopped) -> State:
        return _combat(state, rerolls=0)

    @evolves(ev.DiceKept)
    def dice_kept(self, state: State, e: ev.DiceKept) -> State:
        assert state.combat is not None
        kept = list(state.combat.kept)
        kept[_side(state.combat, e.seat)] = e.faces
        return _combat(state, kept=(kept[0], kept[1]), dice=(), rerolls=0, roller=NOBODY)

    @evolves(ev.DiceSwapped)
    def dice_swapped(self, state: State, e: ev.DiceSwapped) -> State:
        assert state.combat is not None
        combat = state.combat
        side = _side(combat, e.seat)
        mine = tuple(sorted((*_remove(combat.kept[side], e.mine), e.theirs)))
        theirs = tuple(sorted((*_remove(combat.kept[1 - side], e.theirs), e.mine)))
        kept = (mine, theirs) if side == 0 else (theirs, mine)
        return _combat(state, kept=kept)

    @evolves(ev.SwapDeclined)
    def _noop(self, state: State, e: Event) -> State:
        return state

    @evolves(ev.CombatResolved)
    def combat_resolved(self, state: State, e: ev.CombatResolved) -> State:
        assert state.combat is not None
        combat = state.combat
        attacker, defender = combat.attacker, combat.defender
        state = _troops(state, attacker, {e.space: -e.deaths[0]}, e.deaths[0])
        state = _troops(state, defender, {e.space: -e.deaths[1]}, e.deaths[1])
        state = _player(state, attacker, kills=state.players[attacker].kills + e.deaths[1])
        state = _player(state, defender, kills=state.players[defender].kills + e.deaths[0])
        if e.winner == defender:
            state = _player(state, defender, defended=state.players[defender].defended + 1)
        return _combat(state, resolved=True, winner=e.winner, loser=e.loser)

    @evolves(ev.ArmyRetreated)
    def army_retreated(self, state: State, e: ev.ArmyRetreated) -> State:
        state = _troops(state, e.seat, {e.origin: -e.troops, e.to: e.troops})
        return _move_heroes(state, e.seat, e.heroes, e.to)

    @evolves(ev.HeroPlaced)
    def hero_placed(self, state: State, e: ev.HeroPlaced) -> State:
        return _move_heroes(state, e.seat, (e.hero,), e.space)

    @evolves(ev.TokenStolen)
    def token_stolen(self, state: State, e: ev.TokenStolen) -> State:
        victim = state.players[e.victim]
        state = _player(state, e.victim, tokens=_remove(victim.tokens, e.token))
        thief = state.players[e.seat]
        if e.kept:
            state = _player(state, e.seat, tokens=(*thief.tokens, e.token), steals=thief.steals + 1)
        else:
            state = replace(
                _player(state, e.seat, steals=thief.steals + 1), boxed=(*state.boxed, e.token)
            )
        return _reward(state, e.seat, e.reward, e.amount)

    @evolves(ev.CombatEnded)
    def combat_ended(self, state: State, e: ev.CombatEnded) -> State:
        return replace(state, combat=None)

    @evolves(ev.VillageClaimed)
    def village_claimed(self, state: State, e: ev.VillageClaimed) -> State:
        villages = tuple((s, "" if s == e.space else t) for s, t in state.villages)
        state = replace(state, villages=villages)
        if e.kept:
            state = _player(state, e.seat, tokens=(*state.players[e.seat].tokens, e.token))
        else:
            state = replace(state, boxed=(*state.boxed, e.token))
        return _reward(state, e.seat, e.reward, e.amount)

    @evolves(ev.UpgradeTaken)
    def upgrade_taken(self, state: State, e: ev.UpgradeTaken) -> State:
        upgrades = list(state.upgrades)
        upgrades[e.column] = e.seat
        return replace(state, upgrades=(upgrades[0], upgrades[1], upgrades[2], upgrades[3]))

    @evolves(ev.HoldMarkerPlaced)
    def hold_marker_placed(self, state: State, e: ev.HoldMarkerPlaced) -> State:
        return replace(state, holder=e.seat)

    @evolves(ev.HoldMarkerReturned)
    def hold_marker_returned(self, state: State, e: ev.HoldMarkerReturned) -> State:
        return replace(state, holder=NOBODY)

    @evolves(ev.AchievementEarned)
    def achievement_earned(self, state: State, e: ev.AchievementEarned) -> State:
        player = state.players[e.seat]
        objectives = (*player.objectives, e.objective) if e.objective else player.objectives
        return _player(
            state, e.seat, achievements=(*player.achievements, e.box), objectives=objectives
        )

    @evolves(ev.FortRefilled)
    def fort_refilled(self, state: State, e: ev.FortRefilled) -> State:
        return _troops(state, e.seat, {state.forts[e.seat]: e.troops}, -e.troops)

    @evolves(ev.TurnBegan)
    def turn_began(self, state: State, e: ev.TurnBegan) -> State:
        return replace(
            state, turn=e.seat, asked=e.seat, phase="choose", replaced=False, turns=state.turns + 1
        )

    @evolves(ev.TurnEnded)
    def turn_ended(self, state: State, e: ev.TurnEnded) -> State:
        return replace(state, activation=None, selection=None, combat=None, card="", noble=0)

    @evolves(ev.GameWon)
    def game_won(self, state: State, e: ev.GameWon) -> State:
        return replace(state, winner=e.seat, ending=e.box, phase="over", asked=NOBODY)
