"""A server killed while seats are taken loses no acknowledged seat and never shows one
both open and taken: the seat's event, its listing entry and its token share one commit."""

from __future__ import annotations

import threading
from pathlib import Path

import httpx
from gamehall.core import Registry
from gamehall.core.events import SeatTaken
from gamehall.core.seating import rebuild_lobby
from gamehall.core.store import SQLiteStore

from tests.nodes import Node

MATCHES = 12


def test_seats_taken_while_the_server_is_killed(registry: Registry, tmp_path: Path) -> None:
    db = str(tmp_path / "hall.db")
    node = Node(db)
    url = node.start()
    acknowledged: list[tuple[str, int, str]] = []
    with httpx.Client(base_url=url, timeout=10) as client:
        matches = [
            client.post(
                "/matches", json={"game": "gunsen", "players": 6, "seating": "open"}
            ).json()["match"]
            for _ in range(MATCHES)
        ]

    def claim(match: str) -> None:
        with httpx.Client(base_url=url, timeout=10) as client:
            for seat in range(6):
                try:
                    answer = client.post(f"/matches/{match}/seats", json={"seat": seat})
                except httpx.HTTPError:
                    return  # the server is gone: this claim may or may not be stored
                if answer.status_code == 201:
                    acknowledged.append((match, seat, answer.json()["token"]))

    threads = [threading.Thread(target=claim, args=(m,)) for m in matches]
    for thread in threads:
        thread.start()
    while len(acknowledged) < MATCHES * 2 and any(t.is_alive() for t in threads):
        threading.Event().wait(0.005)
    node.kill()  # SIGKILL in the middle of the claims
    for thread in threads:
        thread.join()
    store = SQLiteStore(db, registry.codec)
    try:
        for match in matches:
            entry = store.stream_info(match)
            assert entry is not None
            taken = {r.event.seat for r in store.read(match) if isinstance(r.event, SeatTaken)}
            opened = set(entry.info["open"])
            assert taken.isdisjoint(opened) and taken | opened == set(range(6))
            assert set(store.seat_tokens(match)) == taken
        for match, seat, _ in acknowledged:
            assert seat not in store.stream_info(match).info["open"]  # type: ignore[union-attr]
        # The listing and the log agree: a rebuild changes nothing.
        assert rebuild_lobby(store, registry).changed == []
    finally:
        store.close()
    url = node.start()  # the tokens given act after the restart
    try:
        with httpx.Client(base_url=url, timeout=10) as client:
            for match, seat, token in acknowledged[:5]:
                view = client.get(
                    f"/matches/{match}/view", headers={"Authorization": f"Bearer {token}"}
                )
                assert view.status_code == 200 and view.json()["seat"] == seat
    finally:
        node.stop()
