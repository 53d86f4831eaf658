"""The human mode: a match in the terminal, with bots in the seats no person takes.

Each awaited seat is played in turn: a bot answers at once; a person sees the board as that
seat may see it, the decision asked, and the numbered legal commands, and answers with a
number, a command's text or its JSON. Several people share the terminal (hot-seat); in a game
with hidden information the terminal is handed over before each person's board is shown.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

import anyio
from gamehall.core import Command, GamehallError, RandomBot
from gamehall.core.hall import Hall, SeatView

QUIT = frozenset({"q", "quit", "exit"})
HELP = frozenset({"?", "h", "help"})
CLEAR = "\033[2J\033[H"


def command_id(role: str, seat: int) -> str:
    """Return a fresh command id that also records who chose the command (for ``resume``)."""
    return f"{role}-{seat}-{secrets.token_hex(6)}"


def roles_from_log(records: Sequence[Any], players: int) -> dict[int, str]:
    """Return the role each seat last played with, read from the command ids of a match."""
    roles: dict[int, str] = {}
    for record in records:
        meta = record.meta
        if meta.command is None or meta.seat is None or not meta.command_id:
            continue
        role = meta.command_id.split("-", 1)[0]
        if role in ("human", "bot") and 0 <= meta.seat < players:
            roles[meta.seat] = role
    return roles


def default_roles(players: int) -> dict[int, str]:
    """Return seat 0 for a person and bots everywhere else."""
    return {seat: "human" if seat == 0 else "bot" for seat in range(players)}


class Terminal:
    """The person's side of the game: lines in, text out."""

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self.stdin = stdin
        self.stdout = stdout
        isatty = getattr(stdout, "isatty", None)
        self.tty = bool(isatty and isatty())

    def say(self, text: str = "") -> None:
        """Print text."""
        self.stdout.write(text + "\n")
        self.stdout.flush()

    async def ask(self, prompt: str) -> str | None:
        """Print a prompt and return the answer, or ``None`` when the input has ended."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = await anyio.to_thread.run_sync(self.stdin.readline, abandon_on_cancel=True)
        if not line:
            self.say()
            return None
        if not getattr(self.stdin, "isatty", lambda: False)():
            self.stdout.write(line if line.endswith("\n") else line + "\n")  # echo piped input
        return str(line).strip()


class HumanGame:
    """Play one match of a running hall until it ends or the person leaves."""

    def __init__(
        self, hall: Hall, match: str, roles: Mapping[int, str], seed: int, term: Terminal
    ) -> None:
        self.hall = hall
        self.match = match
        self.roles = dict(roles)
        self.seed = seed
        self.term = term
        self.ruleset = hall.ruleset(match)
        self.humans = sorted(s for s, r in self.roles.items() if r == "human")
        self.handover = len(self.humans) > 1 and self.ruleset.game.hidden_information
        self._last_human: int | None = None
        self._last_awaiting: frozenset[int] = frozenset()

    async def run(self) -> int:
        """Play until the match is over (0) or the person quits (0, the match stays stored)."""
        self._introduce()
        while True:
            spectator = self.hall.view(self.match, None)
            if spectator.outcome is not None:
                self._finish(spectator)
                return 0
            if not await self._offer_free_actions(spectator.awaiting):
                return self._saved()
            seat = self._next_seat(spectator.awaiting)
            if self.roles.get(seat) == "bot":
                await self._bot_turn(seat)
            elif not await self._human_turn(seat):
                return self._saved()

    def _saved(self) -> int:
        self.term.say(f"match {self.match} saved: continue with 'gamehall resume {self.match}'")
        return 0

    async def _offer_free_actions(self, awaiting: Mapping[int, Any]) -> bool:
        """Offer each person who is not awaited their free actions, once each time the awaited
        seats change; return ``False`` when the person quits."""
        now = frozenset(awaiting)
        if now == self._last_awaiting:
            return True
        self._last_awaiting = now
        for seat in self.humans:
            if seat not in awaiting and self.hall.view(self.match, seat).legal:
                if not await self._interject(seat, awaiting):
                    return False
        return True

    async def _interject(self, seat: int, awaiting: Mapping[int, Any]) -> bool:
        others = ", ".join(f"seat {s}" for s in sorted(awaiting))
        if self.handover and self._last_human != seat:
            if self.term.tty:
                self.term.say(CLEAR)
            answer = await self.term.ask(
                f"seat {seat} may act out of turn before {others} goes on: pass the terminal "
                f"to seat {seat}, then press Enter "
            )
            if answer is None or answer.lower() in QUIT:
                return False
            self._last_human = seat
        while True:
            seen = self.hall.view(self.match, seat)
            if not seen.legal:
                return True
            self.term.say()
            self.term.say(f"seat {seat}, you may act out of turn before {others} goes on:")
            for number, command in enumerate(seen.legal, start=1):
                self.term.say(f"  {number:>2}. {self.ruleset.describe(command, seen.view, seat)}")
            answer = await self.term.ask(f"seat {seat} (Enter to go on)> ")
            if answer is None or answer.lower() in QUIT:
                return False
            if not answer:
                return True
            try:
                command = self.choose(answer, seat, seen)
                await self.hall.send(self.match, seat, command, command_id("human", seat))
            except GamehallError as exc:
                self.term.say(f"refused: {exc}")

    def _introduce(self) -> None:
        info = self.hall.info(self.match)
        name = "+".join([info.game, *info.expansions])
        seats = ", ".join(f"seat {s}: {self.roles.get(s, 'bot')}" for s in range(info.players))
        self.term.say(f"match {self.match} ({name}; {seats})")

    def _next_seat(self, awaiting: Mapping[int, Any]) -> int:
        seats = sorted(awaiting)
        bots = [s for s in seats if self.roles.get(s) != "human"]
        return bots[0] if bots else seats[0]

    async def _bot_turn(self, seat: int) -> None:
        seen = self.hall.view(self.match, seat)
        bot = RandomBot(f"bot:{self.seed}:{seat}:{seen.seq}")
        command = bot.choose(seat, seen.legal, lambda: seen.view)
        text = self.ruleset.describe(command, seen.view, seat)
        await self.hall.send(self.match, seat, command, command_id("bot", seat))
        self.term.say(f"seat {seat} (bot): {text}")

    async def _human_turn(self, seat: int) -> bool:
        if self.handover and self._last_human != seat:
            if self.term.tty:
                self.term.say(CLEAR)
            answer = await self.term.ask(f"pass the terminal to seat {seat}, then press Enter ")
            if answer is None or answer.lower() in QUIT:
                return False
        self._last_human = seat
        seen = self.hall.view(self.match, seat)
        self._show(seat, seen)
        while True:
            answer = await self.term.ask(f"seat {seat}> ")
            if answer is None or answer.lower() in QUIT:
                return False
            if answer.lower() in HELP:
                self._help()
                continue
            if not answer:
                self._show(seat, seen)
                continue
            try:
                command = self.choose(answer, seat, seen)
                await self.hall.send(self.match, seat, command, command_id("human", seat))
            except GamehallError as exc:
                self.term.say(f"refused: {exc}")
                continue
            return True

    def _show(self, seat: int, seen: SeatView) -> None:
        term = self.term
        term.say()
        term.say(self.ruleset.render(seen.view, seat))
        decision = seen.awaiting.get(seat)
        if decision is not None:
            term.say(f"seat {seat}, {decision.prompt or decision.kind}:")
        for number, command in enumerate(seen.legal, start=1):
            term.say(f"  {number:>2}. {self.ruleset.describe(command, seen.view, seat)}")

    def _help(self) -> None:
        self.term.say(
            "answer with a number from the list, a command's text, or its JSON "
            '({"type": ...}); an empty line shows the board again; quit saves and leaves'
        )

    def choose(self, answer: str, seat: int, seen: SeatView) -> Command:
        """Return the command an answer names: its number, its text, or its JSON."""
        legal = seen.legal
        if answer.isdigit():
            number = int(answer)
            if not 1 <= number <= len(legal):
                raise GamehallError(f"{number} is not in the list (1 to {len(legal)})")
            return legal[number - 1]
        if answer.startswith("{"):
            return self.hall.registry.codec.command_from_json(answer)
        wanted = " ".join(answer.lower().split())
        found = [
            command
            for command in legal
            if " ".join(self.ruleset.describe(command, seen.view, seat).lower().split()) == wanted
            or self.hall.registry.codec.to_json(command).decode().lower() == wanted
        ]
        if len(found) == 1:
            return found[0]
        if found:
            raise GamehallError(f"{answer!r} names {len(found)} commands: use the number")
        raise GamehallError(f"{answer!r} is neither a number from the list nor a command's text")

    def _finish(self, spectator: SeatView) -> None:
        seat = self.humans[0] if len(self.humans) == 1 else None
        shown = self.hall.view(self.match, seat) if seat is not None else spectator
        self.term.say()
        self.term.say(self.ruleset.render(shown.view, seat))
        self.term.say(outcome_text(spectator.outcome))


def outcome_text(outcome: Any) -> str:
    """Return how a match ended in words."""
    if outcome is None:
        return "in progress"
    winners = ", ".join(f"seat {s}" for s in outcome.winners)
    text = f"{winners} {'wins' if len(outcome.winners) == 1 else 'win'}" if winners else "draw"
    if outcome.reason:
        text += f" ({outcome.reason})"
    if outcome.scores is not None:
        text += "; scores " + ", ".join(str(s) for s in outcome.scores)
    return text
