"""Hostile stdio lines get an answer naming the problem; none of them ends ``serve-stdio``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
TOO_BIG = 2**63


def serve_stdio(db: Path, requests: list[Any]) -> dict[Any, dict[str, Any]]:
    """Send every line to one ``serve-stdio``; return each answer by id (``None``: no id)."""
    lines = [r if isinstance(r, str) else json.dumps(r) for r in requests]
    done = subprocess.run(
        [sys.executable, "-m", "gamehall.adapters.cli", "serve-stdio", "--db", str(db)],
        cwd=ROOT, input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    answers: dict[Any, dict[str, Any]] = {}
    for line in done.stdout.splitlines():
        answer = json.loads(line)
        if "event" not in answer:
            answers.setdefault(answer["id"], answer)
    return answers


def refused(answer: dict[str, Any], code: str, *words: str) -> None:
    assert answer["ok"] is False, answer
    assert answer["error"]["code"] == code, answer
    for word in words:
        assert word in answer["error"]["message"], answer


def test_numbers_out_of_range_are_refused_naming_the_field(tmp_path: Path) -> None:
    answers = serve_stdio(tmp_path / "s.db", [
        {"id": 1, "op": "create", "game": "tictactoe", "match": "m", "seed": 1},
        {"id": 2, "op": "history", "match": "m", "after": TOO_BIG},
        {"id": 3, "op": "history", "match": "m", "limit": TOO_BIG},
        {"id": 4, "op": "history", "match": "m", "limit": -1},
        {"id": 5, "op": "matches", "limit": TOO_BIG},
        {"id": 6, "op": "matches", "limit": -1},
        {"id": 7, "op": "create", "game": "tictactoe", "seed": 99999999999999999999999},
        {"id": 8, "op": "create", "game": "tictactoe", "seed": -1},
        {"id": 9, "op": "watch", "match": "m", "after": TOO_BIG},
        {"id": 10, "op": "view", "match": "m", "seat": TOO_BIG},
        {"id": 11, "op": "history", "match": "m", "after": 2**63 - 1},
        {"id": 12, "op": "view", "match": "m"},
    ])  # fmt: skip
    assert answers[1]["ok"]
    # past 64 bits: refused before decoding, naming the key
    for request_id, field in [(2, "after"), (3, "limit"), (5, "limit"), (7, "seed"),
                              (9, "after"), (10, "seat")]:  # fmt: skip
        refused(answers[request_id], "invalid_json", field, "64-bit")
    for request_id, field in [(4, "limit"), (6, "limit"), (8, "seed")]:
        refused(answers[request_id], "invalid_request", field)
    assert answers[11]["ok"] and answers[11]["result"]["events"] == []
    assert answers[12]["ok"], "serve-stdio stopped answering"


def test_deep_json_and_duplicate_keys_are_refused(tmp_path: Path) -> None:
    deep = '{"id": 1, "op": "create", "game": "tictactoe", "options": ' + "[" * 1000
    deep += "]" * 1000 + "}"
    answers = serve_stdio(tmp_path / "d.db", [
        deep,
        '{"id": 2, "op": "games", "op": "games"}',
        {"id": 3, "op": "games"},
    ])  # fmt: skip
    refused(answers[None], "invalid_json", "deeper than 32")
    refused(answers[2], "invalid_json", "'op' appears twice")
    assert answers[3]["ok"]


def test_match_ids_follow_the_one_rule(tmp_path: Path) -> None:
    db = tmp_path / "ids.db"
    answers = serve_stdio(db, [
        {"id": 1, "op": "create", "game": "tictactoe", "match": "../../x"},
        {"id": 2, "op": "create", "game": "tictactoe", "match": "x" * 100_000},
        {"id": 3, "op": "create", "game": "tictactoe", "match": "nul\u0000byte"},
        {"id": 4, "op": "create", "game": "tictactoe", "match": ""},
        {"id": 5, "op": "create", "game": "tictactoe", "match": "fine_id-1"},
        {"id": 6, "op": "view", "match": "x" * 100_000},
        {"id": 7, "op": "matches"},
    ])  # fmt: skip
    for request_id in (1, 2, 3, 4):
        refused(answers[request_id], "invalid_request", "match")
        assert len(answers[request_id]["error"]["message"]) < 500
    assert answers[5]["ok"]
    refused(answers[6], "unknown_match")
    assert len(answers[6]["error"]["message"]) < 200
    assert [m["match"] for m in answers[7]["result"]["matches"]] == ["fine_id-1"]


def test_command_ids_follow_the_one_rule_of_every_adapter(tmp_path: Path) -> None:
    command = {"type": "tictactoe.PlaceMark", "cell": 4}
    bad = ["", "x" * 1_000_000, "nul\u0000", "rtl\u202e", "line\nbreak", "space d"]
    answers = serve_stdio(tmp_path / "s.db", [
        {"id": 0, "op": "create", "game": "tictactoe", "match": "m", "seed": 1},
        *({"id": n + 1, "op": "command", "match": "m", "seat": 0, "command": command,
           "command_id": cid} for n, cid in enumerate(bad)),
        {"id": 99, "op": "command", "match": "m", "seat": 0, "command": command,
         "command_id": "a-Good.id~1:2_3"},
    ])  # fmt: skip
    for n in range(len(bad)):
        refused(answers[n + 1], "invalid_request", "command_id")
    assert answers[99]["ok"], answers[99]


def test_a_create_sent_again_with_its_request_id_gets_the_first_answer(tmp_path: Path) -> None:
    create = {"op": "create", "game": "tictactoe", "request_id": "once-1"}
    answers = serve_stdio(tmp_path / "s.db", [
        {"id": 1, **create},
        {"id": 2, **create},
        {"id": 3, **create, "game": "toy-battle"},
        {"id": 4, **create, "request_id": "once-2"},
        {"id": 5, "op": "create", "game": "tictactoe", "match": "plain"},
        {"id": 6, "op": "create", "game": "tictactoe", "match": "plain"},
        {"id": 7, "op": "matches"},
    ])  # fmt: skip
    assert answers[1]["ok"] and answers[2]["ok"], answers
    first, again = answers[1]["result"], answers[2]["result"]
    assert again == {**first, "duplicate": True}
    assert answers[3]["ok"] is False  # another create under the same request id: refused
    assert answers[4]["ok"] and answers[4]["result"]["match"] != first["match"]
    refused(answers[6], "duplicate_match")  # a chosen match id without a request id: as before
    assert len(answers[7]["result"]["matches"]) == 3


def test_bot_budgets_have_a_server_maximum() -> None:
    import io

    import anyio
    from gamehall.adapters.stdin.protocol import serve
    from gamehall.core import default_registry
    from gamehall.core.store import MemoryStore

    lines = [
        {"id": 1, "op": "create", "game": "tictactoe", "seats": {"1": "bot:mcts:10000000"}},
        {"id": 2, "op": "create", "game": "tictactoe", "seats": {"1": "bot:mcts:600s"}},
        {"id": 3, "op": "create", "game": "tictactoe", "seats": {"1": "bot:mcts:2000"}},
        {"id": 4, "op": "matches"},
    ]
    registry = default_registry()
    stdin = io.BytesIO("".join(json.dumps(line) + "\n" for line in lines).encode())
    stdout = io.BytesIO()
    anyio.run(serve, MemoryStore(registry.codec), registry, stdin, stdout)
    answers = {}
    for line in stdout.getvalue().decode().splitlines():
        answer = json.loads(line)
        if "event" not in answer:
            answers.setdefault(answer["id"], answer)
    refused(answers[1], "invalid_bot", "at most 50,000 iterations")
    refused(answers[2], "invalid_bot", "at most 5 s")
    assert answers[3]["ok"], answers[3]
    assert len(answers[4]["result"]["matches"]) == 1, answers[4]  # nothing stored for the refused


def test_the_bot_budget_maximum_is_configurable(tmp_path: Path) -> None:
    request = {"id": 1, "op": "create", "game": "tictactoe", "seats": {"1": "bot:mcts:2000"}}
    done = subprocess.run(
        [sys.executable, "-m", "gamehall.adapters.cli", "serve-stdio", "--memory",
         "--max-bot-iterations", "1000", "--max-active", "50"],
        cwd=ROOT, input=json.dumps(request) + "\n", capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    answer = json.loads(done.stdout.splitlines()[0])
    refused(answer, "invalid_bot", "at most 1,000 iterations")
