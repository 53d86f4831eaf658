"""The three actions, trading and the end of a turn, decided into events (rule ids in docs)."""

from __future__ import annotations

from gamehall.core import IllegalCommand

from .components import COMPONENTS, CUSTOMERS, GOODS, RIVER_LENGTH, SPACES, TILES, request_of
from .effects import (
    Turn,
    draw_customers,
    gain,
    open_choice,
    owned,
    pay_owners,
    raise_influence,
    refill_row,
    royal_abilities,
    visit,
)
from .events import (
    BuildingBuilt,
    CustomerDelivered,
    DieRolled,
    DieShifted,
    EndTriggered,
    FavourCapRaised,
    GameEnded,
    ImperialVisitPaid,
    ShipSailed,
    TileDiscarded,
    TurnEnded,
)
from .scoring import claimable_masteries, final_scores, winners
from .state import State


def wrap_die(face: int) -> int:
    """Return a die face after turning past 6 or below 1 (ROG-TURN-1)."""
    return (face - 1) % 6 + 1


def shift_die(turn: Turn, seat: int, by: int) -> None:
    """Pay 1 favour to turn the die by ±1 (ROG-TURN-1)."""
    if turn.state.players[seat].favour < 1:
        raise IllegalCommand("you have no favour to turn the die", "ROG-TURN-1")
    gain(turn, seat, "turn the die", favour=-1)
    turn.emit(DieShifted(seat=seat, face=wrap_die(turn.state.players[seat].die + by)))


def row_index(state: State, slot: int) -> int | None:
    """Return the row index of a slot (tiles slide toward the end slot 3), or ``None``."""
    index = slot - (COMPONENTS.setup.row - len(state.row))
    return index if 0 <= index < len(state.row) else None


def check_build(turn: Turn, seat: int, space: int, slot: int) -> int:
    """Return the cost of a build, or refuse it with the rule it breaks."""
    state = turn.state
    if space not in SPACES:
        raise IllegalCommand(f"there is no shore space {space}", "ROG-BUILD-1")
    regions = turn.rules.hook.river_of_gold_build_regions(state=state, seat=seat)
    if SPACES[space].region not in regions:
        raise IllegalCommand(
            f"space {space} is in region {SPACES[space].region}; you may build in region "
            + " or ".join(map(str, regions)),
            "ROG-BUILD-1",
        )
    if state.tiles[space - 1] is not None:
        raise IllegalCommand(f"space {space} is already built on", "ROG-BUILD-1")
    if row_index(state, slot) is None:
        raise IllegalCommand(f"row slot {slot} holds no tile", "ROG-BUILD-3")
    cost: int = turn.rules.hook.river_of_gold_build_cost(state=state, seat=seat, space=space)
    if turn.state.players[seat].koku < cost:
        raise IllegalCommand(
            f"building on space {space} costs {cost} koku and you have {turn.state.players[seat].koku}",
            "ROG-BUILD-2",
        )
    return cost


def build(turn: Turn, seat: int, space: int, slot: int) -> None:
    """Pay, take a row tile, build it and move up the region's track (ROG-BUILD-1..5)."""
    cost = check_build(turn, seat, space, slot)
    index = row_index(turn.state, slot)
    assert index is not None
    tile = turn.state.row[index]
    if cost:
        gain(turn, seat, f"build on space {space}", koku=-cost)
    turn.emit(BuildingBuilt(seat=seat, space=space, tile=tile))
    if slot == COMPONENTS.setup.row - 1:
        gain(turn, seat, "end slot", favour=1)
    raise_influence(turn, seat, SPACES[space].region, TILES[tile].bonus, "build bonus")
    refill_row(turn)
    turn.rules.hook.river_of_gold_built(turn=turn, seat=seat, space=space)


def sail(turn: Turn, seat: int, ship: int, shift: int) -> None:
    """Sail a ship by the die, complete the journey if it passes the end, then visit (ROG-SAIL-*).

    Rule ROG-SAIL-1.
    """
    player = turn.state.players[seat]
    if not 0 <= ship < len(player.ships):
        raise IllegalCommand(f"you have no ship {ship}", "ROG-SAIL-1")
    royal = royal_abilities(turn.state, seat) if player.royal == ship else ()
    if shift and "free-shift" not in royal:
        raise IllegalCommand(
            "only an imperial ship with that noble may turn the die for free", "ROG-NOBLE-3"
        )
    if shift:
        turn.emit(DieShifted(seat=seat, face=wrap_die(player.die + shift)))
    to = player.ships[ship] + turn.state.players[seat].die
    journey = to > RIVER_LENGTH
    to = to - RIVER_LENGTH if journey else to
    turn.emit(ShipSailed(seat=seat, ship=ship, to=to, journey=journey))
    if journey:
        complete_journey(turn, seat)
    visit(turn, seat, to, royal)
    turn.rules.hook.river_of_gold_sailed(turn=turn, seat=seat, ship=ship, river=to)


def complete_journey(turn: Turn, seat: int) -> None:
    """Take 3 koku or a good, discard the end tile, trigger every merchant (ROG-JOURNEY-1, -2)."""
    open_choice(turn, seat, "journey", ("koku", *GOODS), "journey")
    if turn.state.row:
        turn.emit(TileDiscarded(tile=turn.state.row[-1]))
        refill_row(turn)
    for card in turn.state.players[seat].delivered:
        if CUSTOMERS[card].kind == "merchant":
            merchant_journey(turn, seat, CUSTOMERS[card].ability)


def merchant_journey(turn: Turn, seat: int, ability: str) -> None:
    """Apply one merchant's journey ability (ROG-MERCHANT-2)."""
    if ability == "influence-where-built":
        for region in sorted({SPACES[s].region for s in owned(turn.state, seat)}):
            raise_influence(turn, seat, region, 1, "merchant")
    elif ability == "points-per-customer":
        gain(turn, seat, "merchant", points=len(turn.state.players[seat].delivered))
    elif ability == "any-good":
        open_choice(turn, seat, "good", GOODS, "merchant")
    elif ability == "sell-goods":
        open_choice(turn, seat, "sell", (), "merchant")
    elif ability == "favour":
        gain(turn, seat, "merchant", favour=1)
    elif ability == "koku":
        gain(turn, seat, "merchant", koku=3)


def check_deliver(turn: Turn, seat: int, card: str) -> None:
    """Refuse a delivery the rules do not allow (ROG-DELIVER-1, -2)."""
    player = turn.state.players[seat]
    if card not in player.hand:
        raise IllegalCommand(f"{card} is not in your hand", "ROG-DELIVER-1")
    regions = turn.rules.hook.river_of_gold_deliver_regions(state=turn.state, seat=seat)
    if CUSTOMERS[card].region not in regions:
        raise IllegalCommand(
            f"{card} is a customer of region {CUSTOMERS[card].region}; your die allows region "
            + " or ".join(map(str, regions)),
            "ROG-DELIVER-1",
        )
    if any(have < need for have, need in zip(player.goods, request_of(card), strict=True)):
        raise IllegalCommand(f"you lack the goods {card} asks for", "ROG-DELIVER-2")


def deliver(turn: Turn, seat: int, card: str) -> None:
    """Pay the goods, apply the delivery ability, draw 2 and discard 1 (ROG-DELIVER-1..4)."""
    check_deliver(turn, seat, card)
    silk, rice, porcelain = request_of(card)
    gain(turn, seat, f"deliver {card}", silk=-silk, rice=-rice, porcelain=-porcelain)
    turn.emit(CustomerDelivered(seat=seat, card=card))
    DELIVERY[CUSTOMERS[card].kind](turn, seat, card)
    turn.rules.hook.river_of_gold_delivered(turn=turn, seat=seat, card=card)
    draw_customers(turn, seat, 2)
    if turn.state.players[seat].hand:
        open_choice(turn, seat, "discard", (), "deliver")


def deliver_monk(turn: Turn, seat: int, card: str) -> None:
    """Raise the favour cap, gain 2 favour, place a second marker (ROG-MONK-1, -2)."""
    caps = turn.rules.hook.river_of_gold_caps(state=turn.state, seat=seat)
    if turn.state.players[seat].favour_cap < caps.favour_cap:
        turn.emit(FavourCapRaised(seat=seat, cap=turn.state.players[seat].favour_cap + 1))
    gain(turn, seat, "monk", favour=2)
    spaces = monk_spaces(turn.state, seat, CUSTOMERS[card].ability)
    if spaces:
        open_choice(turn, seat, "marker", tuple(map(str, spaces)), card)


def monk_spaces(state: State, seat: int, whose: str) -> tuple[int, ...]:
    """Return the buildings where a monk's second marker may go (ROG-MONK-2)."""
    result = []
    for space in range(1, 31):
        marks = state.markers[space - 1]
        if not marks or len(marks) >= 2:
            continue
        if (whose == "own") == (marks[0] == seat):
            result.append(space)
    return tuple(result)


def deliver_merchant(turn: Turn, seat: int, card: str) -> None:
    """Gain 3 influence in the merchant's region (ROG-MERCHANT-1)."""
    raise_influence(turn, seat, CUSTOMERS[card].region, 3, "merchant")


def deliver_noble(turn: Turn, seat: int, card: str) -> None:
    """Bring in the imperial ship for the first noble, then gain 2 influence (ROG-NOBLE-1)."""
    if turn.state.players[seat].royal is None:
        open_choice(turn, seat, "upgrade", ("0", "1"), card)
    raise_influence(turn, seat, CUSTOMERS[card].region, 2, "noble")


def deliver_artisan(turn: Turn, seat: int, card: str) -> None:
    """Gain 2 influence in the artisan's region (ROG-ARTISAN-1)."""
    raise_influence(turn, seat, CUSTOMERS[card].region, 2, "artisan")


def deliver_elder(turn: Turn, seat: int, card: str) -> None:
    """Mark the elder's region; its score doubles at the end (ROG-ELDER-1)."""


DELIVERY = {
    "monk": deliver_monk,
    "merchant": deliver_merchant,
    "noble": deliver_noble,
    "artisan": deliver_artisan,
    "elder": deliver_elder,
}


def trade_goods(turn: Turn, seat: int, give: str, take: str) -> None:
    """Trade 2 of one good for 1 of another (ROG-TRADE-1)."""
    if give == take:
        raise IllegalCommand("trade a good for a different one", "ROG-TRADE-1")
    if turn.state.players[seat].goods[GOODS.index(give)] < 2:
        raise IllegalCommand(f"you need 2 {give} to trade", "ROG-TRADE-1")
    gain(turn, seat, "trade", **{give: -2})
    gain(turn, seat, "trade", **{take: 1})


def buy_favour(turn: Turn, seat: int) -> None:
    """Trade 5 koku for 1 favour (ROG-TRADE-2)."""
    player = turn.state.players[seat]
    if player.koku < 5:
        raise IllegalCommand(f"favour costs 5 koku and you have {player.koku}", "ROG-TRADE-2")
    # At the cap the trade is still legal and the favour is lost, as any gain there (ROG-TRADE-3).
    gain(turn, seat, "trade", koku=-5)
    gain(turn, seat, "trade", favour=1)


def end_turn(turn: Turn, seat: int, face: int | None = None) -> None:
    """Claim masteries, roll (or set) the die, run the visit or the end (ROG-TURN-3, -4)."""
    for mastery, points in claimable_masteries(turn.state, seat):
        turn.emit(mastery)
        gain(turn, seat, f"mastery {mastery.mastery}", points=points)
    turn.rules.hook.river_of_gold_turn_ended(turn=turn, seat=seat)
    turn.emit(DieRolled(seat=seat, face=turn.rng.randint(1, 6) if face is None else face))
    if turn.state.visit_due:
        imperial_visit(turn)
    if turn.state.end_due and turn.state.ended_by is None:
        gain(
            turn,
            seat,
            "end of the game",
            points=turn.rules.hook.river_of_gold_end_bonus(state=turn.state, seat=seat),
        )
        turn.emit(EndTriggered(seat=seat))
    turn.emit(TurnEnded(seat=seat, next=(seat + 1) % turn.state.count))
    if turn.state.ended_by is not None and turn.state.turns_left == 0:
        scores = final_scores(turn.state, turn.rules.hook)
        turn.emit(GameEnded(scores=scores, winners=winners(turn.state, scores)))


def imperial_visit(turn: Turn) -> None:
    """Pay every owner of every building, as if a ship visited it (ROG-VISIT-1)."""
    for space in range(1, 31):
        pay_owners(turn, space, "imperial visit")
    turn.emit(ImperialVisitPaid())
