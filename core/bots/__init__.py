"""Bots: programs that choose a seat's command from what that seat may know.

``RandomBot`` picks uniformly; ``MCTSBot`` searches the rules (UCT) in games where a seat
sees everything; ``ISMCTSBot`` searches states sampled from the seat's view
(``Rules.sample``), so it plays games with hidden information without peeking. Bots are
named in words by :func:`parse_bot` (``mcts:2000``) and made by :func:`make_bot`; the Hall
plays bot seats of live matches with a :class:`BotDriver`.
"""

from .base import Bot, BotError, RandomBot
from .mcts import ISMCTSBot, MCTSBot, SearchBot, can_sample
from .spec import BotSpec, check_bot, make_bot, parse_bot, parse_role

__all__ = [
    "Bot",
    "BotError",
    "BotSpec",
    "ISMCTSBot",
    "MCTSBot",
    "RandomBot",
    "SearchBot",
    "can_sample",
    "check_bot",
    "make_bot",
    "parse_bot",
    "parse_role",
]
