"""The machine mode: the documented transcript against a subprocess, and each kind of bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from gamehall.adapters.stdin import protocol
from gamehall.core import Registry
from gamehall.core.hall import Hall
from gamehall.core.store import MemoryStore

DOC = Path(__file__).resolve().parents[3] / "docs" / "stdio-protocol.md"
GAMEHALL = [sys.executable, "-m", "gamehall.adapters.cli"]
PLACE = "tictactoe.PlaceMark"


def _normalise(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: None if k == "time" else _normalise(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normalise(v) for v in value]
    return value


def _split(lines: list[Any]) -> tuple[list[Any], dict[Any, list[Any]]]:
    answers = [line for line in lines if "ok" in line]
    pushed: dict[Any, list[Any]] = {}
    for line in lines:
        if "ok" not in line:
            pushed.setdefault(line["id"], []).append(line)
    return answers, pushed


def serve(lines: list[str], *args: str) -> tuple[list[Any], str, int]:
    """Run serve-stdio on some input lines; return the decoded output, stderr and exit code."""
    done = subprocess.run(
        [*GAMEHALL, "serve-stdio", *args], input="\n".join(lines) + "\n",
        capture_output=True,
        check=False, text=True, timeout=60,
    )  # fmt: skip
    return [json.loads(line) for line in done.stdout.splitlines()], done.stderr, done.returncode


def test_the_documented_transcript_replays() -> None:
    block = re.search(r"```transcript\n(.*?)```", DOC.read_text(), re.DOTALL)
    assert block is not None
    sent = [line[2:] for line in block.group(1).splitlines() if line.startswith("> ")]
    expected = [
        _normalise(json.loads(line[2:]))
        for line in block.group(1).splitlines()
        if line.startswith("< ")
    ]
    assert len(sent) > 10 and len(expected) >= len(sent)
    actual, stderr, code = serve(sent, "--memory")
    assert code == 0 and stderr == ""
    got, want = _split([_normalise(a) for a in actual]), _split(expected)
    assert got[0] == want[0]
    for watch, lines in want[1].items():
        events = [line for line in got[1][watch] if "event" in line]
        assert events == [line for line in lines if "event" in line]
        # How often "whose move" is told depends on how far the watch had caught up.
        turns = [line for line in got[1][watch] if "turn" in line]
        expected_turns = [line for line in lines if "turn" in line]
        assert turns[-1] == expected_turns[-1] and all(t in expected_turns for t in turns)


# -- in-process server, for the cases the transcript does not show ---------------------------


class Session:
    """A server over a memory store, fed lines one at a time."""

    def __init__(self, server: protocol.Server, out: Any) -> None:
        self.server = server
        self.out = out
        self.number = 0

    async def ask(self, request: Any) -> list[Any]:
        """Send one line (a dict is encoded); return every line written since the last call."""
        self.number += 1
        line = request if isinstance(request, bytes) else json.dumps(request).encode()
        await self.server.handle_line(line, self.number)
        await anyio.sleep(0.01)
        written = self.out.getvalue().decode().splitlines()
        self.out.seek(0)
        self.out.truncate()
        return [json.loads(x) for x in written]


async def _session(registry: Registry, body: Any) -> None:
    import io

    out = io.BytesIO()
    async with Hall(MemoryStore(registry.codec), registry) as hall, anyio.create_task_group() as tg:
        session = Session(protocol.Server(hall, out, tg), out)
        await body(session)
        await session.server.drain()
        tg.cancel_scope.cancel()


def run_session(registry: Registry, body: Any) -> None:
    anyio.run(_session, registry, body)


def test_bad_requests_get_an_error_answer_with_the_line(registry: Registry) -> None:
    async def body(s: Session) -> None:
        cases = [
            (b"{not json", None, "invalid_json"),
            (b"[1, 2]", None, "invalid_request"),
            ({"op": "games"}, None, "invalid_request"),
            ({"id": True, "op": "games"}, None, "invalid_request"),
            ({"id": "a", "op": "nope"}, "a", "unknown_request"),
            ({"id": "b"}, "b", "unknown_request"),
            ({"id": 3, "op": "create"}, 3, "invalid_request"),
            (
                {"id": 4, "op": "create", "game": "tictactoe", "players": "two"},
                4,
                "invalid_request",
            ),
            ({"id": 5, "op": "create", "game": "tictactoe", "colour": "red"}, 5, "invalid_request"),
            ({"id": 6, "op": "create", "game": "no-such-game"}, 6, "unknown_game"),
            ({"id": 7, "op": "create", "game": "tictactoe", "players": 5}, 7, "invalid_options"),
            ({"id": 8, "op": "history", "match": "ghost"}, 8, "unknown_match"),
            ({"id": 9, "op": "watch", "match": "ghost"}, 9, "unknown_match"),
        ]
        for request, request_id, code in cases:
            [answer] = await s.ask(request)
            assert answer["id"] == request_id and answer["ok"] is False, answer
            assert answer["error"]["code"] == code, answer
            assert answer["error"]["line"] == s.number
            assert "Traceback" not in answer["error"]["message"]
        [answer] = await s.ask({"id": 10, "op": "create", "game": "tictactoe", "match": "m"})
        assert answer["ok"]
        [again] = await s.ask({"id": 11, "op": "create", "game": "tictactoe", "match": "m"})
        assert again["error"]["code"] == "duplicate_match"
        [seat] = await s.ask({"id": 12, "op": "legal", "match": "m", "seat": 2})
        assert seat["error"]["code"] == "invalid_seat"
        [unwatch] = await s.ask({"id": 13, "op": "unwatch", "watch": 99})
        assert unwatch["error"]["code"] == "unknown_watch"

    run_session(registry, body)


def test_a_match_played_to_the_end_and_watched_by_a_spectator(registry: Registry) -> None:
    async def body(s: Session) -> None:
        await s.ask({"id": 1, "op": "create", "game": "tictactoe", "seed": 1, "match": "m"})
        lines = await s.ask({"id": "w", "op": "watch", "match": "m"})
        assert lines[0]["result"]["watch"] == "w"
        events = [line["event"] for line in lines[1:] if "event" in line]
        assert [e["seq"] for e in events] == [1]
        assert events[0]["event"]["seed"] is None  # the seed never leaves
        assert events[0]["text"] == "A match of Tic-tac-toe began with 2 players."
        turns = [line["turn"] for line in lines[1:] if "turn" in line]
        assert turns == [
            {"match": "m", "seq": 1, "seat": None, "awaiting": [0], "decision": None, "free": False}
        ]
        pushed = []
        for n, (seat, cell) in enumerate([(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)]):
            command = {"type": PLACE, "cell": cell}
            out = await s.ask(
                {"id": 10 + n, "op": "command", "match": "m", "seat": seat, "command": command}
            )
            answers = [line for line in out if "ok" in line]
            assert answers and answers[0]["ok"], out
            pushed += [line["event"] for line in out if "event" in line]
        assert [e["seq"] for e in pushed] == [2, 3, 4, 5, 6, 7]
        assert all("command" not in e["meta"] for e in pushed)  # a spectator sees no command
        [view] = await s.ask({"id": 20, "op": "view", "match": "m"})
        assert view["result"]["outcome"]["winners"] == [0]
        assert view["result"]["awaiting"] == {} and view["result"]["legal"] == []
        [over] = await s.ask(
            {
                "id": 21,
                "op": "command",
                "match": "m",
                "seat": 1,
                "command": {"type": PLACE, "cell": 8},
            }
        )
        assert over["error"]["code"] == "match_over"
        [games] = await s.ask({"id": 22, "op": "games"})
        ids = {g["id"]: g for g in games["result"]["games"]}
        assert ids["tictactoe"]["players"] == [2, 2]
        assert [e["id"] for e in ids["tictactoe"]["expansions"]] == ["tictactoe-misere"]
        [stop] = await s.ask({"id": 23, "op": "unwatch", "watch": "w"})
        assert stop["result"] == {"stopped": "w", "last_seq": 7}

    run_session(registry, body)


def test_a_watch_pushes_every_stored_event_before_the_server_stops(tmp_path: Path) -> None:
    db = str(tmp_path / "w.db")
    lines = [json.dumps({"id": 1, "op": "create", "game": "tictactoe", "seed": 2, "match": "m"}),
             json.dumps({"id": 2, "op": "watch", "match": "m", "seat": 0})]  # fmt: skip
    for n, (seat, cell) in enumerate([(0, 4), (1, 0), (0, 8)]):
        command = {"type": PLACE, "cell": cell}
        lines.append(
            json.dumps(
                {"id": 3 + n, "op": "command", "match": "m", "seat": seat, "command": command}
            )
        )
    out, stderr, code = serve(lines, "--db", db)
    assert code == 0 and stderr == ""
    answers, pushed = _split(out)
    assert [a["id"] for a in answers] == [1, 2, 3, 4, 5] and all(a["ok"] for a in answers)
    assert [p["event"]["seq"] for p in pushed[2] if "event" in p] == [1, 2, 3, 4]
    turns = [p["turn"] for p in pushed[2] if "turn" in p]
    assert [(t["awaiting"], t["decision"] is not None) for t in turns] == [
        ([0], True),
        ([1], False),
        ([0], True),
        ([1], False),
    ], "seat 0 is told each time it may act, and each time it may not"
    # the matches are in the store: a second server sees them
    again, _, _ = serve(
        [json.dumps({"id": 1, "op": "history", "match": "m", "after": 3})], "--db", db
    )
    assert [e["seq"] for e in again[0]["result"]["events"]] == [4]


def test_an_unexpected_error_is_an_answer(
    registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def body(s: Session) -> None:
        await s.ask({"id": 1, "op": "create", "game": "tictactoe", "match": "m"})

        def broken(*_: Any) -> Any:
            raise ZeroDivisionError("boom")

        logged: list[Any] = []

        class Log:
            def error(self, *args: Any, **kw: Any) -> None:
                logged.append((args, kw))

        monkeypatch.setattr(protocol, "log", Log())
        monkeypatch.setattr(protocol.reads, "narrated_history", broken)  # what history reads
        [answer] = await s.ask({"id": 2, "op": "history", "match": "m"})
        error = answer["error"]
        assert error["code"] == "internal_error" and error["line"] == 2
        # The client learns only an incident id (the text might name hidden state) ...
        assert "boom" not in error["message"] and "incident" in error["message"]
        # ... and the log has the error once, with its traceback, under the same id.
        [(args, kw)] = logged
        assert args == ("request failed",) and kw["line"] == 2
        assert kw["incident"] in error["message"] and isinstance(kw["exc_info"], ZeroDivisionError)
        [fine] = await s.ask({"id": 3, "op": "view", "match": "m", "seat": 0})
        assert fine["ok"]

    run_session(registry, body)


def test_every_op_is_documented() -> None:
    text = DOC.read_text()
    for op in protocol.PARAMS:
        assert f"| `{op}` |" in text, op


def test_a_clan_trades_on_another_clans_turn_over_stdio(registry: Registry) -> None:
    async def body(s: Session) -> None:
        create = {"id": 1, "op": "create", "game": "river-of-gold", "seed": 1, "match": "r"}
        await s.ask(create)
        [legal] = await s.ask({"id": 2, "op": "legal", "match": "r", "seat": 1})
        assert [entry["command"]["type"] for entry in legal["result"]["legal"]] == [
            "river_of_gold.BuyFavour"
        ]
        command = {"type": "river_of_gold.BuyFavour"}
        [done] = await s.ask(
            {"id": 3, "op": "command", "match": "r", "seat": 1, "command": command}
        )
        assert done["ok"], done
        [view] = await s.ask({"id": 4, "op": "view", "match": "r", "seat": 1})
        assert list(view["result"]["awaiting"]) == ["0"]
        [refused] = await s.ask(
            {"id": 5, "op": "command", "match": "r", "seat": 1,
             "command": {"type": "river_of_gold.EndTurn"}}
        )  # fmt: skip
        assert refused["error"]["code"] == "not_awaited"

    run_session(registry, body)
