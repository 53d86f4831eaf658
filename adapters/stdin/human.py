"""The human mode: a match in the terminal, with bots in the seats no person takes.

Each awaited seat is played in turn: a bot seat is played by the engine (the hall's bot
driver), one command at a time, while the terminal holds the other bots so that a person may
act out of turn in between; a person sees the board as that seat may see it, the decision
asked, and the numbered legal commands, and answers with a number, a command's text or its
JSON. Several people share the terminal (hot-seat); in a game with hidden information the
terminal is handed over before each person's board is shown.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

import anyio
from gamehall.adapters.cli.terminal import console, is_terminal
from gamehall.core import Command, GamehallError, words
from gamehall.core.hall import Hall, SeatView
from gamehall.core.words import MenuEntry
from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from .screen import marked, seat_style

QUIT = frozenset({"q", "quit", "exit"})
HELP = frozenset({"?", "h", "help"})
FREE = frozenset({"f", "free"})
LEGEND = frozenset({"l", "legend"})
RECENT = 8  # lines of the log kept on a redrawn screen, newest last
CLEAR = "\033[2J\033[H"


def fold_legend(board: list[str]) -> list[str]:
    """Return a text board without its legend (a line starting "Legend" or "legend" and the
    indented lines under it): the terminal shows it on request, as the hint under the menu
    says."""
    out: list[str] = []
    folding = False
    for line in board:
        if line.lower().startswith("legend"):
            folding = True
            continue
        if folding and line.startswith(" "):
            continue
        folding = False
        out.append(line)
    return out


def command_id(role: str, seat: int) -> str:
    """Return a fresh command id that also records who chose the command (for ``resume``)."""
    return f"{role}-{seat}-{secrets.token_hex(6)}"


def roles_from_log(records: Sequence[Any], players: int) -> dict[int, str]:
    """Return the role each seat last played with, read from the command ids of a match
    (``human-…`` from the terminal, ``bot-…`` from the engine's bots)."""
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
    """Return the first seat (API seat 0) for a person and bots everywhere else."""
    return {seat: "human" if seat == 0 else "bot" for seat in range(players)}


class Terminal:
    """The person's side of the game: lines in, text out (coloured on a terminal).

    On a terminal (``tty``) the game redraws one screen per question instead of scrolling;
    ``tty`` and ``width``/``height`` may be given to draw that screen elsewhere (tests).
    """

    def __init__(
        self,
        stdin: TextIO,
        stdout: TextIO,
        *,
        tty: bool | None = None,
        width: int | None = None,
        height: int | None = None,
    ) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.tty = is_terminal(stdout) if tty is None else tty
        self.console = console(stdout, tty=self.tty)
        if width is not None:
            self.console.width = width
        if height is not None:
            self.console.height = height

    def clear(self) -> None:
        """Start a fresh screen (only on a terminal)."""
        if self.tty:
            self.stdout.write(CLEAR)
            self.stdout.flush()

    def print(self, renderable: Any) -> None:
        """Print a rich renderable (a grid, a text)."""
        self.console.print(renderable, highlight=False)
        self.stdout.flush()

    def say(self, text: str = "", style: str | None = None) -> None:
        """Print a line of plain text (never read as markup)."""
        self.console.print(escape(text), style=style, markup=True, highlight=False)
        self.stdout.flush()

    def show(self, markup: str) -> None:
        """Print a line of rich markup (styles only where the output is a terminal)."""
        self.console.print(markup, highlight=False)
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

    # Free actions on other seats' turns are offered only when a person asks ("free").
    ask_free = False

    def __init__(self, hall: Hall, match: str, roles: Mapping[int, str], term: Terminal) -> None:
        self.hall = hall
        self.match = match
        self.roles = dict(roles)
        self.term = term
        self.ruleset = hall.ruleset(match)
        self.players = hall.info(match).players
        self.humans = sorted(s for s, r in self.roles.items() if r == "human")
        self.handover = len(self.humans) > 1 and self.ruleset.game.hidden_information
        # The log is told as the one person sees it; with several people, as a spectator.
        self.reader: int | None = self.humans[0] if len(self.humans) == 1 else None
        self._last_human: int | None = None
        self._last_awaiting: frozenset[int] = frozenset()
        self._told = hall.view(match, None).seq
        self._hinted = False
        # On a terminal the log waits here and is drawn beside the next question.
        self._recent: list[str] = []
        self._on_screen: list[str] = []  # the log lines of the screen drawn last, for a redraw
        self.legend = False

    # -- names and the log -------------------------------------------------------------------

    def names(self) -> list[str]:
        """Return what the players call each seat now."""
        return self.ruleset.seat_names(self.hall.view(self.match, None).view, self.players)

    def who(self, seat: int, role: str = "") -> str:
        """Return a seat as markup: its name, its number (from 1) where the name is not
        "seat N", and its role if given ("X (seat 1, bot)")."""
        name = self.names()[seat]
        label = words.seat_label(seat)
        notes = [n for n in ("" if name.lower() == label else label, role) if n]
        label = f"{name} ({', '.join(notes)})" if notes else name
        return marked(label, seat_style(seat, name))

    def _tell_log(self) -> None:
        """Print, in words, every event since the last told, as the reader may know it."""
        for told in self.hall.narrated_history(self.match, self.reader, self._told):
            self._log(marked(f"    {told.text}", "dim"))
        self._told = self.hall.view(self.match, None).seq

    def _log(self, markup: str) -> None:
        """Tell a line of the log: at once in a pipe, with the next screen on a terminal."""
        if self.term.tty:
            self._recent = [*self._recent, markup][-RECENT:]
        else:
            self.term.show(markup)

    def _flush_log(self) -> None:
        """Print the log lines a terminal still holds."""
        for markup in self._recent:
            self.term.show(markup)
        self._recent = []

    # -- the loop ----------------------------------------------------------------------------

    async def run(self) -> int:
        """Play until the match is over (0) or the person quits (0, the match stays stored)."""
        self._introduce()
        # The engine's bots move only when the terminal lets them; when the person leaves, the
        # match stays as it is, bots held, until it is resumed.
        self.hall.bots.hold(self.match)
        while True:
            spectator = self.hall.view(self.match, None)
            if spectator.outcome is not None:
                self._finish(spectator)
                self.hall.bots.release(self.match)
                return 0
            if not await self._offer_free_actions(spectator.awaiting):
                return self._saved()
            # A free action just taken changed the match: the bot's move starts after it.
            spectator = self.hall.view(self.match, None)
            if spectator.outcome is not None:
                continue
            seat = self._next_seat(spectator.awaiting)
            if self.roles.get(seat, "bot").startswith("bot"):
                await self._bot_turn(spectator.seq)
            elif not await self._human_turn(seat):
                return self._saved()
            self._tell_log()

    def _saved(self) -> int:
        self._flush_log()
        self.term.say(f"match {self.match} saved: continue with 'gamehall resume {self.match}'")
        return 0

    async def _offer_free_actions(self, awaiting: Mapping[int, Any]) -> bool:
        """Offer each person who is not awaited their free actions, once each time the awaited
        seats change, when they asked for it ("free" at their prompt); return ``False`` when the
        person quits. Unasked, play goes on and a person is told once how to ask."""
        now = frozenset(awaiting)
        if now == self._last_awaiting:
            return True
        self._last_awaiting = now
        for seat in self.humans:
            if seat not in awaiting and self.hall.view(self.match, seat).legal:
                if not self.ask_free:
                    if not self._hinted:
                        self._hinted = True
                        self._log(
                            marked(
                                "(you may act out of turn in this game: type 'free' at your "
                                "prompt to be asked before each other seat moves)",
                                "dim",
                            )
                        )
                    continue
                if not await self._interject(seat, awaiting):
                    return False
        return True

    async def _interject(self, seat: int, awaiting: Mapping[int, Any]) -> bool:
        names = self.names()
        others = " and ".join(names[s] for s in sorted(awaiting))
        label = words.seat_label(seat)
        if self.handover and self._last_human != seat:
            if self.term.tty:
                self.term.say(CLEAR)
            answer = await self.term.ask(
                f"{label} may act out of turn before {others} goes on: pass the terminal "
                f"to {label}, then press Enter "
            )
            if answer is None or answer.lower() in QUIT:
                return False
            self._last_human = seat
        while True:
            seen = self.hall.view(self.match, seat)
            if not seen.legal:
                return True
            self.term.say()
            self._flush_log()
            self.term.say(f"{label}, you may act out of turn before {others} goes on:")
            self._menu(seat, seen)
            answer = await self.term.ask(f"{label} (Enter to go on)> ")
            if answer is None or answer.lower() in QUIT:
                return False
            if not answer:
                return True
            try:
                command = self.choose(answer, seat, seen)
                await self.hall.send(self.match, seat, command, command_id("human", seat))
            except GamehallError as exc:
                self.term.say(f"refused: {exc}")
            self._tell_log()

    def _introduce(self) -> None:
        info = self.hall.info(self.match)
        name = "+".join([info.game, *info.expansions])
        seats = ", ".join(self.who(s, self.roles.get(s, "bot")) for s in range(info.players))
        self.term.show(f"match {escape(self.match)} ({escape(name)}; {seats})")
        self._tell_log()

    def _next_seat(self, awaiting: Mapping[int, Any]) -> int:
        seats = sorted(awaiting)
        bots = [s for s in seats if self.roles.get(s) != "human"]
        return bots[0] if bots else seats[0]

    async def _bot_turn(self, seq: int) -> None:
        """Let the engine's bots play one command, then tell what it did."""
        await self.hall.bots.step(self.match)
        movers = [
            r.meta.seat
            for r in self.hall.store.read(self.match, seq)
            if r.meta.command is not None and r.meta.seat is not None
        ]
        # A bot's move is told by what it did, as the reader may know it: its command itself
        # could name what the reader may not see (a card declared face down).
        told = self.hall.narrated_history(self.match, self.reader, self._told)
        self._told = self.hall.view(self.match, None).seq
        text = " ".join(t.text for t in told) or "(nothing you may see)"
        for seat in movers[:1]:
            self._log(f"{self.who(seat, self.roles.get(seat, 'bot'))}: {escape(text)}")

    async def _human_turn(self, seat: int) -> bool:
        if self.handover and self._last_human != seat:
            if self.term.tty:
                self.term.say(CLEAR)
            answer = await self.term.ask(
                f"pass the terminal to {words.seat_label(seat)}, then press Enter "
            )
            if answer is None or answer.lower() in QUIT:
                return False
        self._last_human = seat
        seen = self.hall.view(self.match, seat)
        self._show(seat, seen)
        while True:
            answer = await self.term.ask(f"{words.seat_label(seat)}> ")
            if answer is None or answer.lower() in QUIT:
                return False
            if answer.lower() in HELP:
                self._help()
                continue
            if answer.lower() in LEGEND and self.term.tty:
                self.legend = not self.legend
                self._show(seat, seen)
                continue
            if answer.lower() in FREE:
                self.ask_free = not self.ask_free
                self.term.say(
                    "you will be asked before each other seat moves, to act out of turn"
                    if self.ask_free
                    else "play goes on without asking you before other seats move"
                )
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
        if term.tty:
            self._screen(seat, seen)
            return
        term.say()
        term.say(self.ruleset.render(seen.view, seat))
        decision = seen.awaiting.get(seat)
        if decision is not None:
            term.show(f"{self.who(seat)}, {escape(decision.prompt or decision.kind)}:")
        self._menu(seat, seen)

    def _screen(self, seat: int, seen: SeatView) -> None:
        """Redraw the terminal in place: the board (its legend folded unless asked for), then,
        beside it where the terminal is wide enough and below it otherwise, what happened since
        the last question, the question and the menu, so that these stay in sight."""
        term = self.term
        board = self.ruleset.render(seen.view, seat).splitlines()
        if not self.legend:
            board = fold_legend(board)
        if self._recent:
            self._on_screen, self._recent = self._recent, []
        right = [Text.from_markup(line) for line in self._on_screen]
        decision = seen.awaiting.get(seat)
        if decision is not None:
            ask = f"{self.who(seat)}, {escape(decision.prompt or decision.kind)}:"
            right.append(Text.from_markup(ask))
        right += [Text(line, style=style or "") for line, style in self._menu_lines(seat, seen)]
        hint = "(Enter: redraw; legend: show or hide the legend; help: what you may answer)"
        right.append(Text(hint, style="dim"))
        screen_width = term.console.width
        # The drawn part of a board is its short lines; long lines are prose and may wrap.
        art = max((len(line) for line in board if len(line) <= screen_width // 2 + 10), default=0)
        menu_width = min(max((len(t.plain) for t in right), default=0), 64)
        longest = max((len(line) for line in board), default=0)
        left = max(art, min(longest, screen_width - menu_width - 3))
        height = term.console.height or 40
        tall = len(board) + len(right) + 2 > height
        term.clear()
        if tall and screen_width - left - 3 >= 40:
            # Side by side, the split that needs the fewest lines; only when it fits, else the
            # question would scroll away at the top.
            best = min(
                (self._grid(board, right, width) for width in range(art, screen_width - 42, 4)),
                key=lambda grid: len(term.console.render_lines(grid, pad=False)),
                default=None,
            )
            if best is not None and len(term.console.render_lines(best, pad=False)) < height:
                term.print(best)
                return
        # Stacked: the board first, then the log, the question and the menu, the last in sight.
        term.print(Text("\n".join(board)))
        term.print(Group(*right))

    def menu(self, seat: int, seen: SeatView) -> list[MenuEntry]:
        """Return the seat's legal commands as menu lines: one line per distinct text."""
        return words.menu(self.ruleset, seen.legal, seen.view, seat)

    @staticmethod
    def _grid(board: list[str], right: list[Text], left: int) -> Table:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(overflow="fold", width=left)
        grid.add_column(overflow="fold")
        grid.add_row(Text("\n".join(board)), Group(*right))
        return grid

    def _menu(self, seat: int, seen: SeatView) -> None:
        for line, style in self._menu_lines(seat, seen):
            self.term.say(line, style=style)

    def _menu_lines(self, seat: int, seen: SeatView) -> list[tuple[str, str | None]]:
        lines: list[tuple[str, str | None]] = []
        group: str | None = None
        for number, entry in enumerate(self.menu(seat, seen), start=1):
            if entry.group is not None and entry.group != group:
                group = entry.group
                lines.append((f"  {group}:", "bold"))
            indent = "    " if entry.group is not None else "  "
            lines.append((f"{indent}{number:>2}. {entry.text}", None))
        return lines

    def _help(self) -> None:
        self.term.say(
            "answer with a number from the list, a command's text, or its JSON "
            '({"type": ...}); an empty line shows the board again; free turns on (or off) '
            "being asked before each other seat moves, to act out of turn; quit saves and leaves"
        )

    def choose(self, answer: str, seat: int, seen: SeatView) -> Command:
        """Return the command an answer names: its number, its text, or its JSON."""
        entries = self.menu(seat, seen)
        if answer.isdigit():
            number = int(answer)
            if not 1 <= number <= len(entries):
                raise GamehallError(f"{number} is not in the list (1 to {len(entries)})")
            return entries[number - 1].command
        if answer.startswith("{"):
            return self.hall.registry.codec.command_from_json(answer)
        found = words.find(entries, answer)
        if found is not None:
            return found.command
        raise GamehallError(f"{answer!r} is neither a number from the list nor a command's text")

    def _finish(self, spectator: SeatView) -> None:
        seat = self.reader
        shown = self.hall.view(self.match, seat) if seat is not None else spectator
        self._flush_log()
        self.term.say()
        self.term.say(self.ruleset.render(shown.view, seat))
        assert spectator.outcome is not None
        for line in words.outcome_lines(spectator.outcome, self.names()):
            self.term.say(line, style="bold")
