"""Draw a seat's view of Ehre der Samurai for a terminal: houses, honour, alliances, hands."""

from __future__ import annotations

from gamehall.core.words import plural

from .cards import card
from .state import PROVINCES
from .view import PlayerView, View

LEGEND = (
    "Legend: values read honour/ki/strength. Card actions = ki / {ki} (at most {actions}); "
    "fight dice = strength / {per_die} (at most {dice}), an ally's strength added."
)


def short(token: str) -> str:
    """Return a card with its values in short: ``Warrior 0/1/2``."""
    found = card(token)
    if found is None:
        return token
    title = f"Daimyo {found.name}" if found.kind == "daimyo" else found.name
    if found.is_action:
        return title
    return f"{title} {found.honour}/{found.ki}/{found.strength}"


def _sums(tokens: list[str]) -> tuple[int, int, int]:
    cards = [c for c in (card(t) for t in tokens) if c is not None]
    return (
        sum(c.honour for c in cards),
        sum(c.ki for c in cards),
        sum(c.strength for c in cards),
    )


def _house(title: str, head: str, cards: tuple[str, ...], ronin: bool = False) -> str:
    honour, ki, strength = _sums([head, *cards])
    head_text = short(head).replace("Samurai", "Ronin", 1) if ronin else short(head)
    inside = " + " + ", ".join(short(c) for c in cards) if cards else ""
    return f"  {title:<14}{head_text}{inside}   [{honour}/{ki}/{strength}]"


def _player(view: View, p: PlayerView) -> list[str]:
    status = [f"{p.honour} honour", f"{plural(p.hand_size, 'card')} in hand"]
    if p.daimyo is None:
        status.append("Ronin")
    if p.ally is not None:
        status.append(f"allied with {PROVINCES[p.ally]}" + (" (leaving)" if p.leaving else ""))
    if view.shogun == p.seat:
        status.append("Shogun")
    marker = ">" if view.turn == p.seat and not view.winner else " "
    you = " (you)" if p.seat == view.seat else ""
    lines = [f"{marker} {p.name}{you}: {', '.join(status)}"]
    if p.daimyo is not None:
        lines.append(_house("Daimyo house", p.daimyo, p.daimyo_house))
    lines.append(_house("Samurai house", p.samurai, p.samurai_house, ronin=p.daimyo is None))
    heads = [p.samurai] + ([p.daimyo, *p.daimyo_house] if p.daimyo else [])
    _, ki, strength = _sums([*heads, *p.samurai_house])
    n = view.numbers
    actions = min(n.max_actions, ki // n.ki_per_action)
    actions_text = plural(actions, "card action")
    lines.append(f"  {'in all':<14}ki {ki} ({actions_text}), strength {strength}")
    return lines


def _window(view: View) -> list[str]:
    if view.fight is not None:
        f = view.fight
        if f.stage == "castle":
            return [f"{PROVINCES[f.winner]} chooses about the castle of {PROVINCES[f.loser]}."]
        what = f"Save Face for {PROVINCES[f.loser]}, who lost the fight to {PROVINCES[f.winner]}"
        waiting = [PROVINCES[s] for s, given in enumerate(f.answered) if not given]
    elif view.insult is not None:
        i = view.insult
        what = f"the Dishonour {PROVINCES[i.dishonourer]} played on {PROVINCES[i.victim]}"
        pairs = enumerate(zip(i.asked, i.answered, strict=True))
        waiting = [PROVINCES[s] for s, (asked, given) in pairs if asked and not given]
    else:
        return []
    return [f"Open: {what}; waiting for {', '.join(waiting) or 'nobody'}.", *_mine(view)]


def _mine(view: View) -> list[str]:
    if view.my_answer is None:
        return []
    answer = view.my_answer
    return [f"Your answer: {short(answer) if card(answer) else answer}."]


def render(view: View) -> str:
    """Return the board as ``view.seat`` may see it."""
    n = view.numbers
    if view.winner is not None:
        head = f"Ehre der Samurai, round {view.round}: {PROVINCES[view.winner]} has won."
    else:
        used = f"{plural(view.actions_used, 'card action')} used"
        declared = "declaration made" if view.declared else "no declaration yet"
        head = (
            f"Ehre der Samurai, round {view.round}: {PROVINCES[view.turn]}'s turn "
            f"({used}, {declared})"
        )
    top = short(view.discard[-1]) if view.discard else "empty"
    shogun = "in the middle" if view.shogun is None else f"held by {PROVINCES[view.shogun]}"
    table = (
        f"Target {view.options.honour_target} honour. Deck: {plural(view.deck_size, 'card')}. "
        f"Discard pile: {plural(len(view.discard), 'card')}, top {top}. Shogun: {shogun}."
    )
    lines = [head, table, ""]
    for p in view.players:
        lines.extend([*_player(view, p), ""])
    if view.seat is not None:
        hand = view.players[view.seat].hand or ()
        lines += [f"Your hand: {', '.join(short(c) for c in hand) or 'empty'}.", ""]
    window = _window(view)
    if window:
        lines += [*window, ""]
    legend = LEGEND.format(
        ki=n.ki_per_action, actions=n.max_actions, per_die=n.strength_per_die, dice=n.max_dice
    )
    return "\n".join([*lines, legend])
