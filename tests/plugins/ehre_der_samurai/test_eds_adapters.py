"""A Save Face window awaiting three seats, played over HTTP, the stdio protocol and hot-seat."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from eds_helpers import fight_plan
from gamehall.adapters.cli import main
from gamehall.core import Registry, default_registry
from gamehall.core.store import SQLiteStore

from tests.adapters.http.http_helpers import bearer, serve

GAME = "ehre-der-samurai"
PASS = {"type": "ehre_der_samurai.Pass"}


def _answer(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Return a Save Face where the seat holds one, else the pass."""
    saves = [c for c in legal if c["type"] == "ehre_der_samurai.SaveFace"]
    return saves[0] if saves else PASS


@pytest.mark.anyio
@pytest.mark.parametrize("order", [(2, 0, 1), (1, 2, 0), (0, 1, 2)])
async def test_a_window_over_http_three_seats_answer_in_any_order(
    registry: Registry, order: tuple[int, int, int]
) -> None:
    seed, plan = fight_plan(3)
    async with serve(registry) as served:
        client = served.client
        created = await client.post("/matches", json={"game": GAME, "players": 3, "seed": seed})
        assert created.status_code == 201, created.text
        match = created.json()["match"]
        tokens = {s["seat"]: s["token"] for s in created.json()["seats"]}

        async def post(seat: int, command: dict[str, Any], cid: str) -> Any:
            body = {"command": command, "command_id": cid}
            return await client.post(
                f"/matches/{match}/commands", json=body, headers=bearer(tokens[seat])
            )

        for n, (seat, command) in enumerate(plan):
            sent = await post(seat, msgspec.to_builtins(command), f"plan-{n}")
            assert sent.status_code == 200, sent.text
        info = (await client.get(f"/matches/{match}")).json()
        assert sorted(info["awaiting"]) == ["0", "1", "2"]
        assert len({json.dumps(d) for d in info["awaiting"].values()}) == 1
        answered: list[int] = []
        for position, seat in enumerate(order):
            view = (await client.get(f"/matches/{match}/view", headers=bearer(tokens[seat]))).json()
            assert PASS in view["legal"] and view["awaiting"][str(seat)]["kind"] == "reaction"
            ack = await post(seat, _answer(view["legal"]), f"answer-{seat}")
            assert ack.status_code == 200, ack.text
            types = [e["event"]["type"] for e in ack.json()["events"]]
            answered.append(seat)
            if position < 2:
                assert types == ["ehre_der_samurai.Answered"]
                again = await post(seat, PASS, f"again-{seat}")
                assert again.status_code == 409 and again.json()["error"] == "not_awaited"
                waiting = (await client.get(f"/matches/{match}")).json()["awaiting"]
                assert sorted(waiting) == sorted(str(s) for s in (0, 1, 2) if s not in answered)
                other = order[position + 1]
                seen = (await client.get(
                    f"/matches/{match}/history", headers=bearer(tokens[other]),
                    params={"after": ack.json()["first_seq"] - 1},
                )).json()["events"]  # fmt: skip
                assert seen[0]["event"]["answer"] is None, "an answer is hidden from the others"
            else:
                assert "ehre_der_samurai.WindowClosed" in types
                assert types[-1] == "ehre_der_samurai.FightEnded"
        after = (await client.get(f"/matches/{match}")).json()
        assert list(after["awaiting"]) == ["1"] and after["awaiting"]["1"]["kind"] == "turn"


def _serve_stdio(lines: list[str]) -> list[Any]:
    done = subprocess.run(
        [sys.executable, "-m", "gamehall.adapters.cli", "serve-stdio", "--memory"],
        input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_a_window_over_the_stdio_protocol_three_seats_in_any_order() -> None:
    seed, plan = fight_plan(3)
    create = {"id": "new", "op": "create", "game": GAME, "players": 3, "seed": seed, "match": "m"}
    requests: list[dict[str, Any]] = [create]
    for n, (seat, command) in enumerate(plan):
        requests.append({"id": f"p{n}", "op": "command", "match": "m", "seat": seat,
                         "command": msgspec.to_builtins(command)})  # fmt: skip
    requests.append({"id": "asked", "op": "view", "match": "m", "seat": 1})
    for seat in (1, 2, 0):
        requests.append({"id": f"a{seat}", "op": "command", "match": "m", "seat": seat,
                         "command": PASS, "command_id": f"answer-{seat}"})  # fmt: skip
        requests.append({"id": f"h{seat}", "op": "history", "match": "m", "seat": (seat + 1) % 3,
                         "after": 0})  # fmt: skip
    requests.append({"id": "twice", "op": "command", "match": "m", "seat": 0, "command": PASS})
    requests.append({"id": "end", "op": "view", "match": "m", "seat": 1})
    answers = {a["id"]: a for a in _serve_stdio([json.dumps(r) for r in requests])}
    assert all(answers[f"p{n}"]["ok"] for n in range(len(plan)))
    asked = answers["asked"]["result"]
    assert sorted(asked["awaiting"]) == ["0", "1", "2"] and PASS in [c for c in asked["legal"]]
    for seat in (1, 2):
        result = answers[f"a{seat}"]["result"]
        assert [e["event"]["type"] for e in result["events"]] == ["ehre_der_samurai.Answered"]
        own = result["events"][0]["event"]["answer"]
        theirs = [
            e["event"] for e in answers[f"h{seat}"]["result"]["events"]
            if e["event"]["type"] == "ehre_der_samurai.Answered" and e["event"]["seat"] == seat
        ]  # fmt: skip
        assert own == "pass" and theirs == [{**theirs[0], "answer": None}]
    last = [e["event"]["type"] for e in answers["a0"]["result"]["events"]]
    assert "ehre_der_samurai.WindowClosed" in last and last[-1] == "ehre_der_samurai.FightEnded"
    assert answers["twice"]["error"]["code"] == "not_awaited"
    assert list(answers["end"]["result"]["awaiting"]) == ["1"]


@pytest.fixture
def _quiet_logging(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("gamehall.adapters.cli.configure", lambda **_: None)


@pytest.mark.usefixtures("_quiet_logging")
def test_a_window_hot_seat_through_stdin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seed, plan = fight_plan(3)
    lines: list[str] = []
    last = None
    # The terminal is handed over (an Enter) whenever another seat's person is asked.
    for seat, command in [*plan, (0, None), (1, None), (2, None)]:
        if seat != last:
            lines.append("")
            last = seat
        lines.append(json.dumps(msgspec.to_builtins(command)) if command else json.dumps(PASS))
    lines += ["", "quit"]
    db = str(tmp_path / "hot.db")
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    argv = ["play", GAME, "--players", "3", "--seed", str(seed), "--match", "hot", "--db", db,
            "--seat", "1=human", "--seat", "2=human", "--seat", "3=human"]  # fmt: skip
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == "" and "Traceback" not in out and "refused" not in out
    assert "play Save Face for Owari, who lost the fight, or pass" in out
    assert out.count("pass the terminal to seat") >= 5
    store = SQLiteStore(Path(db), default_registry().codec)
    try:
        records = store.read("hot")
    finally:
        store.close()
    answered = [r.meta.seat for r in records if type(r.event).__name__ == "Answered"]
    assert answered == [0, 1, 2]
    assert any(type(r.event).__name__ == "FightEnded" for r in records)
