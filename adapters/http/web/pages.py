"""The pages around a match: the layout, the lobby, the join page and the match page itself."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from gamehall.core.lobby import NAME_MAX, Player

from ..schemas import GameOut
from .listing import Listed, Section
from .markup import Html, join, tag

ROLES = (("me", "me (this browser)"), ("open", "open: a person joins"), ("bot", "a bot"))


def layout(title: str, body: Html, *, wide: bool = False) -> Html:
    """Return a whole page: its head (styles and script from this server only) and body."""
    head = tag(
        "head",
        tag("meta", charset="utf-8"),
        tag("meta", name="viewport", content="width=device-width, initial-scale=1"),
        tag("title", f"{title} · gamehall"),
        tag("link", rel="stylesheet", href="/static/gamehall.css"),
        tag("link", rel="icon", href="/static/favicon.svg", type="image/svg+xml"),
        tag("script", src="/static/gamehall.js", defer=True),
    )
    nav = tag("header", tag("a", "gamehall", href="/", class_="brand"), class_="top")
    main = tag("main", body, class_="wide" if wide else None)
    return Html("<!doctype html>" + tag("html", head, tag("body", nav, main), lang="en"))


def problem(title: str, message: str, hint: Html | None = None) -> Html:
    """Return a page that says, in words, why what was asked cannot be shown."""
    back = tag("p", tag("a", "Back to the lobby", href="/"))
    return layout(title, join(tag("h1", title), tag("p", message, class_="problem"), hint, back))


# -- the lobby ---------------------------------------------------------------------------------


CLOCKS = (
    ("", "no clock"),
    ("move:30", "30 seconds a move"),
    ("move:120", "2 minutes a move"),
    ("match:300+5", "5 minutes a match, +5 s a move"),
    ("match:900+10", "15 minutes a match, +10 s a move"),
)


def name_field(me: Player | None) -> Html | None:
    """Return the "your name" field of a form, for a browser that has no player yet."""
    if me is not None:
        return None
    return tag(
        "label", "Your name ",
        tag("input", type="text", name="name", required=True, maxlength=NAME_MAX,
            autocomplete="nickname", placeholder="the name others see"),
        class_="name",
    )  # fmt: skip


def _me(me: Player | None, csrf: str) -> Html:
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
        method="post", action="/lobby/name", class_="rename",
    )  # fmt: skip
    return tag("section", said, form, class_="me", id="me")


def lobby(
    games: Sequence[GameOut], sections: Sequence[Section], csrf: str, me: Player | None
) -> Html:
    """Return the lobby: who you are, your matches, open seats, live and finished matches,
    and a form per game to start one."""
    lists = [
        tag("section", tag("h2", s.title), _matches(s), class_="listing", id=f"list-{s.key}")
        for s in sections
        if s.matches or s.key != "finished"
    ]
    body = join(
        tag("h1", "Lobby"),
        _me(me, csrf),
        lists,
        tag("section", tag("h2", "Start a match"), [_game(g, csrf, me) for g in games],
            class_="games"),
    )  # fmt: skip
    return layout("Lobby", body)


def _clock(text: str | None) -> str | None:
    if not text:
        return None
    return next((said for spec, said in CLOCKS if spec == text), text)


def _matches(section: Section) -> Html:
    if not section.matches:
        return tag("p", "None right now.", class_="empty")
    rows = []
    for m in section.matches:
        seats = ", ".join(f"{s.name}: {'open' if s.open else s.holder or 'taken'}" for s in m.seats)
        facts = [f"{m.version} event" + ("" if m.version == 1 else "s")]
        if m.clock:
            facts.append(_clock(m.clock) or "")
        if m.spectators:
            facts.append(f"{m.spectators} watching")
        links: list[Html] = []
        if section.key == "mine":
            links += [tag("a", f"Play as {m.seats[s].name}", href=f"/play/{m.match}/{s}")
                      for s in m.mine]  # fmt: skip
        elif section.key == "open":
            links.append(tag("a", f"Join ({len(m.free)} open)", href=f"/join/{m.match}"))
        links.append(tag("a", "Replay" if m.finished else "Watch", href=f"/watch/{m.match}"))
        rows.append(
            tag("li", tag("strong", m.title), f" · {seats} ",
                tag("span", " · ".join(facts), class_="muted"), " ",
                join(*[join(link, " ") for link in links]), data_match=m.match)
        )  # fmt: skip
    more = len(section.matches) < section.total
    shown = tag("p", f"The newest {len(section.matches)} of {section.total}.", class_="muted")
    return join(tag("ul", rows, class_="matches"), shown if more else None)


def _game(game: GameOut, csrf: str, me: Player | None) -> Html:
    counts = range(game.min_players, game.max_players + 1)
    players = tag(
        "label", "Players ",
        tag("select", [tag("option", str(n), value=n) for n in counts], name="players"),
    )  # fmt: skip
    seats = [
        tag("label", f"Seat {seat + 1} ",
            tag("select", [tag("option", text, value=role, selected=(role == "me") == (seat == 0))
                           for role, text in ROLES], name=f"seat{seat}"),
            class_="seat", data_seat=seat)
        for seat in range(game.max_players)
    ]  # fmt: skip
    expansions = [
        join(
            tag("label", tag("input", type="checkbox", name="expansion", value=e.id), " ",
                e.name, class_="check"),
            _options(e.options, f"x.{e.id}."),
        )
        for e in game.expansions
    ]  # fmt: skip
    form = tag(
        "form",
        tag("input", type="hidden", name="csrf", value=csrf),
        tag("input", type="hidden", name="game", value=game.id),
        tag("input", type="hidden", name="request_id", value=secrets.token_urlsafe(12)),
        name_field(me),
        tag("div", players, class_="row"),
        tag("fieldset", tag("legend", "Seats"), seats, class_="seats"),
        tag("fieldset", tag("legend", "Expansions"), expansions) if expansions else None,
        _options(game.options, "o."),
        tag("label", "Clock ",
            tag("select", [tag("option", text, value=spec) for spec, text in CLOCKS],
                name="clock"), class_="clock"),
        tag("button", f"Start {game.name}", type="submit"),
        method="post", action="/lobby/matches", class_="create", data_game=game.id,
    )  # fmt: skip
    summary = tag(
        "summary", tag("strong", game.name), " ", tag("span", game.description, class_="muted")
    )
    return tag("details", summary, form, class_="game", id=f"game-{game.id}")


def _properties(schema: dict[str, Any] | None) -> dict[str, Any]:
    if not schema:
        return {}
    ref = schema.get("$ref", "")
    root = schema.get("$defs", {}).get(ref.rsplit("/", 1)[-1], schema)
    props: dict[str, Any] = root.get("properties", {})
    return props


def _options(schema: dict[str, Any] | None, prefix: str) -> Html | None:
    fields = [_option(prefix + name, name, spec) for name, spec in _properties(schema).items()]
    if not fields:
        return None
    return tag("fieldset", tag("legend", "Options"), tag("div", fields, class_="options"))


def _option(field: str, name: str, spec: dict[str, Any]) -> Html:
    text = name.replace("_", " ")
    default = spec.get("default")
    if "enum" in spec:
        options = [tag("option", str(v), value=v, selected=v == default) for v in spec["enum"]]
        control = tag("select", options, name=field)
    elif spec.get("type") == "boolean":
        control = join(
            tag("input", type="hidden", name=field, value="false"),
            tag("input", type="checkbox", name=field, value="true", checked=bool(default)),
        )
    elif spec.get("type") == "integer":
        control = tag("input", type="number", name=field, value=default,
                      min=spec.get("minimum"), max=spec.get("maximum"))  # fmt: skip
    else:
        control = tag("input", type="text", name=field, value=default)
    return tag("label", text, " ", control, class_="option")


# -- joining -----------------------------------------------------------------------------------


def join_page(m: Listed, csrf: str, me: Player | None) -> Html:
    """Return the page that lets a person take one of a match's open seats."""
    buttons = [
        tag("button", f"Play as {m.seats[seat].name}", type="submit", name="seat", value=seat)
        for seat in m.free
    ]
    form = tag(
        "form", tag("input", type="hidden", name="csrf", value=csrf), name_field(me),
        tag("div", buttons, class_="join"), method="post", action=f"/join/{m.match}",
    )  # fmt: skip
    seats = ", ".join(f"{s.name}: {'open' if s.open else s.holder or 'taken'}" for s in m.seats)
    body = join(
        tag("h1", f"Join a match of {m.title}"),
        tag("p", f"Seats: {seats}."),
        form
        if buttons
        else tag("p", "This match is over." if m.finished else "Every seat is taken."),
        tag("p", tag("a", "Watch instead", href=f"/watch/{m.match}")),
    )
    return layout(f"Join {m.title}", body)


# -- the match page ----------------------------------------------------------------------------


def match_page(
    title: str, heading: str, frame: Html, urls: dict[str, str], csrf: str, seats: Sequence[str]
) -> Html:
    """Return a match page: the frame, the replay controls and where the script gets updates."""
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
    body = join(
        tag("h1", heading),
        tag("p", "", id="notice", role="alert", class_="notice", hidden=True),
        tag("p", "", id="connection", class_="connection", aria_live="polite"),
        replay,
        tag("div", frame, id="frame-box"),
        tag("div", id="chooser", class_="chooser", role="dialog", aria_label="choose a move",
            hidden=True),
    )  # fmt: skip
    data = {f"data_{k}_url": v for k, v in urls.items()}
    root = tag("div", body, id="match", data_csrf=csrf, **data)
    return layout(title, root, wide=True)
