"""The lobby's forms without a browser: options in words from the options Struct, a refused
value sent back beside its field, bots by strength (also on the rematch), a drawing that
fails, and the app mounted under a path by Starlette and by Litestar."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

import anyio
import httpx
import msgspec
import pytest
from gamehall.adapters.http.app import create_app, mounted_lifespan
from gamehall.adapters.http.web import forms, frame
from gamehall.core import Registry, hookimpl
from gamehall.core.hall import Hall
from gamehall.core.registry import builtin_registry
from gamehall.core.store import MemoryStore
from structlog.testing import capture_logs

from . import hosts
from .pebbles import Plugin

pytestmark = pytest.mark.anyio


@asynccontextmanager
async def client(registry: Registry, app: Any = None, base: str = "") -> AsyncIterator[Any]:
    """Serve a fresh hall's app in process, its lifespan run as a host would; return a client
    with the lobby's CSRF cookie, and the hall."""
    hall = Hall(MemoryStore(registry.codec), registry)
    inner = create_app(hall, manage_hall=True, rate_limits=None)
    served = app(inner) if app is not None else inner
    async with mounted_lifespan(inner):
        transport = httpx.ASGITransport(app=served)
        async with httpx.AsyncClient(transport=transport, base_url="http://web") as web:
            answer = await web.get(f"{base}/")
            assert answer.status_code == 200, answer.text
            web.hall = hall
            web.csrf = web.cookies["gh_csrf"]
            yield web


def form(web: Any, game: str, **fields: str) -> dict[str, str]:
    return {"csrf": web.csrf, "game": game, "name": "Ada", **fields}


class Choices(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    rounds: Annotated[
        int, msgspec.Meta(ge=1, le=9, title="Rounds", description="how many rounds are played")
    ] = 3
    board: Literal["small", "large"] = "small"
    fast_start: bool = False


def test_fields_come_from_the_options_struct() -> None:
    rounds, board, fast = forms.fields(Choices)
    assert (rounds.label, rounds.help, rounds.kind, rounds.low, rounds.high) == (
        "Rounds", "how many rounds are played", "int", 1, 9,
    )  # fmt: skip
    assert (board.label, board.kind, board.choices, board.default) == (
        "Board", "select", ("small", "large"), "small",
    )  # fmt: skip
    assert (fast.label, fast.kind) == ("Fast start", "bool")
    with pytest.raises(forms.FormError) as refused:
        forms.read(Choices, {"o.rounds": ["12"]}, "o.")
    assert refused.value.field == "rounds" and refused.value.message == "at most 9"
    with pytest.raises(forms.FormError) as refused:
        forms.read(Choices, {"o.board": ["huge"]}, "o.")
    assert refused.value.field == "board" and "small, large" in refused.value.message
    assert forms.read(Choices, {"o.rounds": ["4"], "o.fast_start": ["true"]}, "o.") == {
        "rounds": 4, "fast_start": True,
    }  # fmt: skip


async def test_toy_battle_offers_the_rulesets_terrains_as_a_select() -> None:
    async with client(builtin_registry()) as web:
        page = (await web.get("/")).text
        toy = page[page.index('id="game-toy-battle"') :]
        toy = toy[: toy.index("</details>")]
        select = re.search(r'<select name="o.terrain"[^>]*>(.*?)</select>', toy, re.S)
        assert select, "the terrain is not a select"
        assert '<option value="castle" selected>Castle Field / Kasteelland</option>' in select[1]
        assert select[1].count("<option") == 8  # the box's terrains
        sent = form(web, "toy-battle", players="2", seat0="me", seat1="bot")
        refused = await web.post("/lobby/matches", data={**sent, "o.terrain": "moon"})
        assert refused.status_code == 400 and web.hall.lobby.find().total == 0
        field = refused.text[refused.text.index('data-field="o.terrain"') :]
        field = field[: field.index("</div>")]
        assert "moon" in field and "is not one of Castle Field / Kasteelland, Tropical" in field
        made = await web.post("/lobby/matches", data={**sent, "o.terrain": "pool"})
        assert made.status_code == 303
        match = made.headers["location"].split("/")[2]
        assert web.hall.view(match, 0).view.terrain == "pool"
    # A terrain an expansion adds is offered beside the box's, named with its expansion.
    added = forms.fields(Choices, {"board": [("small", "Small"), ("lane", "Lane (with Lane)")]})
    assert added[1].kind == "select" and added[1].names == ("Small", "Lane (with Lane)")


async def test_the_lobby_shows_options_in_words_and_sends_a_refused_value_back() -> None:
    async with client(builtin_registry()) as web:
        page = (await web.get("/")).text
        kaladan = page[page.index('id="game-kaladan"') :]
        kaladan = kaladan[: kaladan.index("</details>")]
        # An enumeration is a select of its values; a number shows its range; no repr.
        assert re.search(r'<select name="o.magic_order"[^>]*>.*simultaneous', kaladan, re.S)
        assert "Annotated" not in page and "Literal" not in page
        ehre = page[page.index('id="game-ehre-der-samurai"') :]
        target = re.search(r'<input[^>]*name="o.honour_target"[^>]*>', ehre)
        assert target and 'min="1"' in target.group(0) and 'type="number"' in target.group(0)
        # The label and help the game gives (msgspec Meta title and description), and the range.
        assert "Honour to win" in ehre and "1 or more" in ehre
        assert "Honour that wins the game at the end of phase 1." in ehre
        sent = form(web, "ehre-der-samurai", players="3", seat0="me", seat1="bot", seat2="bot")
        refused = await web.post("/lobby/matches", data={**sent, "o.honour_target": "0"})
        assert refused.status_code == 400
        shown = refused.text
        field = shown[shown.index('data-field="o.honour_target"') :]
        field = field[: field.index("</div>")]
        assert 'value="0"' in field and "at least 1" in field and 'aria-invalid="true"' in field
        assert re.search(r'<details class="game" id="game-ehre-der-samurai" open>', shown)
        assert "Traceback" not in shown and "$." not in shown
        assert web.hall.lobby.find().total == 0  # nothing was started
        # A value the game itself refuses comes back above the form's button, still filled in.
        # (A starting player within the option's range 0-5, but past the three seats chosen.)
        wrong = await web.post(
            "/lobby/matches",
            data={**form(web, "ehre-der-samurai", players="3", seat0="me", seat1="bot",
                         seat2="bot"), "o.start_seat": "5"},
        )  # fmt: skip
        assert wrong.status_code == 400 and 'class="problem"' in wrong.text
        assert '<option value="5" selected>seat 6 (Aki)</option>' in wrong.text
        assert "the starting player is seat 6" in wrong.text
        assert web.hall.lobby.find().total == 0


async def test_bots_by_strength_in_the_lobby_and_on_the_rematch() -> None:
    async with client(builtin_registry()) as web:
        page = (await web.get("/")).text
        assert "a bot, easy (plays at random)" in page and "a bot, strong" in page
        made = await web.post(
            "/lobby/matches",
            data=form(web, "toy-battle", players="2", seat0="me", seat1="bot:strong"),
        )
        assert made.status_code == 303
        match = made.headers["location"].split("/")[2]
        assert web.hall.info(match).bots == {1: "ismcts:6000"}  # hidden information: IS-MCTS
        made = await web.post(
            "/lobby/matches",
            data=form(web, "tictactoe", players="2", seat0="me", seat1="bot:medium"),
        )
        ttt = made.headers["location"].split("/")[2]
        assert web.hall.info(ttt).bots == {1: "mcts:300"}
        play = (await web.get(f"/play/{ttt}/0")).text
        assert "medium bot" in play
        assert "X: Ada, O: medium bot" in (await web.get("/")).text  # the lobby's words too
        bad = await web.post(
            "/lobby/matches", data=form(web, "tictactoe", players="2", seat0="me", seat1="bot:x")
        )
        assert bad.status_code == 400 and "easy, medium or strong" in bad.text
        # Play X to the end (the bot answers), then ask for a rematch with an easy bot.
        while web.hall.view(ttt, None).outcome is None:
            view = web.hall.view(ttt, 0)
            if view.legal and 0 in view.awaiting:
                await web.hall.send(ttt, 0, view.legal[0], f"c{view.seq}")
            else:
                await anyio.sleep(0.02)  # the bot's move
        ended = (await web.get(f"/play/{ttt}/0")).text
        assert 'action="/play/' in ended and 'name="bots"' in ended
        assert '<option value="medium" selected>' in ended  # the same strength by default
        again = await web.post(f"/play/{ttt}/0/rematch", data={"csrf": web.csrf, "bots": "easy"})
        assert again.status_code == 303
        new = again.headers["location"].split("/")[2]
        assert new != ttt and web.hall.info(new).bots == {0: "random"}  # seats rotated by one
        assert again.headers["location"] == f"/play/{new}/1"


class Broken:
    """A drawing hook that fails, registered after the game's own."""

    @hookimpl
    def gamehall_draw_board(self, view: Any, seat: int | None, legal: list[Any]) -> Any:
        raise RuntimeError("the brush broke")


class BrokenPebbles(Plugin):
    """Pebbles with a drawing that fails."""

    @hookimpl
    def gamehall_games(self) -> list[Any]:
        (spec,) = super().gamehall_games()
        return [dataclasses.replace(spec, hookimpls=(*spec.hookimpls, Broken()))]


async def test_a_failing_drawing_falls_back_to_the_text_board() -> None:
    registry = Registry([BrokenPebbles()], entry_points=False)
    async with client(registry) as web:
        made = await web.post(
            "/lobby/matches", data=form(web, "pebbles", players="2", seat0="me", seat1="open")
        )
        match = made.headers["location"].split("/")[2]
        with capture_logs() as logs:
            page = await web.get(f"/play/{match}/0")
            watched = await web.get(f"/watch/{match}")
        for answer in (page, watched):
            assert answer.status_code == 200
            assert "The board could not be drawn" in answer.text
            assert "the brush broke" not in answer.text and "Traceback" not in answer.text
            assert 'class="view-fields"' in answer.text  # the generic board instead
        failed = [line for line in logs if line["event"] == "drawing_failed"]
        assert failed and failed[0]["hook"] == "gamehall_draw_board"
        assert failed[0]["plugin"].endswith("test_web_forms.Broken")
        token = web.cookies["gh_player"]
        assert all(token not in str(line) for line in logs)


@pytest.mark.parametrize("host", [hosts.starlette_host, hosts.litestar_host])
async def test_mounted_under_a_prefix_every_link_starts_with_it(host: Any) -> None:
    """The hosts of docs/http-api.md: every link under /games, the hall open (no 503)."""
    registry = builtin_registry()
    hall = Hall(MemoryStore(registry.codec), registry)
    app = host(hall)
    async with mounted_lifespan(app):  # as uvicorn would run the host's lifespan
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://web") as web:
            lobby = await web.get("/games/")
            links = re.findall(r'(?:href|action|src)="([^"]+)"', lobby.text)
            assert links and all(link.startswith("/games/") for link in links), links
            web.csrf = web.cookies["gh_csrf"]
            made = await web.post(
                "/games/lobby/matches",
                data=form(web, "tictactoe", players="2", seat0="me", seat1="open"),
            )
            assert made.status_code == 303, made.text  # the hall is open: no 503
            where = made.headers["location"]
            assert where.startswith("/games/play/")
            page = await web.get(where)
            urls = re.findall(r'data-[a-z]+-url="([^"]+)"', page.text)
            assert urls and all(u.startswith("/games/play/") for u in urls)
            assert (await web.get(urls[0])).status_code == 200
            document = (await web.get("/games/openapi.json")).json()
            assert document["servers"] == [{"url": "/games"}]
            assert (await web.get("/games/static/gamehall.css")).status_code == 200
            assert (await web.get("/games/health")).json()["status"] == "ok"
    assert hall.closed  # the host's shutdown closed it


class Table(msgspec.Struct, frozen=True):
    bids: tuple[str, ...]
    pot: float
    open_bid: bool
    leader: int | None
    hands: dict[str, list[int]]


def test_the_generic_page_shows_a_view_as_labelled_values() -> None:
    view = Table(("", "?", "?"), 2.5, False, None, {"seat 1": [3, 4], "seat 2": []})
    shown = str(frame._fields(msgspec.to_builtins(view)))
    assert "<dt>Bids</dt><dd>(blank), ?, ?</dd>" in shown
    assert "<dt>Pot</dt><dd>2.5</dd>" in shown and "<dt>Open bid</dt><dd>no</dd>" in shown
    assert "<dt>Leader</dt><dd>none</dd>" in shown
    assert "<dt>Seat 1</dt><dd>3, 4</dd>" in shown and "<dt>Seat 2</dt><dd>none</dd>" in shown
    assert "(" + "'" not in shown and "[" not in shown
