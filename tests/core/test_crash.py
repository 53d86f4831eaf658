"""SIGKILL at any moment under load loses no acknowledged command.

A driver process opens an SQLite store (``synchronous=FULL``, the default) and a Hall, plays
many tic-tac-toe matches concurrently (half of them with open seats, taken one by one before
play), and prints one line per acknowledgement the moment it has it. The test kills the driver with SIGKILL — right at start, or after some acknowledgements
and a random short delay — and then checks the file: every acknowledged command is there with
its seqs, every seat taken is held and never also listed open, every stored match verifies,
and the store reopens and keeps working.
"""

from __future__ import annotations

import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import anyio
import pytest
from gamehall.core import MatchStarted, Registry, default_registry, replay
from gamehall.core.events import SeatTaken
from gamehall.core.hall import Hall
from gamehall.core.seating import rebuild_lobby
from gamehall.core.store import SQLiteStore

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

ROOT = Path(__file__).resolve().parents[2]
MATCHES = 30

DRIVER = textwrap.dedent(
    """
    import random
    import sys

    import anyio

    from gamehall.core import default_registry
    from gamehall.core.hall import Hall
    from gamehall.core.store import SQLiteStore

    path, seed, generation = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    write, flush = sys.stdout.write, sys.stdout.flush


    def say(line):
        write(line + "\\n")
        flush()


    async def player(hall, rng, n):
        k = 0
        while True:
            seated = rng.random() < 0.5  # open seats, taken one at a time before play
            match = await hall.create(
                "tictactoe", seed=rng.randrange(1 << 30), open_seats=[0, 1] if seated else ()
            )
            say(f"created {match} 1")
            if seated:
                for seat in rng.sample([0, 1], 2):
                    await hall.lobby.take_seat(match, None, seat, rng.randbytes(32))
                    say(f"seat {match} {seat}")
            while True:
                asked = hall.awaiting(match)
                if not asked:
                    break
                seat = next(iter(asked))
                command = rng.choice(hall.legal(match, seat))
                cid = f"g{generation}-p{n}-c{k}"
                k += 1
                ack = await hall.send(match, seat, command, command_id=cid)
                say(f"ack {match} {cid} {ack.first_seq} {ack.last_seq}")


    async def main():
        registry = default_registry()
        store = SQLiteStore(path, registry.codec)
        async with Hall(store, registry) as hall:
            say("ready")
            async with anyio.create_task_group() as tg:
                for n in range(int(sys.argv[4])):
                    tg.start_soon(player, hall, random.Random(seed * 1000 + n), n)


    anyio.run(main)
    """
)


class Run:
    """One driver process, its acknowledgements and how it ended."""

    def __init__(self, driver: Path, db: Path, seed: int, generation: int) -> None:
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.proc = subprocess.Popen(
            [sys.executable, str(driver), str(db), str(seed), str(generation), str(MATCHES)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.seen: list[str] = []

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            if raw.endswith(b"\n"):  # a line cut by the kill was never acknowledged
                self.lines.put(raw.decode().rstrip("\n"))
        self.lines.put(None)

    def wait_for(self, acks: int, timeout: float = 10.0, ready: bool = False) -> None:
        """Collect lines until ``acks`` acknowledgements were seen (or the driver ended)."""
        deadline = time.monotonic() + timeout
        count = sum(line.startswith("ack ") for line in self.seen)
        while count < acks or (ready and "ready" not in self.seen):
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.kill()
                pytest.fail(f"the driver acknowledged only {count} commands in {timeout}s")
            if line is None:
                self.lines.put(None)
                return
            self.seen.append(line)
            count += line.startswith("ack ")

    def kill(self) -> list[str]:
        """SIGKILL the driver and return every complete line it wrote."""
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.reader.join(timeout=10)
        while True:
            line = self.lines.get(timeout=10)
            if line is None:
                break
            self.seen.append(line)
        assert self.proc.stderr is not None
        err = self.proc.stderr.read().decode()
        self.proc.stdout.close()  # type: ignore[union-attr]
        self.proc.stderr.close()
        assert self.proc.returncode == -signal.SIGKILL, f"the driver ended by itself:\n{err}"
        return self.seen


def check_store(db: Path, registry: Registry, lines: list[str], note: str) -> dict[str, int]:
    """Check every acknowledgement against the file; return the stored version of each match."""
    created = [line.split()[1] for line in lines if line.startswith("created ")]
    acks = [line.split() for line in lines if line.startswith("ack ")]
    if not db.exists():
        assert not created and not acks, f"{note}: acknowledged, but no store file"
        return {}
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok", note
    finally:
        conn.close()
    store = SQLiteStore(db, registry.codec)
    try:
        streams = {info.stream: info.version for info in store.streams()}
        for match in created:
            assert match in streams, f"{note}: created match {match} is not stored"
            assert isinstance(store.read(match, 0, 1)[0].event, MatchStarted)
        last_acked: dict[str, int] = {}
        for _, match, cid, first, last in acks:
            ids = store.command_ids(match)
            assert cid in ids, f"{note}: acknowledged command {cid} of {match} is lost"
            assert ids[cid] == (int(first), int(last)), f"{note}: {cid} stored at other seqs"
            head = store.read(match, int(first) - 1, int(first))[0]
            assert head.meta.command_id == cid and head.meta.command is not None, note
            assert last_acked.get(match, 0) < int(first), f"{note}: acks of {match} out of order"
            last_acked[match] = int(last)
        seats = [line.split()[1:] for line in lines if line.startswith("seat ")]
        for match, seat in seats:
            taken = [r.event.seat for r in store.read(match) if isinstance(r.event, SeatTaken)]
            assert int(seat) in taken, f"{note}: the acknowledged seat {seat} of {match} is lost"
        for match in streams:
            entry = store.stream_info(match)
            assert entry is not None, note
            taken = {r.event.seat for r in store.read(match) if isinstance(r.event, SeatTaken)}
            opened = set(entry.info.get("open") or [])
            assert not taken & opened, (
                f"{note}: {match} lists seats {taken & opened} open and taken"
            )
            if taken or opened:
                assert taken | opened == {0, 1}, f"{note}: {match} lost a seat"
            assert set(store.seat_tokens(match)) == taken, f"{note}: {match}'s tokens"
        assert rebuild_lobby(store, registry).changed == [], note
        for match, version in streams.items():
            assert version >= last_acked.get(match, 1), note
            records = store.read(match)
            assert [r.seq for r in records] == list(range(1, version + 1)), note
            ruleset = replay.ruleset_for(registry, records)
            assert replay.verify(ruleset, records) is None, f"{note}: {match} does not verify"
        return streams
    finally:
        store.close()


async def keep_playing(db: Path, registry: Registry, streams: dict[str, int]) -> None:
    """Reopen the store with a Hall: continue a stored match and start a new one."""
    store = SQLiteStore(db, registry.codec)
    try:
        async with Hall(store, registry) as hall:
            going = [m for m in sorted(streams) if hall.awaiting(m)]
            for match in going[:3]:
                seat = next(iter(hall.awaiting(match)))
                command = hall.legal(match, seat)[0]
                ack = await hall.send(match, seat, command, command_id="after-crash")
                assert ack.first_seq == streams[match] + 1
            new = await hall.create("tictactoe", seed=1)
            await hall.send(new, 0, hall.legal(new, 0)[0])
        for match in going[:3]:
            assert "after-crash" in store.command_ids(match)
        assert store.version(new) == 2
    finally:
        store.close()


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("crash-driver") / "crash_driver.py"
    path.write_text(DRIVER)
    return path


# (kill after this many seconds from spawn, or None) and (after this many acks, or None);
# with acks, the kill comes a random 0-50 ms after that many were seen
PLANS = {
    "at-once": (0.0, None),
    "while-starting": (None, 0),  # as soon as the hall is open
    "first-acks": (None, 1),
    "mid-load": (None, 150),
    "late-load": (None, 1500),
    "random-early": (-0.4, None),  # a random moment in the first 0.4 s
    "random-late": (-1.2, None),  # a random moment in the first 1.2 s
}


@pytest.mark.parametrize("plan", list(PLANS))
def test_sigkill_loses_no_acknowledged_command(driver: Path, tmp_path: Path, plan: str) -> None:
    registry = default_registry()
    rng = random.Random()
    seed = rng.randrange(1 << 20)
    db = tmp_path / "crash.db"
    after_seconds, after_acks = PLANS[plan]
    run = Run(driver, db, seed, 1)
    if after_seconds is not None:
        delay = rng.uniform(0.0, -after_seconds) if after_seconds < 0 else after_seconds
        time.sleep(delay)
    else:
        assert after_acks is not None
        run.wait_for(after_acks, ready=True)
        delay = rng.uniform(0.0, 0.05) if after_acks else rng.uniform(0.0, 0.01)
        time.sleep(delay)
    lines = run.kill()
    note = f"plan {plan}, seed {seed}, delay {delay:.3f}s, {len(lines)} lines"
    acks = sum(line.startswith("ack ") for line in lines)
    if after_acks:
        assert acks >= after_acks, note
    if acks >= 150:  # half the matches take their seats: some were taken by then
        assert any(line.startswith("seat ") for line in lines), note
    streams = check_store(db, registry, lines, note)
    if acks:
        assert streams, note
    anyio.run(keep_playing, db, registry, streams)
    check_store(db, registry, lines, note + ", after reopening")


def test_the_check_finds_a_lost_acknowledgement(driver: Path, tmp_path: Path) -> None:
    # the check itself can fail: an acknowledgement the file does not hold is caught
    registry = default_registry()
    db = tmp_path / "lost.db"
    run = Run(driver, db, 7, 1)
    run.wait_for(30)
    lines = run.kill()
    check_store(db, registry, lines, "as written")
    match = next(line.split()[1] for line in lines if line.startswith("ack "))
    for forged in (f"ack {match} never-sent 2 2", "created not-a-match 1", f"seat {match} 7"):
        with pytest.raises(AssertionError):
            check_store(db, registry, [*lines, forged], "forged")
    ack = next(line for line in lines if line.startswith("ack "))
    _, m, cid, first, last = ack.split()
    with pytest.raises(AssertionError):
        check_store(
            db, registry, [*lines, f"ack {m} {cid} {int(first) + 1} {int(last) + 1}"], "moved"
        )


def test_sigkill_twice_on_one_file(driver: Path, tmp_path: Path) -> None:
    registry = default_registry()
    rng = random.Random()
    db = tmp_path / "twice.db"
    lines: list[str] = []
    for generation in (1, 2):
        seed = rng.randrange(1 << 20)
        run = Run(driver, db, seed, generation)
        run.wait_for(rng.randrange(20, 200))
        time.sleep(rng.uniform(0.0, 0.03))
        lines += run.kill()
        note = f"generation {generation}, seed {seed}"
        check_store(db, registry, lines, note)
    assert any("g2-" in line for line in lines)
