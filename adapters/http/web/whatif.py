"""The replay page's "what if…": another legal move at a past position of a finished match,
played in memory, its continuation (the kept commands re-decided with the match's seed) shown
beside the real one. Nothing is stored; forking the match from that position is how to play
it for real.

Only finished matches: re-deciding with the real seed would reveal hidden information while a
match goes on (a finished match's whole log is public, as its replay is).
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

import msgspec
from gamehall.core import GamehallError, engine
from gamehall.core.debug.whatif import whatif
from gamehall.core.events import Event, MatchStarted
from gamehall.core.registry import Ruleset
from gamehall.core.replay import fork_points
from gamehall.core.rules import Outcome
from gamehall.core.words import seat_names
from litestar.params import QueryParameter

from . import pages
from .markup import Html, join, tag

At = Annotated[int, QueryParameter(ge=1, le=2**63 - 1)]
Move = Annotated[str | None, QueryParameter(required=False, max_length=4096)]


def _words(ruleset: Ruleset, state: Any, events: list[Event]) -> list[str]:
    """Tell events in words, as a spectator of the finished match reads them."""
    out = []
    for event in events:
        out.append(ruleset.describe_event(event, ruleset.rules.view(state, None), None))
        state = ruleset.rules.evolve(state, event)
    return out


def _outcome(ruleset: Ruleset, outcome: Outcome | None, names: list[str]) -> str:
    if outcome is None:
        return "the match goes on"
    if not outcome.winners:
        return "a draw"
    won = ", ".join(names[s] if s < len(names) else f"seat {s + 1}" for s in outcome.winners)
    return f"{won} won" + (f": {outcome.reason}" if outcome.reason else "")


def page(
    ruleset: Ruleset, records: list[Any], match: str, at: int, move: str | None, root: str = ""
) -> Html:
    """Return the what-if page after event ``at``, with ``move`` (a command's JSON) tried.

    ``root`` is where the app is mounted: every link starts with it."""
    started = records[0].event
    assert isinstance(started, MatchStarted)
    last = records[-1].seq
    title = f"What if… after event {at}"
    back = tag("p", tag("a", "Back to the replay", href=f"{root}/watch/{quote(match)}"))
    if at not in fork_points(records) or at >= last:
        message = (
            f"event {at} is not where a command ends, or no command follows it: pick the last "
            "event of a command before the end of the match"
        )
        return pages.layout(
            title, join(tag("h1", title), tag("p", message, class_="problem"), back), root
        )
    state = engine.fold(
        ruleset, engine.initial_state(ruleset, started), (r.event for r in records[1:at])
    )
    names = seat_names(ruleset, ruleset.rules.view(state, None), started.players)
    moves = []
    for seat in sorted(ruleset.rules.awaiting(state)):
        for command in ruleset.rules.legal(state, seat):
            raw = msgspec.json.encode({"seat": seat, "command": msgspec.to_builtins(command)})
            text = ruleset.describe(command, ruleset.rules.view(state, seat), seat)
            href = f"{root}/watch/{quote(match)}/whatif?at={at}&move={quote(raw.decode())}"
            moves.append(tag("li", tag("a", f"{names[seat]}: {text}", href=href)))
    parts: list[Any] = [
        tag("h1", title),
        tag("p", "Try another legal move here. It is played in memory only: nothing is stored. "
            "Fork the match from this event on the replay page to play it for real."),
        tag("h2", "Legal moves at this position"),
        tag("ul", moves, class_="whatif-moves"),
    ]  # fmt: skip
    if move is not None:
        parts.append(_continuations(ruleset, records, state, at, move, names))
    parts.append(back)
    return pages.layout(title, join(*parts), root, wide=True)


def _continuations(
    ruleset: Ruleset, records: list[Any], state: Any, at: int, move: str, names: list[str]
) -> Html:
    try:
        chosen = msgspec.json.decode(move)
        seat = int(chosen["seat"])
        command = ruleset.codec.command_from_builtins(chosen["command"])
        result = whatif(ruleset, records, at + 1, (seat, command))
    except (GamehallError, msgspec.DecodeError, KeyError, TypeError, ValueError) as exc:
        return tag("p", f"That move cannot be tried here: {exc}", class_="problem")
    real = [r.event for r in records if r.seq > at]
    fresh = result.events[at:]
    text = ruleset.describe(command, ruleset.rules.view(state, seat), seat)
    real_list = tag("ol", [tag("li", t) for t in _words(ruleset, state, real)], start=at + 1)
    new_list = tag("ol", [tag("li", t) for t in _words(ruleset, state, fresh)], start=at + 1)
    notes = [tag("li", f"the command at event {seq} is now refused: {reason}")
             for seq, reason in result.refused]  # fmt: skip
    return tag(
        "section",
        tag("h2", f"What if {names[seat]} had played: {text}"),
        tag("div",
            tag("section", tag("h3", "What happened"), real_list,
                tag("p", f"Outcome: {_outcome(ruleset, result.recorded_outcome, names)}")),
            tag("section", tag("h3", "What if"), new_list,
                tag("p", f"Outcome: {_outcome(ruleset, result.outcome, names)}"),
                tag("ul", notes) if notes else None),
            class_="whatif-sides"),
        class_="whatif",
    )  # fmt: skip
