"""The replay page's "what if…": another move at a past position of a finished match."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from gamehall.core import RandomBot, Registry, Table

from tests.adapters.http.http_helpers import serve

pytestmark = pytest.mark.anyio
PLACE = "tictactoe.PlaceMark"


async def test_what_if_shows_both_continuations_and_stores_nothing(registry: Registry) -> None:
    table = Table.new("tictactoe", registry=registry, seed=5)
    table.play(RandomBot(5))
    records = table.records()
    async with serve(registry) as served:
        match = await served.hall.import_records(records, match_id="done")
        streams = len(served.hall.matches())
        frame = await served.client.get(f"/watch/{match}/frame", params={"at": 2})
        assert "What if… another move here" in frame.text
        page = await served.client.get(f"/watch/{match}/whatif", params={"at": 2})
        assert page.status_code == 200 and "Legal moves at this position" in page.text
        taken = records[2].meta.command
        free = next(c for c in range(9) if f'"cell":{c}' not in str(records) and c != 4)
        move = json.dumps({"seat": 1, "command": {"type": PLACE, "cell": free}})
        tried = await served.client.get(f"/watch/{match}/whatif?at=2&move={quote(move)}")
        assert tried.status_code == 200
        assert "What happened" in tried.text and "What if" in tried.text, tried.text
        assert taken is not None
        bad = json.dumps({"seat": 1, "command": {"type": PLACE, "cell": 99}})
        refused = await served.client.get(f"/watch/{match}/whatif?at=2&move={quote(bad)}")
        assert "That move cannot be tried here" in refused.text
        assert len(served.hall.matches()) == streams  # nothing stored
        running = await served.hall.create("tictactoe", seed=1)
        closed = await served.client.get(f"/watch/{running}/whatif", params={"at": 1})
        assert closed.status_code == 403 and "once a match has ended" in closed.text


async def test_the_operator_may_try_another_move_in_a_running_match(registry: Registry) -> None:
    async with serve(registry, admin_token="operator-secret") as served:
        running = await served.hall.create("tictactoe", seed=3)
        for cell, seat in ((0, 0), (4, 1), (8, 0)):
            await served.hall.send(running, seat, {"type": PLACE, "cell": cell})
        streams = len(served.hall.matches())
        anyone = await served.client.get(f"/watch/{running}/whatif", params={"at": 2})
        assert anyone.status_code == 403 and "or to the operator" in anyone.text
        wrong = await served.client.get(
            f"/watch/{running}/whatif", params={"at": 2},
            headers={"Authorization": "Bearer not-the-secret"},
        )  # fmt: skip
        assert wrong.status_code in (401, 403) and "Legal moves" not in wrong.text
        move = json.dumps({"seat": 1, "command": {"type": PLACE, "cell": 2}})
        operator = await served.client.get(
            f"/watch/{running}/whatif?at=2&move={quote(move)}",
            headers={"Authorization": "Bearer operator-secret"},
        )
        assert operator.status_code == 200, operator.text
        assert "Legal moves at this position" in operator.text and "What if" in operator.text
        assert len(served.hall.matches()) == streams  # nothing stored
        assert served.hall.view(running, None).outcome is None  # the real match goes on as it was
