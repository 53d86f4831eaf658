"""The pages around a match: the layout, the lobby, the join page and the match page itself."""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from typing import Any

import msgspec
from gamehall.core.lobby import NAME_MAX, Player
from gamehall.core.seating import ENDED
from gamehall.core.words import ago

from ..schemas import GameOut
from .forms import Field
from .listing import Listed, Section
from .markup import Html, join, tag

PEOPLE = (("me", "me (this browser)"), ("open", "open: a person joins"))


class Filled(msgspec.Struct, frozen=True):
    """A lobby form sent back because a value was refused: what was typed and why."""

    game: str
    values: dict[str, list[str]]
    errors: dict[str, str]
    """The refusal beside each field, keyed by the field's form name."""
    problem: str | None = None
    """A refusal that belongs to no one field, shown above the form's button."""


class GameForm(msgspec.Struct, frozen=True):
    """What a game's form offers: the game, its options and its bots by strength."""

    game: GameOut
    options: list[Field]
    expansions: dict[str, list[Field]]
    bots: list[tuple[str, str]]
    """(role, words) of each bot the seats may choose, weakest first."""


def layout(title: str, body: Html, root: str = "", *, wide: bool = False) -> Html:
    """Return a whole page: its head (styles and script from this server only) and body.

    ``root`` is where the app is mounted (the ASGI ``root_path``): every link starts with it.
    """
    head = tag(
        "head",
        tag("meta", charset="utf-8"),
        tag("meta", name="viewport", content="width=device-width, initial-scale=1"),
        tag("title", f"{title} · gamehall"),
        tag("link", rel="stylesheet", href=f"{root}/static/gamehall.css"),
        tag("link", rel="icon", href=f"{root}/static/favicon.svg", type="image/svg+xml"),
        tag("script", src=f"{root}/static/gamehall.js", defer=True),
    )
    nav = tag("header", tag("a", "gamehall", href=f"{root}/", class_="brand"), class_="top")
    main = tag("main", body, class_="wide" if wide else None)
    return Html("<!doctype html>" + tag("html", head, tag("body", nav, main), lang="en"))


def problem(title: str, message: str, root: str = "", hint: Html | None = None) -> Html:
    """Return a page that says, in words, why what was asked cannot be shown."""
    back = tag("p", tag("a", "Back to the lobby", href=f"{root}/"))
    body = join(tag("h1", title), tag("p", message, class_="problem"), hint, back)
    return layout(title, body, root)


# -- the lobby ---------------------------------------------------------------------------------


CLOCKS = (
    ("", "no clock"),
    ("move:30", "30 seconds a move"),
    ("move:120", "2 minutes a move"),
    ("match:300+5", "5 minutes a match, +5 s a move"),
    ("match:900+10", "15 minutes a match, +10 s a move"),
)


def name_field(me: Player | None, value: str | None = None) -> Html | None:
    """Return the "your name" field of a form, for a browser that has no player yet."""
    if me is not None:
        return None
    return tag(
        "label", "Your name ",
        tag("input", type="text", name="name", required=True, maxlength=NAME_MAX, value=value,
            autocomplete="nickname", placeholder="the name others see"),
        class_="name",
    )  # fmt: skip


def _me(me: Player | None, csrf: str, root: str) -> Html:
    """Return who this browser plays as, with the form that changes the name."""
    known = me is not None and me.name is not None
    said = (
        tag("p", "You play as ", tag("strong", me.name), ".") if known and me and me.name
        else tag("p", "Choose the name the other players see; it is asked once.")
    )  # fmt: skip
    form = tag(
        "form",
        tag("input", type="hidden", name="csrf", value=csrf),
        tag("label", "Name ", tag("input", type="text", name="name", required=True,
                                  maxlength=NAME_MAX, value=me.name if me else None)),
        tag("button", "Change name" if me else "Save name", type="submit"),
        method="post", action=f"{root}/lobby/name", class_="rename",
    )  # fmt: skip
    return tag("section", said, form, class_="me", id="me")


def lobby(
    games: Sequence[GameForm],
    sections: Sequence[Section],
    csrf: str,
    me: Player | None,
    root: str = "",
    filled: Filled | None = None,
    now: float | None = None,
) -> Html:
    """Return the lobby: who you are, your matches, open seats, live and finished matches,
    and a form per game to start one (sent back filled in, with its errors, when refused).
    Each match says how long ago it started and last moved, as of ``now``."""
    now = time.time() if now is None else now
    buttoned: set[str] = set()  # a match listed twice gets its Abandon button once
    lists = [
        tag("section", tag("h2", s.title), _matches(s, root, csrf, buttoned, now),
            class_="listing", id=f"list-{s.key}")
        for s in sections
        if s.matches or s.key != "finished"
    ]  # fmt: skip
    body = join(
        tag("h1", "Lobby"),
        _me(me, csrf, root),
        lists,
        tag("section", tag("h2", "Start a match"), [_game(g, csrf, me, root, filled)
                                                     for g in games], class_="games"),
    )  # fmt: skip
    return layout("Lobby", body, root)


def _clock(text: str | None) -> str | None:
    if not text:
        return None
    return next((said for spec, said in CLOCKS if spec == text), text)


def _seats(m: Listed) -> str:
    return ", ".join(f"{s.name}: {'open' if s.open else s.holder or 'taken'}" for s in m.seats)


def _when(m: Listed, now: float) -> str:
    """Return a match's age and last activity in words."""
    started = f"started {ago(max(0.0, now - m.created))}"
    if m.updated - m.created < 1:
        return started
    return f"{started}, last activity {ago(max(0.0, now - m.updated))}"


def _matches(
    section: Section, root: str, csrf: str = "", buttoned: set[str] | None = None,
    now: float | None = None,
) -> Html:  # fmt: skip
    if not section.matches:
        return tag("p", "None right now.", class_="empty")
    now = time.time() if now is None else now
    buttoned = set() if buttoned is None else buttoned
    rows = []
    for m in section.matches:
        facts = [_when(m, now), f"{m.version} event" + ("" if m.version == 1 else "s")]
        if m.ended:
            facts.insert(0, ENDED.get(m.ended, m.ended))
        if m.clock:
            facts.append(_clock(m.clock) or "")
        if m.spectators:
            facts.append(f"{m.spectators} watching")
        links: list[Html] = []
        if section.key == "mine":
            links += [tag("a", f"Play as {m.seats[s].name}", href=f"{root}/play/{m.match}/{s}")
                      for s in m.mine]  # fmt: skip
        elif section.key == "open":
            links.append(tag("a", f"Join ({len(m.free)} open)", href=f"{root}/join/{m.match}"))
        watch = tag("a", "Replay" if m.finished else "Watch", href=f"{root}/watch/{m.match}")
        links.append(watch)
        if m.abandonable and m.match not in buttoned:
            buttoned.add(m.match)
            links.append(tag(
                "form", tag("input", type="hidden", name="csrf", value=csrf),
                tag("button", "Abandon", type="submit",
                    title="End this match: nobody else has joined it"),
                method="post", action=f"{root}/lobby/abandon/{m.match}", class_="abandon",
            ))  # fmt: skip
        rows.append(
            tag("li", tag("strong", m.title), f" · {_seats(m)} ",
                tag("span", " · ".join(facts), class_="muted"), " ",
                join(*[join(link, " ") for link in links]), data_match=m.match)
        )  # fmt: skip
    more = len(section.matches) < section.total
    shown = tag("p", f"The newest {len(section.matches)} of {section.total}.", class_="muted")
    return join(tag("ul", rows, class_="matches"), shown if more else None)


def _chosen(filled: Filled | None, name: str) -> str | None:
    if filled is None:
        return None
    values = filled.values.get(name)
    return values[-1] if values else None


def _game(
    form_of: GameForm, csrf: str, me: Player | None, root: str, filled: Filled | None
) -> Html:
    game = form_of.game
    mine = filled if filled is not None and filled.game == game.id else None
    counts = range(game.min_players, game.max_players + 1)
    players_now = _chosen(mine, "players")
    players = tag(
        "label", "Players ",
        tag("select", [tag("option", str(n), value=n, selected=str(n) == players_now)
                       for n in counts], name="players"),
    )  # fmt: skip
    roles = [*PEOPLE, *form_of.bots]
    seats = []
    for seat in range(game.max_players):
        was = _chosen(mine, f"seat{seat}") or ("me" if seat == 0 else form_of.bots[0][0])
        choices = [tag("option", text, value=role, selected=role == was) for role, text in roles]
        seats.append(
            tag("label", f"Seat {seat + 1} ", tag("select", choices, name=f"seat{seat}"),
                class_="seat", data_seat=seat)
        )  # fmt: skip
    picked = set(mine.values.get("expansion", [])) if mine else set()
    expansions = [
        join(
            tag("label", tag("input", type="checkbox", name="expansion", value=e.id,
                             checked=e.id in picked), " ", e.name, class_="check"),
            _options(form_of.expansions.get(e.id, []), f"x.{e.id}.", mine),
        )
        for e in game.expansions
    ]  # fmt: skip
    clock_now = _chosen(mine, "clock") or ""
    problem = (
        tag("p", mine.problem, class_="problem", role="alert") if mine and mine.problem else None
    )
    form = tag(
        "form",
        tag("input", type="hidden", name="csrf", value=csrf),
        tag("input", type="hidden", name="game", value=game.id),
        tag("input", type="hidden", name="request_id", value=secrets.token_urlsafe(12)),
        name_field(me, _chosen(mine, "name")),
        tag("div", players, class_="row"),
        tag("fieldset", tag("legend", "Seats"), seats, class_="seats"),
        tag("fieldset", tag("legend", "Expansions"), expansions) if expansions else None,
        _options(form_of.options, "o.", mine),
        tag("label", "Clock ",
            tag("select", [tag("option", text, value=spec, selected=spec == clock_now)
                           for spec, text in CLOCKS], name="clock"), class_="clock"),
        problem,
        tag("button", f"Start {game.name}", type="submit"),
        method="post", action=f"{root}/lobby/matches", class_="create", data_game=game.id,
    )  # fmt: skip
    summary = tag(
        "summary", tag("strong", game.name), " ", tag("span", game.description, class_="muted")
    )
    return tag("details", summary, form, class_="game", id=f"game-{game.id}", open=mine is not None)


def _options(fields: Sequence[Field], prefix: str, filled: Filled | None) -> Html | None:
    if not fields:
        return None
    shown = [_option(prefix + f.name, f, filled) for f in fields]
    return tag("fieldset", tag("legend", "Options"), tag("div", shown, class_="options"))


def _range(field: Field) -> str | None:
    def num(value: float) -> str:
        return f"{value:g}"

    if field.low is not None and field.high is not None:
        return f"from {num(field.low)} to {num(field.high)}"
    if field.low is not None:
        return f"{num(field.low)} or more"
    if field.high is not None:
        return f"up to {num(field.high)}"
    return None


def _option(name: str, field: Field, filled: Filled | None) -> Html:
    """Return one option: its label, its control (filled in as sent), its help and error."""
    ident = "f-" + name.replace(".", "-")
    sent = _chosen(filled, name)
    error = filled.errors.get(name) if filled is not None else None
    value: Any = sent if sent is not None else field.default
    described = f"{ident}-help" if field.help else None
    common: dict[str, Any] = {
        "name": name, "id": ident, "aria_describedby": described,
        "aria_invalid": "true" if error else None,
    }  # fmt: skip
    if field.kind == "select":
        names = field.names or tuple(str(v) for v in field.choices)
        options = [tag("option", shown, value=v, selected=str(v) == str(value))
                   for v, shown in zip(field.choices, names, strict=True)]  # fmt: skip
        control = tag("select", options, **common)
    elif field.kind == "bool":
        on = value == "true" if isinstance(value, str) else bool(value)
        control = join(
            tag("input", type="hidden", name=name, value="false"),
            tag("input", type="checkbox", value="true", checked=on, **common),
        )
    elif field.kind in ("int", "float"):
        control = tag("input", type="number", value=value, min=_num(field.low),
                      max=_num(field.high), step="1" if field.kind == "int" else "any",
                      inputmode="numeric", **common)  # fmt: skip
    else:
        control = tag("input", type="text", value=value, **common)
    span = _range(field) if field.kind in ("int", "float") else None
    help_text = "; ".join(t for t in (field.help, span) if t) or None
    helps = tag("small", help_text, class_="help", id=described or f"{ident}-help")
    return tag(
        "div",
        tag("label", field.label, for_=ident), " ", control,
        helps if help_text else None,
        tag("span", error, class_="field-error", role="alert") if error else None,
        class_="option" + (" invalid" if error else ""), data_field=name,
    )  # fmt: skip


def _num(value: float | None) -> str | None:
    return None if value is None else f"{value:g}"


# -- joining -----------------------------------------------------------------------------------


def join_page(m: Listed, csrf: str, me: Player | None, root: str = "") -> Html:
    """Return the page that lets a person take one of a match's open seats."""
    buttons = [
        tag("button", f"Play as {m.seats[seat].name}", type="submit", name="seat", value=seat)
        for seat in m.free
    ]
    form = tag(
        "form", tag("input", type="hidden", name="csrf", value=csrf), name_field(me),
        tag("div", buttons, class_="join"), method="post", action=f"{root}/join/{m.match}",
    )  # fmt: skip
    body = join(
        tag("h1", f"Join a match of {m.title}"),
        tag("p", f"Seats: {_seats(m)}."),
        form
        if buttons
        else tag("p", "This match is over." if m.finished else "Every seat is taken."),
        tag("p", tag("a", "Watch instead", href=f"{root}/watch/{m.match}")),
    )
    return layout(f"Join {m.title}", body, root)


# -- the match page ----------------------------------------------------------------------------


def match_page(
    title: str,
    heading: str,
    frame: Html,
    urls: dict[str, str],
    csrf: str,
    seats: Sequence[str],
    root: str = "",
    handover: str | None = None,
) -> Html:
    """Return a match page: the frame, the replay controls and where the script gets updates.

    ``handover`` names the seat a shared screen is handed to: the page opens covered, until
    the person of that seat asks to see it.
    """
    eyes = None
    if seats:
        options = [tag("option", "this page's own view", value="")]
        options += [tag("option", name, value=seat) for seat, name in enumerate(seats)]
        eyes = tag("label", "See the replay as ", tag("select", options, id="eyes"),
                   class_="eyes", hidden=True)  # fmt: skip
    replay = tag(
        "section",
        tag("h2", "Replay", class_="sr-only"),
        tag("button", "◀", type="button", id="step-back", aria_label="one event back"),
        tag("label", tag("span", "Event", class_="sr-only"),
            tag("input", type="range", id="replay", min=1, value=1, max=1, step=1,
                aria_label="replay: event number")),
        tag("button", "▶", type="button", id="step-forward", aria_label="one event forward"),
        tag("output", "", id="replay-at", for_="replay"),
        tag("button", "Live", type="button", id="go-live"),
        eyes,
        class_="replay",
    )  # fmt: skip
    cover = None
    if handover is not None:
        cover = tag(
            "section",
            tag("h2", f"Hand over to {handover}"),
            tag("p", f"The next screen shows what only {handover} may see: pass the device to "
                f"{handover}, then show it."),
            tag("button", f"I am {handover}: show my view", type="button", id="handover-show"),
            id="handover", class_="handover", role="dialog", aria_modal="true",
        )  # fmt: skip
    body = join(
        tag("h1", heading),
        tag("p", "", id="notice", role="alert", class_="notice", hidden=True),
        tag("p", "", id="connection", class_="connection", aria_live="polite"),
        cover,
        tag("div", tag("div", frame, id="frame-box"), replay, class_="covered" if cover else None,
            id="shown"),
        tag("div", id="chooser", class_="chooser", role="dialog", aria_label="choose a move",
            hidden=True),
    )  # fmt: skip
    data = {f"data_{k}_url": v for k, v in urls.items()}
    root_div = tag("div", body, id="match", data_csrf=csrf, **data)
    return layout(title, root_div, root, wide=True)
