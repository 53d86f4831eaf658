"""One frame of a match page: whose move it is, the board, the commands and the log.

The page's script fetches a frame whenever the seat's stream says something happened, and in
a replay for every seq the slider reaches; the frame is built here from a :class:`Scene` alone.
"""

from __future__ import annotations

import math
from typing import Any

import msgspec
import structlog
from gamehall.core.drawing import Drawing, mapped
from gamehall.core.events import Command
from gamehall.core.registry import Ruleset
from gamehall.core.words import describe_command, menu, outcome_lines, words_of

from .bots import STRENGTHS, WORDS
from .markup import Html, join, svg, tag
from .scene import Scene

log = structlog.get_logger("gamehall.web")


class Extras(msgspec.Struct, frozen=True):
    """What a frame offers beside the scene: where to send, fork and rematch, and a switch."""

    fork_url: str | None = None
    whatif_url: str | None = None
    """Where a finished match's replay tries another move (``None``: not offered)."""
    command_url: str | None = None
    """Where the moves of the seat shown are sent (``None``: a spectator's frame)."""
    switch: tuple[str, str] | None = None
    """(seat name, page) of another seat this browser holds that the match waits for."""
    rematch_url: str | None = None
    """Where a seat of a finished match asks for a rematch."""
    rematch: str | None = None
    """The page of the rematch already started."""
    bots: str | None = None
    """The strength of the match's bots (``""``: another bot), offered again on the rematch
    (``None``: no bots)."""
    names: dict[int, str] = {}
    """What the page calls each bot seat's player ("medium bot")."""


def title_of(ruleset: Ruleset) -> str:
    """Return a match's title: its game and expansions."""
    return ruleset.game.name + "".join(f" + {e.name}" for e in ruleset.expansions)


def heading(ruleset: Ruleset, scene: Scene) -> str:
    """Return the page's heading: the game, and who the page's seat is (or that it watches)."""
    if scene.seat is None or not scene.live:
        return f"{title_of(ruleset)}: watching"
    seat = scene.names[scene.seat] if scene.seat < len(scene.names) else f"seat {scene.seat + 1}"
    holder = scene.holders[scene.seat] if scene.seat < len(scene.holders) else None
    return f"{title_of(ruleset)}: you are {seat}" + (f", {holder}" if holder else "")


def frame(ruleset: Ruleset, scene: Scene, csrf: str, extras: Extras | None = None) -> Html:
    """Return the frame's markup, with what ``extras`` offers (fork, rematch, a switch)."""
    extras = extras or Extras()
    board, on_board = _board(ruleset, scene)
    return tag(
        "div",
        tag("section", _status(scene, extras, csrf), class_="status", aria_live="polite"),
        _players(scene, extras),
        tag("div", board, _side(ruleset, scene, on_board, csrf, extras), class_="table"),
        id="frame", data_seq=scene.seq, data_last=scene.last, data_turn=_turn(scene),
        data_live="1" if scene.live else "0", data_ended="1" if scene.ended else "0",
        data_heading=heading(ruleset, scene) if scene.live else None,
        data_seat=scene.seat, data_command_url=extras.command_url if scene.live else None,
    )  # fmt: skip


def clock_text(seconds: float) -> str:
    """Return a clock's time left as the page shows it: ``m:ss``, or ``h:mm:ss``."""
    whole = max(0, math.ceil(seconds - 0.001))  # 0:00 only once it has run out
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def _players(scene: Scene, extras: Extras) -> Html:
    """Return who plays each seat, whose move it is and, in a timed match, each clock."""
    clock = scene.clock
    rows = []
    for seat, name in enumerate(scene.names):
        holder = scene.holders[seat] if seat < len(scene.holders) else None
        holder = extras.names.get(seat, holder)
        you = seat == scene.seat and scene.live
        asked = seat in scene.awaiting and scene.outcome is None
        shown = None
        if clock is not None and seat < len(clock.remaining):
            running = scene.live and seat in clock.running and scene.outcome is None
            left = clock.remaining[seat]
            shown = tag(
                "span", clock_text(left), class_="clock",
                data_left=f"{left:.3f}", data_running="1" if running else None,
                aria_label=f"time left: {clock_text(left)}",
            )  # fmt: skip
        classes = " ".join(c for c in ("seat", "asked" if asked else "", "you" if you else "") if c)
        rows.append(
            tag("li", tag("strong", name), " ",
                tag("span", holder or "open seat", class_="holder" if holder else "holder muted"),
                " (you)" if you else None, " ", shown, class_=classes, data_seat=seat)
        )  # fmt: skip
    caption = None
    if clock is not None:
        per = "a move" if clock.mode == "move" else "a match"
        extra = f", +{clock.increment:g} s a move" if clock.increment else ""
        caption = tag("p", f"Clock: {clock_text(clock.seconds)} {per}{extra}.", class_="muted")
    return tag("section", tag("h2", "Players", class_="sr-only"), tag("ul", rows), caption,
               class_="players")  # fmt: skip


def _turn(scene: Scene) -> str:
    """Return ``ended``, ``you`` (the page's seat is asked, live) or ``other``."""
    if scene.outcome is not None:
        return "ended"
    return "you" if scene.live and scene.seat in scene.awaiting and scene.legal else "other"


def _name(scene: Scene, seat: int) -> str:
    name = scene.names[seat] if 0 <= seat < len(scene.names) else f"seat {seat + 1}"
    if seat == scene.seat and scene.live:
        return f"{name} (you)"
    holder = scene.holders[seat] if 0 <= seat < len(scene.holders) else None
    return f"{name} ({holder})" if holder else name


def _status(scene: Scene, extras: Extras, csrf: str) -> Html:
    if scene.outcome is not None:
        lines = outcome_lines(scene.outcome, scene.names)
        table = tag("pre", "\n".join(lines[1:]), class_="scores") if len(lines) > 1 else None
        return join(tag("p", lines[0], class_="outcome"), table, _rematch(scene, extras, csrf))
    items = []
    for seat, decision in sorted(scene.awaiting.items()):
        asked = decision.prompt or words_of(decision.kind)
        mine = seat == scene.seat and scene.live
        who = "Your move" if mine else f"Waiting for {_name(scene, seat)}"
        items.append(tag("li", tag("strong", who), ": ", asked, class_="mine" if mine else None))
    switch = None
    if extras.switch is not None:
        name, url = extras.switch
        switch = tag(
            "p", f"{name} is yours too, and it is {name}'s move. ",
            tag("a", f"Hand over to {name}", href=url, class_="button switch"),
            class_="switch",
        )  # fmt: skip
    return join(tag("ul", items, class_="awaiting"), switch)


def _rematch(scene: Scene, extras: Extras, csrf: str) -> Html | None:
    if not scene.live or extras.rematch_url is None:
        return None
    if extras.rematch is not None:
        return tag("p", tag("a", "Open the rematch", href=extras.rematch, class_="button"),
                   class_="rematch")  # fmt: skip
    strength = None
    if extras.bots is not None:
        strength = tag("label", "Bots ", tag("select", [
            *([tag("option", "the same bots", value="", selected=True)] if not extras.bots else []),
            *[tag("option", WORDS[s].removeprefix("a bot, "), value=s, selected=s == extras.bots)
              for s in STRENGTHS]
        ], name="bots"))  # fmt: skip
    return tag(
        "form",
        tag("input", type="hidden", name="csrf", value=csrf),
        strength,
        tag("button", "Play again (a rematch)", type="submit"),
        method="post", action=extras.rematch_url, class_="rematch",
    )  # fmt: skip


class DrawingFailed(Exception):
    """A plugin's ``gamehall_draw_board`` raised: which plugin."""

    def __init__(self, plugin: str, error: BaseException) -> None:
        super().__init__(plugin)
        self.plugin = plugin
        self.error = error


def _plugin_name(plugin: object) -> str:
    name = getattr(plugin, "__name__", None) if isinstance(plugin, type(math)) else None
    return str(name or f"{type(plugin).__module__}.{type(plugin).__qualname__}")


def _drawing(ruleset: Ruleset, scene: Scene) -> Drawing | None:
    """Call the drawing hook as pluggy would (newest first, the first answer wins), so that a
    failure names the plugin that raised."""
    given = {"view": scene.view, "seat": scene.seat, "legal": scene.legal}
    for impl in reversed(ruleset.hook.gamehall_draw_board.get_hookimpls()):
        if impl.hookwrapper or impl.wrapper:
            continue
        try:
            drawn = impl.function(*(given[name] for name in impl.argnames))
        except Exception as exc:  # noqa: BLE001 - named, logged and shown as the text board
            raise DrawingFailed(_plugin_name(impl.plugin), exc) from None
        if drawn is not None:
            return drawn if isinstance(drawn, Drawing) else None
    return None


def _encode(command: Command) -> Any:
    return msgspec.to_builtins(command)


def _board(ruleset: Ruleset, scene: Scene) -> tuple[Html, list[Command]]:
    """Return the board and the commands placed on it: the game's drawing, or, where it
    has none or its drawing fails, the text board (the failure said in words and logged)."""
    try:
        drawing = _drawing(ruleset, scene)
        if drawing is None:
            return generic(ruleset, scene), []

        def describe(command: Command) -> str:
            return describe_command(ruleset, command, scene.view, scene.seat)

        caption = tag("figcaption", drawing.caption) if drawing.caption else None
        picture = svg(drawing.root, describe, _encode)
        return tag("figure", picture, caption, class_="board-wrap"), mapped(drawing.root)
    except Exception as exc:  # noqa: BLE001 - a plugin's drawing must not take the page down
        failed = exc if isinstance(exc, DrawingFailed) else DrawingFailed("the web page", exc)
        log.error(
            "drawing_failed", plugin=failed.plugin, hook="gamehall_draw_board",
            game=scene.game, match=scene.match, seq=scene.seq,
            error=f"{type(failed.error).__name__}: {failed.error}"[:300],
        )  # fmt: skip
    notice = tag(
        "p", "The board could not be drawn, so it is shown as text; the moves below still work.",
        class_="drawing-failed", role="status",
    )  # fmt: skip
    return join(notice, generic(ruleset, scene)), []


def generic(ruleset: Ruleset, scene: Scene) -> Html:
    """Return the board of a game that draws none: its text board and its view's fields."""
    text = ruleset.hook.gamehall_render_text(view=scene.view, seat=scene.seat)
    board = tag("pre", str(text), class_="text-board") if text is not None else None
    fields = _fields(msgspec.to_builtins(scene.view))
    return tag(
        "figure", board, tag("div", fields, class_="view-fields"), class_="board-wrap generic"
    )


def _fields(value: Any) -> Html:
    """Return a view's value as labelled values in words: a field's name as its label, a
    list as items, never a Python repr."""
    if isinstance(value, dict):
        rows = [join(tag("dt", _label(k)), tag("dd", _fields(v))) for k, v in value.items()]
        return tag("dl", rows) if rows else join("none")
    if isinstance(value, (list, tuple, set, frozenset)):
        if not value:
            return join("none")
        if all(not isinstance(v, (dict, list, tuple, set, frozenset)) for v in value):
            return join(", ".join(_scalar(v) for v in value))
        return tag("ol", [tag("li", _fields(v)) for v in value])
    return join(_scalar(value))


def _label(key: Any) -> str:
    text = str(key).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def _scalar(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if value == "":
        return "(blank)"
    return str(value)


def _side(
    ruleset: Ruleset, scene: Scene, on_board: list[Command], csrf: str, extras: Extras
) -> Html:
    return tag(
        "aside",
        _commands(ruleset, scene, on_board),
        _fork(scene, csrf, extras.fork_url),
        _changes(scene, extras.whatif_url),
        _log(scene),
        class_="side",
    )


def _changes(scene: Scene, whatif_url: str | None) -> Html | None:
    if scene.live or not scene.changes:
        return None
    items = [tag("li", line) for line in scene.changes]
    whatif = None
    if whatif_url and scene.ended and scene.seq in scene.fork_points and scene.seq < scene.last:
        href = f"{whatif_url}?at={scene.seq}"
        whatif = tag("p", tag("a", "What if… another move here", href=href), class_="whatif-link")
    return tag("section", tag("h2", f"What event {scene.seq} changed"),
               tag("ul", items, class_="changes"), whatif, class_="changes-box")  # fmt: skip


def _commands(ruleset: Ruleset, scene: Scene, on_board: list[Command]) -> Html | None:
    if not scene.legal:
        return None
    placed = {msgspec.json.encode(c) for c in on_board}
    entries = menu(ruleset, scene.legal, scene.view, scene.seat)
    rest = [e for e in entries if msgspec.json.encode(e.command) not in placed]
    if not rest:
        return tag("p", "Choose a highlighted place on the board.", class_="hint")
    groups: dict[str | None, list[Html]] = {}
    for entry in rest:
        data = [{"text": entry.text, "command": _encode(entry.command)}]
        button = tag(
            "button", entry.text, type="button", class_="command",
            data_commands=msgspec.json.encode(data).decode(),
        )  # fmt: skip
        groups.setdefault(entry.group, []).append(tag("li", button))
    parts = []
    for heading, buttons in groups.items():
        parts.append(tag("h3", heading) if heading else None)
        parts.append(tag("ul", buttons, class_="commands"))
    hint = "or choose a highlighted place on the board" if on_board else None
    return tag("section", tag("h2", "Your moves"), tag("p", hint, class_="hint") if hint else None,
               parts, class_="moves")  # fmt: skip


def _fork(scene: Scene, csrf: str, fork_url: str | None) -> Html | None:
    if fork_url is None or scene.live or not scene.ended or scene.seq not in scene.fork_points:
        return None
    return tag(
        "form",
        tag("input", type="hidden", name="csrf", value=csrf),
        tag("input", type="hidden", name="at_seq", value=scene.seq),
        tag("button", f"Fork a new match from event {scene.seq}", type="submit"),
        method="post", action=fork_url, class_="fork",
    )  # fmt: skip


def _log(scene: Scene) -> Html:
    items = [
        tag("li", tag("span", f"{seq}.", class_="n", aria_hidden="true"), tag("span", text),
            value=seq)
        for seq, text in scene.log
    ]  # fmt: skip
    return tag(
        "section",
        tag("h2", "Game log"),
        tag("ol", items, class_="log", tabindex="0", aria_label="game log"),
        class_="log-box",
    )
