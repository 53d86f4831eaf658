"""The debugging requests over the stdio protocol, on a finished tic-tac-toe match."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

GAMEHALL = [sys.executable, "-m", "gamehall.adapters.cli"]
PLACE = "tictactoe.PlaceMark"


def serve(requests: list[dict[str, Any]]) -> list[Any]:
    lines = [json.dumps({"id": n, **r}) for n, r in enumerate(requests, start=1)]
    done = subprocess.run(
        [*GAMEHALL, "serve-stdio", "--memory"], input="\n".join(lines) + "\n",
        capture_output=True, check=False, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def place(seat: int, cell: int) -> dict[str, Any]:
    return {"op": "command", "match": "m", "seat": seat, "command": {"type": PLACE, "cell": cell}}


def test_why_shrink_whatif_to_test_and_replay_diff_over_stdio() -> None:
    moves = [place(0, 4), place(1, 0), place(0, 2), place(1, 1), place(0, 6)]
    answers = serve([
        {"op": "create", "game": "tictactoe", "seed": 3, "match": "m"},
        {"op": "why", "match": "m", "seq": 2},  # still going on: refused
        *moves,
        {"op": "why", "match": "m", "seq": 7},
        {"op": "shrink", "match": "m", "until": "outcome=winner:1"},
        {"op": "whatif", "match": "m", "at": 6, "replace": {"type": PLACE, "cell": 8}},
        {"op": "whatif", "match": "m", "at": 6, "replace": {"type": PLACE, "cell": 4}},
        {"op": "whatif", "match": "m", "at": 99, "drop": True},
        {"op": "to_test", "match": "m"},
        {"op": "replay_diff", "match": "m", "seq": 2, "seat": 1},
        {"op": "shrink", "match": "m", "until": "tests.debug.predicates:koku_negative"},
    ])  # fmt: skip
    by_id = {a["id"]: a for a in answers}
    assert by_id[2]["error"]["code"] == "bad_debug_request"
    assert "still going on" in by_id[2]["error"]["message"]
    why = by_id[8]["result"]["lines"]
    assert any(line.startswith("rule TTT-3:") for line in why), why
    assert any("seat 1 (X)" in line for line in why), why
    shrunk = by_id[9]["result"]
    assert shrunk["before"] == 5 and shrunk["after"] == 5 and len(shrunk["events"]) == 7
    changed = by_id[10]["result"]
    assert changed["first_difference"] == 6 and changed["outcome"] is None
    assert by_id[11]["error"]["code"] == "bad_debug_request"
    assert "not legal" in by_id[11]["error"]["message"]
    assert "outside the log" in by_id[12]["error"]["message"]
    assert "def test_m()" in by_id[13]["result"]["text"]
    assert by_id[14]["result"]["changes"] == [
        {"path": "board[4]", "before": 0, "after": 1},
        {"path": "turn", "before": 0, "after": 1},
    ]
    assert "only taken on the command line" in by_id[15]["error"]["message"]
