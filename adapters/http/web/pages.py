"""The pages around a match: the layout, the lobby, the join page and the match page itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ..schemas import GameOut
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


class Listed(msgspec.Struct, frozen=True):
    """A match as the lobby lists it."""

    match: str
    game: str
    players: int
    seq: int
    free: list[int]
    names: list[str]
    awaiting: list[str]
    ended: bool


def lobby(games: Sequence[GameOut], listed: Sequence[Listed], csrf: str) -> Html:
    """Return the lobby: open matches to join, live ones to watch, and a form per game."""
    joinable = [m for m in listed if m.free and not m.ended]
    running = [m for m in listed if not m.ended]
    finished = [m for m in listed if m.ended]
    body = join(
        tag("h1", "Lobby"),
        tag("section", tag("h2", "Open seats"), _matches(joinable, "join"), class_="listing"),
        tag("section", tag("h2", "Matches being played"), _matches(running, "watch"),
            class_="listing"),
        tag("section", tag("h2", "Finished matches"), _matches(finished, "replay"),
            class_="listing") if finished else None,
        tag("section", tag("h2", "Start a match"), [_game(g, csrf) for g in games],
            class_="games"),
    )  # fmt: skip
    return layout("Lobby", body)


def _matches(listed: Sequence[Listed], how: str) -> Html:
    if not listed:
        return tag("p", "None right now.", class_="empty")
    rows = []
    for m in listed:
        seats = ", ".join(m.names)
        state = (
            "ended" if m.ended else ("waiting for " + ", ".join(m.awaiting) if m.awaiting else "")
        )
        if how == "join":
            link = tag("a", f"Join ({len(m.free)} free)", href=f"/join/{m.match}")
        else:
            link = tag("a", "Watch" if how == "watch" else "Replay", href=f"/watch/{m.match}")
        rows.append(tag("li", tag("strong", m.game), f" · {seats} · event {m.seq} ",
                        tag("span", state, class_="muted"), " ", link))  # fmt: skip
    return tag("ul", rows, class_="matches")


def _game(game: GameOut, csrf: str) -> Html:
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
        tag("div", players, class_="row"),
        tag("fieldset", tag("legend", "Seats"), seats, class_="seats"),
        tag("fieldset", tag("legend", "Expansions"), expansions) if expansions else None,
        _options(game.options, "o."),
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


def join_page(m: Listed, csrf: str) -> Html:
    """Return the page that lets a person take one of a match's free seats."""
    buttons = [
        tag("form", tag("input", type="hidden", name="csrf", value=csrf),
            tag("input", type="hidden", name="seat", value=seat),
            tag("button", f"Play as {m.names[seat]}", type="submit"),
            method="post", action=f"/join/{m.match}")
        for seat in m.free
    ]  # fmt: skip
    free = buttons or [tag("p", "Every seat is taken.")]
    body = join(
        tag("h1", f"Join a match of {m.game}"),
        tag("p", f"Seats: {', '.join(m.names)}."),
        tag("div", free, class_="join"),
        tag("p", tag("a", "Watch instead", href=f"/watch/{m.match}")),
    )
    return layout(f"Join {m.game}", body)


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
