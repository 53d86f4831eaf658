"""Magic in battle: hidden declarations and what each card does at its own timing.

The attacker declares first, then the defender (or both at once with the ``magic_order``
option); a declaration tells whether a side uses a card, the card itself stays hidden until
both are final (KAL-MAGIC-2 … 5). Harmony, Levy and Assassin cards act before the units are
fixed, Replace and Extra cards in the dice pools, Ward cards after the comparison, Keep cards
after the losses (KAL-CARD-1 … 7).
"""

from __future__ import annotations

from collections.abc import Sequence

from gamehall.core import Command, Emitter, IllegalCommand

from .commands import (
    AssassinateUnit,
    DeclareMagic,
    FinishMagic,
    LevyUnit,
    RestoreUnit,
    ShiftUnit,
)
from .components import Catalogue, MagicCard, kind_of
from .events import (
    MagicDeclared,
    MagicFinished,
    MagicInEffect,
    MagicRevealed,
    UnitAssassinated,
    UnitPlaced,
    UnitShifted,
    UnitsRestored,
)
from .state import NOBODY, Battle, State
from .world import first_of_kind, neighbours, room

BEFORE_UNITS = ("harmony", "levy", "assassinate")
HARMONY_SHIFTS = 8  # ours: enough to swap two full tiles; keeps a turn finite
PASS = DeclareMagic(card="")
FINISH = FinishMagic()


def declaring(state: State) -> list[int]:
    """Return the seats that owe a magic declaration now (KAL-MAGIC-2)."""
    battle = state.battle
    if battle is None or battle.step != "declare":
        return []
    open_sides = [s for s in (0, 1) if not battle.declared[s]]
    if state.options.magic_order == "attacker-first":
        open_sides = open_sides[:1]
    return [battle.seats[s] for s in open_sides]


def settle_declarations(em: Emitter[State]) -> bool:
    """Pass for sides without a card, reveal once both are final; return whether revealed.

    Rule KAL-MAGIC-5.
    """
    while True:
        seats = [s for s in declaring(em.state) if not em.state.hands[s]]
        if not seats:
            break
        for seat in seats:
            em.emit(MagicDeclared(seat=seat, uses=False))
    battle = em.state.battle
    assert battle is not None
    if not all(battle.declared):
        return False
    em.emit(MagicRevealed(attacker=battle.cards[0], defender=battle.cards[1]))
    return True


def keep_allowed(state: State, battle: Battle, seat: int) -> bool:
    """Return whether a Keep card may be declared: defending one's own Castle (KAL-CARD-5)."""
    side = battle.seats.index(seat)
    return side == 1 and state.castles.get(battle.tiles[1], NOBODY) == seat


def declarations(catalogue: Catalogue, state: State, seat: int) -> list[Command]:
    """Return a seat's possible declarations: pass, or one card of its hand."""
    battle = state.battle
    if battle is None or seat not in declaring(state):
        return []
    out: list[Command] = [PASS]
    for card in state.hands[seat]:
        if catalogue.card(card).effect != "keep" or keep_allowed(state, battle, seat):
            out.append(DeclareMagic(card=card))
    return out


def declare(catalogue: Catalogue, em: Emitter[State], seat: int, card: str) -> None:
    """Record a seat's declaration; it is final at once (KAL-MAGIC-3, 4)."""
    state = em.state
    battle = state.battle
    if battle is None or seat not in battle.seats:
        raise IllegalCommand("magic is declared only in a battle you fight", "KAL-MAGIC-1")
    side = battle.seats.index(seat)
    if battle.declared[side] or battle.step != "declare":
        raise IllegalCommand(
            "your magic declaration is final and can no longer change", "KAL-MAGIC-4"
        )
    if seat not in declaring(state):
        raise IllegalCommand("the attacker declares magic first", "KAL-MAGIC-2")
    if card and card not in state.hands[seat]:
        raise IllegalCommand("that magic card is not in your hand", "KAL-MAGIC-3")
    if card and catalogue.card(card).effect == "keep" and not keep_allowed(state, battle, seat):
        raise IllegalCommand("this card works only defending your own Castle", "KAL-CARD-5")
    em.emit(MagicDeclared(seat=seat, uses=bool(card), card=card or None))


def _card(catalogue: Catalogue, battle: Battle, side: int) -> MagicCard | None:
    card = battle.cards[side]
    return catalogue.card(card) if card else None


def start_effects(catalogue: Catalogue, em: Emitter[State], first: int) -> bool:
    """Start the next card that acts before the units are fixed; return whether one waits.

    Rule KAL-CARD-1.
    """
    battle = em.state.battle
    assert battle is not None
    for side in range(first, 2):
        card = _card(catalogue, battle, side)
        if card is None or card.effect not in BEFORE_UNITS:
            continue
        left = HARMONY_SHIFTS if card.effect == "harmony" else card.count
        step = MagicInEffect(
            seat=battle.seats[side], card=battle.cards[side], side=side, step="effect", left=left
        )
        if _options(catalogue, em.state, card, side, battle.seats[side]):
            em.emit(step)
            return True
    return False


def start_keep(catalogue: Catalogue, em: Emitter[State]) -> bool:
    """Start the defender's Keep card after the losses; return whether it waits (KAL-CARD-5)."""
    battle = em.state.battle
    assert battle is not None
    card = _card(catalogue, battle, 1)
    if card is None or card.effect != "keep" or not battle.killed[1]:
        return False
    seat = battle.seats[1]
    left = min(card.count, len(battle.killed[1]))
    em.emit(MagicInEffect(seat=seat, card=battle.cards[1], side=1, step="keep", left=left))
    return True


def effect_choices(catalogue: Catalogue, state: State, seat: int) -> list[Command]:
    """Return what the seat whose card is in effect may do, finishing included."""
    battle = state.battle
    if battle is None or battle.step not in ("effect", "keep"):
        return []
    side = battle.effect_side
    card = _card(catalogue, battle, side)
    if card is None or battle.seats[side] != seat:
        return []
    return [*_options(catalogue, state, card, side, seat), FINISH]


def _options(
    catalogue: Catalogue, state: State, card: MagicCard, side: int, seat: int
) -> list[Command]:
    battle = state.battle
    assert battle is not None
    own, enemy = battle.tiles[side], battle.tiles[1 - side]
    if card.effect == "levy":
        if room(catalogue, state, own) <= 0 or not state.controls(seat, own):
            return []
        return [LevyUnit(kind=k) for k in card.units if first_of_kind(state.reserve[seat], k)]
    if card.effect == "assassinate":
        targets = [u for u in state.board[enemy] if kind_of(u) not in ("crown", "general")]
        return [AssassinateUnit(unit=u) for u in _one_of_a_kind(state, targets)]
    if card.effect == "keep":
        if room(catalogue, state, own) <= 0:
            return []
        return [RestoreUnit(unit=u) for u in _one_of_a_kind(state, battle.killed[side])]
    if card.effect == "harmony":
        return _shifts(catalogue, state, seat, own, enemy)
    return []


def _one_of_a_kind(state: State, units: Sequence[str]) -> list[str]:
    """Return the first of each group of units that differ only by their copy number."""
    seen: dict[tuple[str, bool], str] = {}
    for unit in units:
        copies = unit.rpartition("-")[0] if unit[-1:].isdigit() else unit  # realm/kind
        seen.setdefault((copies, unit in state.upgraded), unit)
    return list(seen.values())


def _shifts(catalogue: Catalogue, state: State, seat: int, own: int, enemy: int) -> list[Command]:
    out: list[Command] = []
    near = [t for t in neighbours(catalogue, state, own) if t != enemy and state.controls(seat, t)]
    if state.holder[own] == seat:
        for to in near:
            if room(catalogue, state, to) > 0:
                out.extend(ShiftUnit(unit=u, to=to) for u in state.board[own])
    if room(catalogue, state, own) > 0 and state.controls(seat, own):
        for origin in near:
            if state.holder[origin] == seat:
                out.extend(ShiftUnit(unit=u, to=own) for u in state.board[origin])
    return out


def use_effect(catalogue: Catalogue, em: Emitter[State], seat: int, command: Command) -> None:
    """Apply one use of the card in effect, finishing it when nothing is left to do (KAL-CARD-1)."""
    state = em.state
    battle = state.battle
    choices = effect_choices(catalogue, state, seat)
    if battle is None or not choices:
        raise IllegalCommand("no magic card of yours is in effect now", "KAL-CARD-1")
    card_id = battle.cards[battle.effect_side]
    if command not in choices:
        raise IllegalCommand(_refusal(command), _rule(catalogue.card(card_id)))
    if isinstance(command, FinishMagic):
        em.emit(MagicFinished(seat=seat, card=card_id))
        return
    em.emit(_effect_event(state, battle, seat, command))
    after = em.state.battle
    assert after is not None
    if after.effect_left <= 0 or len(effect_choices(catalogue, em.state, seat)) == 1:
        em.emit(MagicFinished(seat=seat, card=card_id))


def _effect_event(
    state: State, battle: Battle, seat: int, command: Command
) -> UnitPlaced | UnitAssassinated | UnitsRestored | UnitShifted:
    side = battle.effect_side
    own, enemy = battle.tiles[side], battle.tiles[1 - side]
    if isinstance(command, LevyUnit):
        unit = first_of_kind(state.reserve[seat], command.kind) or ""
        return UnitPlaced(seat=seat, unit=unit, tile=own, cause="levy")
    if isinstance(command, AssassinateUnit):
        return UnitAssassinated(seat=seat, unit=command.unit, owner=state.holder[enemy])
    if isinstance(command, RestoreUnit):
        return UnitsRestored(seat=seat, units=(command.unit,), tile=own)
    assert isinstance(command, ShiftUnit)
    origin = state.tile_of(command.unit)
    return UnitShifted(seat=seat, unit=command.unit, origin=origin, to=command.to)


def _refusal(command: Command) -> str:
    if isinstance(command, LevyUnit):
        return f"no {command.kind} can be levied onto your battle tile"
    if isinstance(command, AssassinateUnit):
        return "only an enemy unit in this battle, other than a Crown or General, can be killed"
    if isinstance(command, RestoreUnit):
        return "only your units killed in this battle can come back, with room on the Castle"
    if isinstance(command, ShiftUnit):
        return "that move does not stay between two adjacent tiles you control, with room"
    return "your magic card does not do that"


def _rule(card: MagicCard) -> str:
    return {
        "harmony": "KAL-CARD-2",
        "levy": "KAL-CARD-3",
        "keep": "KAL-CARD-5",
        "assassinate": "KAL-CARD-6",
    }.get(card.effect, "KAL-CARD-1")
