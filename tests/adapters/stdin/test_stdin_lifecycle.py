"""A match's life over stdio: a seat left and freed, a match abandoned by its creator, each
told to a watcher in words; bad requests get an error naming the problem."""

from __future__ import annotations

from typing import Any

from gamehall.core import Registry

from tests.adapters.stdin.test_stdin_protocol import Session, run_session


async def answer(s: Session, request: dict[str, Any]) -> tuple[Any, list[Any]]:
    """Return a request's answer and the lines pushed with it."""
    lines = await s.ask(request)
    answers = [line for line in lines if line.get("id") == request["id"] and "ok" in line]
    assert answers, lines
    return answers[0], [line for line in lines if line not in answers]


async def ok(s: Session, request: dict[str, Any]) -> Any:
    said, _ = await answer(s, request)
    assert said["ok"], said
    return said["result"]


async def error(s: Session, request: dict[str, Any], code: str, words: str) -> None:
    said, _ = await answer(s, request)
    assert not said["ok"] and said["error"]["code"] == code, said
    assert words in said["error"]["message"], said


def test_leave_free_and_abandon_over_stdio(registry: Registry) -> None:
    async def body(s: Session) -> None:
        ada = await ok(s, {"id": 1, "op": "register", "name": "Ada"})
        bob = await ok(s, {"id": 2, "op": "register", "name": "Bob"})
        made = await ok(s, {"id": 3, "op": "create", "game": "gunsen", "players": 3,
                            "players_by_seat": {"0": ada["player"]}, "open": [1, 2],
                            "token": ada["token"]})  # fmt: skip
        match = made["match"]
        await ok(s, {"id": 4, "op": "watch", "match": match, "after": made["seq"]})
        said, pushed = await answer(s, {"id": 5, "op": "take_seat", "match": match,
                                        "token": bob["token"], "seat": 1})  # fmt: skip
        assert said["ok"], said
        said, more = await answer(s, {"id": 6, "op": "leave_seat", "match": match,
                                      "token": bob["token"], "seat": 1})  # fmt: skip
        entry = said["result"]
        assert entry["seats"][1]["open"] and entry["creator"] == ada["player"]
        pushed += more + await s.ask({"id": 7, "op": "lobby", "open": True})
        told = [line["event"]["text"] for line in pushed if "event" in line]
        assert told[0] == "Seat 2 was taken by a player.", told  # API seat 1
        assert "Seat 2 was left by its player: it is open again." in told, pushed
        await error(s, {"id": 8, "op": "leave_seat", "match": match, "token": bob["token"],
                        "seat": 1}, "seat_kept", "is open already")  # fmt: skip
        await error(s, {"id": 9, "op": "leave_seat", "match": match, "token": bob["token"],
                        "seat": 0}, "forbidden", "nobody else")  # fmt: skip
        await error(s, {"id": 10, "op": "leave_seat", "match": match, "token": "gp_nobody",
                        "seat": 0}, "unknown_player", "not a player token")  # fmt: skip
        await error(s, {"id": 11, "op": "leave_seat", "match": match, "token": bob["token"]},
                    "invalid_request", "seat")  # fmt: skip
        await error(s, {"id": 12, "op": "abandon", "match": match, "token": bob["token"]},
                    "forbidden", "only the creator")  # fmt: skip
        said, pushed = await answer(
            s, {"id": 13, "op": "abandon", "match": match, "token": ada["token"]}
        )
        assert said["result"]["ended"] == "abandoned" and said["result"]["finished"]
        pushed += await s.ask({"id": 14, "op": "lobby"})
        told = [line["event"]["text"] for line in pushed if "event" in line]
        assert told == ["The match was abandoned by its creator: it is over, without a winner."]
        await error(s, {"id": 15, "op": "take_seat", "match": match, "token": bob["token"]},
                    "match_over", "was abandoned by its creator")  # fmt: skip
        await error(s, {"id": 16, "op": "abandon", "match": "nope", "token": ada["token"]},
                    "unknown_match", "nope")  # fmt: skip

    run_session(registry, body)
