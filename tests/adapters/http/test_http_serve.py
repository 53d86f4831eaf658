"""``gamehall serve``: the server on the SQLite store, whose seat tokens survive a restart."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx
from http_helpers import bearer, gamehall_serve


def place(cell: int, cid: str) -> dict[str, object]:
    return {"command": {"type": "tictactoe.PlaceMark", "cell": cell}, "command_id": cid}


def test_seat_tokens_and_matches_survive_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "hall.db")
    with (
        gamehall_serve(db, {"GAMEHALL_ADMIN_TOKEN": "operator"}) as url,
        httpx.Client(base_url=url) as client,
    ):
        created = client.post("/matches", json={"game": "tictactoe", "seed": 1}).json()
        match, seats = created["match"], created["seats"]
        x, o = seats[0]["token"], seats[1]["token"]
        assert (
            client.post(
                f"/matches/{match}/commands", json=place(4, "a"), headers=bearer(x)
            ).status_code
            == 200
        )
        assert client.get(f"/matches/{match}/log", headers=bearer("operator")).status_code == 200
    # Only digests are stored: the file holds no usable token.
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT stream, seat, digest FROM seat_tokens").fetchall()
    conn.close()
    assert sorted((m, s) for m, s, _ in rows) == [(match, 0), (match, 1)]
    dump = Path(db).read_bytes() + (
        Path(db + "-wal").read_bytes() if Path(db + "-wal").exists() else b""
    )
    assert x.encode() not in dump and o.encode() not in dump
    with gamehall_serve(db) as url, httpx.Client(base_url=url) as client:
        retry = client.post(
            f"/matches/{match}/commands", json=place(4, "a"), headers=bearer(x)
        ).json()
        assert retry["duplicate"] is True and retry["last_seq"] == 2
        moved = client.post(f"/matches/{match}/commands", json=place(0, "b"), headers=bearer(o))
        assert moved.status_code == 200 and moved.json()["first_seq"] == 3
        assert (
            client.post(
                f"/matches/{match}/commands", json=place(1, "c"), headers=bearer(o)
            ).status_code
            == 409
        )
        swapped = client.get(f"/matches/{match}/view", headers=bearer(x + "x"))
        assert swapped.status_code == 401
        no_admin = client.get(f"/matches/{match}/log", headers=bearer("operator"))
        assert no_admin.status_code == 401  # without GAMEHALL_ADMIN_TOKEN there is no admin
