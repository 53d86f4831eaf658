"""The bots the lobby offers, by strength in words: easy, medium, strong.

Easy is the random bot. Medium and strong search (MCTS for a game whose seats see
everything, IS-MCTS from the seat's own view where the game hides information), with an
iteration budget that suits the game: a game's decisions cost very different times (one
IS-MCTS iteration took about 0.08 ms in Toy Battle, 0.16 ms in River of Gold, 0.6 ms in Ehre
der Samurai, 1.4 ms in Kaladan and 15 ms in Gunsen, over a whole match against the random bot
on a busy two-core machine), so the budgets below keep a medium bot's decision near a tenth of
a second and a strong one's near half a second there. A game not listed gets the default.
"""

from __future__ import annotations

from gamehall.core.bots.spec import BotSpec, parse_bot

STRENGTHS = ("easy", "medium", "strong")
WORDS = {
    "easy": "a bot, easy (plays at random)",
    "medium": "a bot, medium",
    "strong": "a bot, strong (thinks longer)",
}
# Iterations per decision: (medium, strong).
BUDGETS: dict[str, tuple[int, int]] = {
    "tictactoe": (300, 5000),
    "toy-battle": (1200, 6000),
    "river-of-gold": (600, 3000),
    "gunsen": (8, 40),
    "kaladan": (80, 400),
    "ehre-der-samurai": (200, 800),
}
DEFAULT = (200, 1000)


def spec(game: str, strength: str, hidden: bool) -> BotSpec:
    """Return the bot of a strength for a game (``hidden``: the game hides information)."""
    if strength == "easy":
        return BotSpec("random")
    medium, strong = BUDGETS.get(game, DEFAULT)
    kind = "ismcts" if hidden else "mcts"
    return parse_bot(f"{kind}:{medium if strength == 'medium' else strong}")


def choices() -> list[tuple[str, str]]:
    """Return (role, words) of each strength, as a seat's select offers them."""
    return [("bot" if s == "easy" else f"bot:{s}", WORDS[s]) for s in STRENGTHS]


def strength_of(role: str) -> str | None:
    """Return the strength a seat's role asks for (``None``: not a bot)."""
    if role == "bot":
        return "easy"
    if role.startswith("bot:") and role[4:] in STRENGTHS:
        return role[4:]
    return None


def named(game: str, bot: str, hidden: bool) -> str:
    """Return a bot as the page names it: its strength when it is one the lobby offers."""
    for strength in STRENGTHS:
        if str(spec(game, strength, hidden)) == bot:
            return f"{strength} bot"
    return f"bot ({bot})"
