"""River of Gold in words: components, commands, clans, menu headings and the ending.

Every function reads a seat's view (the state with hidden cards masked), so words never tell
what the seat may not see. Components are named by what they are and do ("the elder of Spine of
the World, who wants 2 silk, 1 rice and 2 porcelain"), never by id. Events are told in
``narration.py``.
"""

from __future__ import annotations

from gamehall.core import Command
from gamehall.core import words as core_words
from gamehall.core.words import plural

from . import commands as cmd
from .actions import row_index, wrap_die
from .components import (
    COMPONENTS,
    CUSTOMERS,
    GOODS,
    MASTERIES,
    RIVER_LENGTH,
    SPACES,
    TILES,
    TOUCHES,
    Reward,
)
from .hooks import Defaults
from .scoring import claimable_masteries
from .state import HIDDEN, Choice, State

CLANS = ("Crab", "Crane", "Scorpion", "Mantis")
TYPE_NAMES = {"port": "port", "market": "market", "manor": "manor", "shrine": "shrine"}
MERCHANT = {
    "influence-where-built": "1 influence in every region where you own a building",
    "points-per-customer": "1 point per customer you delivered to",
    "any-good": "a good of your choice",
    "sell-goods": "sell goods for 5 koku each",
    "favour": "1 favour",
    "koku": "3 koku",
}
NOBLE = {
    "market-any-good": "goods of your choice at markets",
    "koku-per-empty": "2 koku instead of 1 at empty spaces",
    "influence-per-region": "1 influence in each region it visits",
    "point-if-other": "1 point when it visits another clan's building",
    "free-shift": "may turn the die 1 up or down for free when it sails",
    "point-if-own": "1 point when it visits a building of yours",
}
GOALS = {
    "customer-kinds-3": "customers of 3 kinds",
    "customers-of-a-kind-2": "2 customers of one kind",
    "buildings-of-a-type-3": "3 buildings of one type",
    "building-types-4": "buildings of all 4 types",
    "flower": "the flower (11) on any influence track",
    "influence-everywhere": "influence in all 6 regions",
}
CHOICES = {
    "good": "take a good of its choice",
    "journey": "take 3 koku or a good for its journey",
    "discard": "discard a customer from its hand",
    "marker": "put its monk's second marker on a building",
    "upgrade": "choose the ship its imperial ship replaces",
    "sell": "sell goods for 5 koku each",
}
_COSTS = Defaults()


def listed(items: list[str], last: str = "and") -> str:
    """Return ``a``, ``a and b``, ``a, b and c``; ``nothing`` when there is none."""
    return core_words.listed(items, last, empty="nothing")


def clan(view: State, seat: int) -> str:
    """Return a seat's clan (ROG-SETUP-10).

    An expansion that gives clans otherwise names them in ``State.clans`` (``""``: the seat has
    none yet, "Seat N").
    """
    if view.clans:
        given = view.clans[seat] if seat < len(view.clans) else ""
        return given or f"Seat {seat + 1}"
    return CLANS[seat] if seat < len(CLANS) else f"Seat {seat + 1}"


def region_name(region: int) -> str:
    """Return a region by name and number: ``Kitsune Woods (4)``."""
    return f"{COMPONENTS.regions[region - 1].name} ({region})"


def reward_words(reward: Reward, region: int | None = None) -> str:
    """Return what a reward pays, in words: ``3 koku and 1 favour``."""
    parts = []
    if reward.koku:
        parts.append(f"{reward.koku} koku")
    if reward.koku_per:
        per = "customer you delivered to" if reward.koku_per == "customer" else reward.koku_per
        parts.append(f"1 koku per {per}" + ("" if per.startswith("customer") else " you own"))
    for good in GOODS:
        if getattr(reward, good):
            parts.append(f"{getattr(reward, good)} {good}")
    if reward.good:
        track = COMPONENTS.regions[region - 1].track_good if region else "the region's track good"
        parts.append(f"{reward.good} {track}")
    if reward.any_good:
        parts.append(plural(reward.any_good, "good") + " of your choice")
    if reward.favour:
        parts.append(f"{reward.favour} favour")
    if reward.influence:
        parts.append(f"{reward.influence} influence")
    if reward.points:
        parts.append(plural(reward.points, "point"))
    if reward.draw_discard:
        parts.append(f"draw {plural(reward.draw_discard, 'customer')} and discard as many")
    return listed(parts)


def tile_kind(tile_id: str) -> str:
    """Return a building's kind: ``market``, ``start shrine`` or ``imperial market``."""
    tile = TILES[tile_id]
    prefix = {0: "start ", 3: "imperial "}.get(tile.era, "")
    return prefix + TYPE_NAMES.get(tile.type, tile.type)


def tile_words(tile_id: str, region: int | None = None) -> str:
    """Return a building with what it pays: bonus, visitors' and owners' rewards."""
    tile = TILES[tile_id]
    parts = []
    if tile.era in (1, 2):
        parts.append(f"build bonus {tile.bonus} influence")
    parts.append(f"visitors get {reward_words(tile.visitor, region)}")
    if tile.era in (1, 2):
        parts.append(f"owners get {reward_words(tile.owner, region)}")
    return f"{tile_kind(tile_id)} ({'; '.join(parts)})"


def request_words(card: str) -> str:
    """Return the goods a customer wants: ``2 silk, 1 rice and 2 porcelain``."""
    request = CUSTOMERS[card].request
    return listed([f"{request[g]} {g}" for g in GOODS if request.get(g)])


def customer_name(card: str) -> str:
    """Return a customer by kind and region: ``the elder of Spine of the World (1)``."""
    if card == HIDDEN or card not in CUSTOMERS:
        return "a hidden customer"
    customer = CUSTOMERS[card]
    return f"the {customer.kind} of {region_name(customer.region)}"


def customer_ability(card: str, noble_bonus: str = "buildings") -> str:
    """Return what a customer does when delivered to, and at the end."""
    c = CUSTOMERS[card]
    region = COMPONENTS.regions[c.region - 1].name
    if c.kind == "artisan":
        return "2 influence there, builds there cost 2 koku less; end: 1 point per 3 goods"
    if c.kind == "elder":
        return f"end: doubles your region score in {region}"
    if c.kind == "merchant":
        return f"3 influence there; each journey: {MERCHANT.get(c.ability, c.ability)}; end: 1 point per 5 koku"
    if c.kind == "monk":
        whose = "one of your buildings" if c.ability == "own" else "another clan's building"
        return f"favour cap +1, 2 favour, a second marker on {whose}"
    if c.bonus in TYPE_NAMES:
        end = f"1 point per {c.bonus} you own"
    elif noble_bonus == "buildings":
        end = "1 point per building you own"
    else:
        end = (
            "1 point per building type you own"
            if c.bonus == "types"
            else ("1 point per region where you own a building")
        )
    return f"imperial ship; 2 influence there; imperial ship: {NOBLE.get(c.ability, c.ability)}; end: {end}"


def customer_words(card: str, view: State | None = None) -> str:
    """Return a customer with what it wants and what it pays."""
    if card == HIDDEN or card not in CUSTOMERS:
        return "a hidden customer"
    mode = view.noble_bonus if view is not None else "buildings"
    return f"{customer_name(card)}, wanting {request_words(card)} ({customer_ability(card, mode)})"


def mastery_words(mastery: str) -> str:
    """Return a mastery with its goal: ``Mastery of Air (customers of 3 kinds)``."""
    m = MASTERIES[mastery]
    return f"{m.name} ({GOALS.get(m.goal, m.goal)})"


def ship_name(view: State, seat: int, ship: int) -> str:
    """Return a ship by kind and place: ``your imperial ship on river space 4``."""
    player = view.players[seat]
    kind = "imperial ship" if player.royal == ship else "ship"
    return f"your {kind} on river space {player.ships[ship]}"


# -- commands ----------------------------------------------------------------------------------


def _source(choice: Choice | None) -> str:
    if choice is None or not choice.source or choice.kind == "journey":
        return ""
    return f" ({reason_words(choice.source)})"


def describe_command(command: Command, view: State, seat: int | None) -> str | None:
    """Describe one of the base game's commands for the seat that reads the menu."""
    me = view.turn if seat is None else seat
    player = view.players[me]
    choice = view.choices[0] if view.choices else None
    if isinstance(command, cmd.ShiftDie):
        face = wrap_die(player.die + command.by)
        return f"Pay 1 favour to turn the die from {player.die} to {face} ({COMPONENTS.regions[face - 1].name})"
    if isinstance(command, cmd.Build):
        return _build(view, me, command)
    if isinstance(command, cmd.Sail):
        return _sail(view, me, command)
    if isinstance(command, cmd.Deliver):
        mode = view.noble_bonus
        about = customer_ability(command.card, mode)
        return f"Deliver {request_words(command.card)} to {customer_name(command.card)} ({about})"
    if isinstance(command, cmd.TradeGoods):
        return f"Trade 2 {command.give} for 1 {command.take}"
    if isinstance(command, cmd.BuyFavour):
        lost = " (your favour is at its cap: the favour is lost)"
        return "Buy 1 favour for 5 koku" + (lost if player.favour >= player.favour_cap else "")
    if isinstance(command, cmd.EndTurn):
        claims = [
            f"{MASTERIES[m.mastery].name} ({plural(points, 'point')})"
            for m, points in claimable_masteries(view, me)
        ]
        claim = f", claim {listed(claims)}" if claims else ""
        return f"End your turn{claim} and roll the die"
    if isinstance(command, cmd.TakeGood):
        return f"Take 1 {command.good}{_source(choice)}"
    if isinstance(command, cmd.TakeKoku):
        return f"Take 3 koku{_source(choice)}"
    if isinstance(command, cmd.DiscardCustomer):
        return f"Discard {customer_words(command.card, view)}"
    if isinstance(command, cmd.PlaceMarker):
        return f"Put your second marker on {_building_at(view, command.space)}"
    if isinstance(command, cmd.UpgradeShip):
        return f"Replace {ship_name(view, me, command.ship)} by your imperial ship"
    if isinstance(command, cmd.SellGood):
        return f"Sell 1 {command.good} for 5 koku"
    if isinstance(command, cmd.StopSelling):
        return "Stop selling goods"
    return None


def _building_at(view: State, space: int) -> str:
    tile = view.tiles[space - 1]
    owners = [clan(view, s) for s in dict.fromkeys(view.markers[space - 1])]
    what = f"the {tile_kind(tile)}" if tile else "the empty space"
    whose = f", owned by {listed(owners)}" if owners else ""
    return f"{what} on space {space} in {region_name(SPACES[space].region)}{whose}"


def _build(view: State, seat: int, command: cmd.Build) -> str:
    index = row_index(view, command.slot)
    space = SPACES[command.space]
    cost = _COSTS.river_of_gold_build_cost(state=view, seat=seat, space=command.space)
    if index is None:
        return f"Build on space {command.space} from the empty row slot {command.slot + 1}"
    # The tile's rewards for visitors and owners are on the board's row; the build bonus is
    # what building pays at once.
    tile = TILES[view.row[index]]
    end = " and take 1 favour for the end slot" if command.slot == COMPONENTS.setup.row - 1 else ""
    return (
        f"Build the {tile_kind(view.row[index])} (build bonus {tile.bonus} influence) from row "
        f"slot {command.slot + 1} on space {command.space} in {region_name(space.region)} for "
        f"{cost} koku{end}"
    )


def _sail(view: State, seat: int, command: cmd.Sail) -> str:
    player = view.players[seat]
    die = wrap_die(player.die + command.shift)
    start = player.ships[command.ship]
    to = start + die
    journey = to > RIVER_LENGTH
    to = to - RIVER_LENGTH if journey else to
    turned = f" with the die turned to {die} for free" if command.shift else ""
    trip = " past the river's end (journey: 3 koku or a good)" if journey else ""
    spaces = ", ".join(map(str, TOUCHES[to]))
    ship = ship_name(view, seat, command.ship).replace(" on river space ", " from river space ")
    return f"Sail {ship}{turned} by {die}{trip} to river space {to}, visiting shore spaces {spaces}"


def command_group(command: Command, view: State, seat: int | None) -> str | None:
    """Head a menu by action: turning the die, building by region, sailing, delivering, …."""
    if isinstance(command, cmd.ShiftDie):
        return "Turn the die (1 favour)"
    if isinstance(command, cmd.Build):
        return f"Build in {region_name(SPACES[command.space].region)}"
    if isinstance(command, cmd.Sail):
        return "Sail"
    if isinstance(command, cmd.Deliver):
        return "Deliver"
    if isinstance(command, (cmd.TradeGoods, cmd.BuyFavour)):
        return "Trade (at any moment)"
    if isinstance(command, cmd.EndTurn):
        return "End the turn"
    if view.choices and isinstance(
        command,
        (cmd.TakeGood, cmd.TakeKoku, cmd.DiscardCustomer, cmd.PlaceMarker, cmd.UpgradeShip),
    ):
        return "Choose: " + CHOICES.get(view.choices[0].kind, view.choices[0].kind).replace(
            " its ", " your "
        )
    if isinstance(command, (cmd.SellGood, cmd.StopSelling)):
        return "Sell goods (merchant)"
    return None


# -- seats and the ending ----------------------------------------------------------------------


def seat_names(view: State) -> list[str]:
    """Name the seats by clan."""
    return [clan(view, seat) for seat in range(view.count)]


def ending(state: State) -> str:
    """Return why the winners won, in words (ROG-SCORE-6)."""
    if len(state.winners) > 1:
        return "tied on points and on favour left, they share the win"
    best = state.final[state.winners[0]] if state.final else 0
    tied = [s for s, score in enumerate(state.final) if score == best]
    if len(tied) > 1:
        return "tied on points, with the most favour left"
    return "the most points"


REASONS = {
    "turn the die": "turning the die",
    "trade": "a trade",
    "journey": "the journey",
    "end slot": "building from the row's end slot",
    "merchant": "a merchant",
    "merchant sale": "a merchant's sale",
    "monk": "a monk",
    "imperial ship": "the imperial ship",
    "imperial visit": "the imperial visit",
    "end of the game": "ending the game",
    "build bonus": "the build bonus",
    "noble": "a noble",
    "artisan": "an artisan",
    "deliver": "a delivery",
}


def reason_words(reason: str) -> str:
    """Return why something was paid or gained, naming components instead of their ids."""
    if reason in REASONS:
        return REASONS[reason]
    head, _, tail = reason.rpartition(" ")
    if head == "deliver" and tail in CUSTOMERS:
        return f"delivering to {customer_name(tail)}"
    if tail in CUSTOMERS:
        return customer_name(tail)
    if head == "mastery" and tail in MASTERIES:
        return MASTERIES[tail].name
    if head in ("visit space", "owner of space", "build on space") and tail.isdigit():
        verb = {
            "visit space": "visiting",
            "owner of space": "owning",
            "build on space": "building on",
        }
        return f"{verb[head]} space {tail}"
    if head == "influence track" and tail.isdigit():
        return f"step {tail} of an influence track"
    return reason
