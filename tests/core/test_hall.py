"""The Hall and its actors: durability, idempotency, refusals, activation, watch, fork."""

from __future__ import annotations

from pathlib import Path

import anyio
import msgspec
import pytest
from gamehall.core import (
    IllegalCommand,
    InvalidCommand,
    MatchFailed,
    MatchQuarantined,
    NotAwaited,
    Registry,
    UnknownMatch,
)
from gamehall.core.errors import (
    CommandIdConflict,
    ConcurrencyError,
    GamehallError,
    MatchOver,
    StoreClosed,
)
from gamehall.core.hall import Hall
from gamehall.core.store import MemoryStore, Snapshot, SQLiteStore
from gamehall.plugins.tictactoe.commands import PlaceMark
from gamehall.plugins.tictactoe.events import MarkPlaced
from structlog.testing import capture_logs

from tests.core.dice_game import Dice, DiceWith, OwnRedact, PrivateRolls, Roll, Rolled, SecretRolls
from tests.core.sample_games import BUGGY, SECRETS, Count, Pass, Reveal, SamplePlugin

pytestmark = pytest.mark.anyio
X_WINS = [4, 0, 2, 6, 3, 5, 1, 7, 8]


@pytest.fixture
def store(registry: Registry, tmp_path: Path) -> SQLiteStore:
    made = SQLiteStore(tmp_path / "hall.db", registry.codec)
    yield made
    made.close()


async def play(hall: Hall, match: str, cells: list[int]) -> None:
    for i, cell in enumerate(cells):
        await hall.send(match, i % 2, PlaceMark(cell=cell))


async def play_from(hall: Hall, match: str, cells: list[int], seat: int) -> None:
    for i, cell in enumerate(cells):
        await hall.send(match, (seat + i) % 2, PlaceMark(cell=cell))


async def test_acknowledged_events_are_durable(store: SQLiteStore, registry: Registry) -> None:
    async with Hall(store) as hall:
        match = await hall.create("tictactoe", seed=3)
        ack = await hall.send(match, 0, PlaceMark(cell=4), command_id="c1")
        assert (ack.first_seq, ack.last_seq) == (2, 2)
        assert [r.event for r in store.read(match, 1)] == [MarkPlaced(seat=0, cell=4)]
        assert ack.events[0].meta.command == PlaceMark(cell=4)


async def test_commands_as_dicts_are_decoded(store: SQLiteStore) -> None:
    async with Hall(store) as hall:
        match = await hall.create("tictactoe")
        await hall.send(match, 0, {"type": "tictactoe.PlaceMark", "cell": 8})
        assert hall.view(match, None).view.board[8] == 1


async def test_retry_with_same_command_id_gets_the_first_answer(
    store: SQLiteStore, registry: Registry
) -> None:
    async with Hall(store) as hall:
        match = await hall.create("tictactoe")
        first = await hall.send(match, 0, PlaceMark(cell=4), command_id="same")
        again = await hall.send(match, 0, PlaceMark(cell=4), command_id="same")
        assert again.duplicate and (again.first_seq, again.events) == (
            first.first_seq,
            first.events,
        )
        assert store.version(match) == 2
    async with Hall(store, registry) as hall:  # and after a restart
        third = await hall.send(match, 0, PlaceMark(cell=4), command_id="same")
        assert third.duplicate and third.events == first.events


async def test_same_command_id_twice_in_one_batch(store: SQLiteStore) -> None:
    async with Hall(store) as hall:
        match = await hall.create("tictactoe")
        acks = []
        async with anyio.create_task_group() as tg:

            async def go() -> None:
                acks.append(await hall.send(match, 0, PlaceMark(cell=1), command_id="dup"))

            tg.start_soon(go)
            tg.start_soon(go)
        assert sorted(a.duplicate for a in acks) == [False, True]
        assert store.version(match) == 2


@pytest.mark.parametrize(
    ("seat", "command", "error", "words"),
    [
        (1, PlaceMark(cell=4), IllegalCommand, "TTT-2: cell 4 is already taken"),
        (1, {"type": "tictactoe.PlaceMark", "cell": 9}, InvalidCommand, r"<= 8 - at `\$.cell`"),
        (1, {"type": "tictactoe.PlaceMark"}, InvalidCommand, "missing required field `cell`"),
        (
            1,
            {"type": "tictactoe.PlaceMark", "cell": 1, "x": 1},
            InvalidCommand,
            "unknown field `x`",
        ),
        (1, {"type": "tictactoe.Nope"}, InvalidCommand, "Invalid value 'tictactoe.Nope'"),
        (1, {"type": "secrets.Reveal"}, InvalidCommand, "not part of tictactoe"),
        (0, PlaceMark(cell=1), NotAwaited, "seat 1 is not asked to act now"),
        (5, PlaceMark(cell=1), InvalidCommand, "seat 5 does not exist"),
    ],
)
async def test_bad_commands_are_refused_and_change_nothing(
    store: SQLiteStore, seat: int, command: object, error: type, words: str
) -> None:
    registry = Registry([SamplePlugin(SECRETS)])
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        match = await hall.create("tictactoe")
        await hall.send(match, 0, PlaceMark(cell=4))
        before = hall.view(match, None)
        with pytest.raises(error, match=words):
            await hall.send(match, seat, command)  # type: ignore[arg-type]
        assert hall.view(match, None) == before
        assert hall.store.version(match) == 2


async def test_illegal_command_carries_rule_id(store: SQLiteStore) -> None:
    async with Hall(store) as hall:
        match = await hall.create("tictactoe")
        await hall.send(match, 0, PlaceMark(cell=4))
        with pytest.raises(IllegalCommand) as caught:
            await hall.send(match, 1, PlaceMark(cell=4))
        assert caught.value.rule == "TTT-2" and caught.value.code == "illegal_command"


async def test_finished_match_refuses(store: SQLiteStore) -> None:
    async with Hall(store) as hall:
        match = await hall.create("tictactoe")
        await play(hall, match, [0, 3, 1, 4, 2])
        assert hall.view(match, None).outcome is not None
        with pytest.raises(MatchOver):
            await hall.send(match, 1, PlaceMark(cell=8))


async def test_unknown_match(store: SQLiteStore) -> None:
    async with Hall(store) as hall:
        with pytest.raises(UnknownMatch, match="'nope'"):
            await hall.send("nope", 0, PlaceMark(cell=1))
        with pytest.raises(UnknownMatch):
            hall.view("nope", 0)


async def test_passivation_and_activation_from_snapshot_and_tail(
    store: SQLiteStore, registry: Registry
) -> None:
    async with Hall(store, snapshot_every=3, idle_seconds=0.05) as hall:
        match = await hall.create("tictactoe", seed=1)
        await play(hall, match, [4, 0, 2, 6])
        live = hall.state(match)
        with anyio.fail_after(5):
            while hall.active:
                await anyio.sleep(0.01)
        snapshot = store.load_snapshot(match)
        assert snapshot is not None and snapshot.seq == 3
        assert hall.state(match) == live  # activated again from snapshot + tail
        await hall.send(match, 0, PlaceMark(cell=3))
        assert hall.view(match, None).seq == 6


async def passivated(hall: Hall) -> None:
    with anyio.fail_after(5):
        while hall.active:
            await anyio.sleep(0.01)


async def test_activation_from_a_snapshot_reads_no_row_before_it(store: SQLiteStore) -> None:
    async with Hall(store, snapshot_every=3, idle_seconds=0.05) as hall:
        match = await hall.create("tictactoe", seed=1)
        for seq, cell in enumerate([4, 0, 2, 6], start=2):
            await hall.send(match, seq % 2, PlaceMark(cell=cell), command_id=f"c{seq}")
        live = hall.state(match)
        await passivated(hall)
        assert store.load_snapshot(match).seq == 3  # type: ignore[union-attr]
        # A row before the snapshot that no longer matches its checksum is not met: activation
        # reads the rows after the snapshot (and only the seq and command id of the others).
        store._writer.execute("UPDATE events SET data=x'c1ff' WHERE stream=? AND seq=2", (match,))
        assert hall.state(match) == live
        assert hall.awaiting(match).keys() == {0}
        with pytest.raises(CommandIdConflict):  # a command id from before the snapshot is known
            await hall.send(match, 0, PlaceMark(cell=8), command_id="c3")
        await passivated(hall)
        # A damaged row after the snapshot is met, and the match is quarantined.
        store._writer.execute("UPDATE events SET data=x'c1ff' WHERE stream=? AND seq=5", (match,))
        with pytest.raises(MatchQuarantined, match="seq 5"):
            hall.state(match)


async def test_command_ids_before_a_snapshot_are_read_when_a_command_asks(
    store: SQLiteStore,
) -> None:
    """Activation from a snapshot counts the rows before it instead of reading their command
    ids; the first command that carries an id has them read (off the loop), so a retry from
    before the snapshot is still answered with its first answer, and a new id still works."""
    async with Hall(store, snapshot_every=3, idle_seconds=0.05) as hall:
        match = await hall.create("tictactoe", seed=1)
        first = None
        for seq, cell in enumerate([4, 0, 2, 6], start=2):
            ack = await hall.send(match, seq % 2, PlaceMark(cell=cell), command_id=f"c{seq}")
            first = ack if seq == 2 else first
        await passivated(hall)
        actor = await hall.activate(match)
        assert actor.ids_after == 3 and set(actor.commands) == {"c4", "c5"}
        again = await hall.send(match, 0, PlaceMark(cell=4), command_id="c2")  # a retry
        assert again.duplicate and first is not None
        assert (again.first_seq, again.last_seq, again.events) == (2, 2, first.events)
        assert actor.ids_after == 0 and set(actor.commands) == {"c2", "c3", "c4", "c5"}
        await passivated(hall)
        await hall.send(match, 0, PlaceMark(cell=8), command_id="c6")  # a new id, read first
        assert hall.view(match, None).seq == 6


async def test_a_take_back_into_the_snapshot_folds_from_the_first_event(
    store: SQLiteStore,
) -> None:
    async with Hall(store, snapshot_every=3, idle_seconds=0.05) as hall:
        match = await hall.create("tictactoe", seed=1, undo="free")
        await play(hall, match, [4, 0])  # seq 3: the snapshot
        before = await hall.request_undo(match, 1)  # takes back seq 3 at seq 4
        assert before.state == "done"
        live = hall.state(match)
        await passivated(hall)
        assert store.load_snapshot(match).seq == 3  # type: ignore[union-attr]
        assert hall.state(match) == live and hall.awaiting(match).keys() == {1}


async def test_snapshot_of_other_versions_is_ignored(store: SQLiteStore) -> None:
    async with Hall(store, idle_seconds=0.01) as hall:
        match = await hall.create("tictactoe")
        await play(hall, match, [4, 0])
        live = hall.state(match)
        bogus = msgspec.msgpack.encode(msgspec.structs.replace(live, board=(2,) * 9))
        store.save_snapshot(Snapshot(match, 3, "tictactoe=0.0.1", bogus))
        while hall.active:
            await anyio.sleep(0.01)
        assert hall.state(match) == live


async def test_rules_crash_rebuilds_and_keeps_nothing(registry: Registry) -> None:
    reg = Registry([SamplePlugin(BUGGY)])
    store = MemoryStore(reg.codec)
    async with Hall(store, reg) as hall:
        match = await hall.create("buggy")
        await hall.send(match, 0, Count())
        with capture_logs() as logs, pytest.raises(MatchFailed, match="boom"):
            await hall.send(match, 0, Count(crash=True))
        assert any(line["event"] == "rules error" and line["match"] == match for line in logs)
        assert hall.state(match).value == 1 and store.version(match) == 2
        await hall.send(match, 0, Count())
        assert hall.state(match).value == 2


async def test_concurrent_halls_on_one_file_never_both_win(
    store: SQLiteStore, registry: Registry, tmp_path: Path
) -> None:
    other = SQLiteStore(tmp_path / "hall.db", registry.codec)
    try:
        async with Hall(store) as one, Hall(other) as two:
            match = await one.create("tictactoe")
            two.view(match, 0)  # both have the match active now
            await one.send(match, 0, PlaceMark(cell=4))
            with pytest.raises(ConcurrencyError):
                await two.send(match, 0, PlaceMark(cell=0))
            await two.send(match, 1, PlaceMark(cell=0))  # rebuilt from the store, so it knows
            assert [r.event.cell for r in store.read(match, 1)] == [4, 0]  # type: ignore[attr-defined]
    finally:
        other.close()


async def test_watch_streams_redacted_events_live(registry: Registry) -> None:
    reg = Registry([SamplePlugin(SECRETS)])
    async with Hall(MemoryStore(reg.codec), reg) as hall:
        match = await hall.create("secrets", 2, seed=5)
        seen: dict[int | None, list] = {0: [], 1: [], None: []}

        async def follow(seat: int | None) -> None:
            async for record in hall.watch(match, seat):
                seen[seat].append(record)
                if record.seq == 6:
                    return

        async with anyio.create_task_group() as tg:
            for seat in seen:
                tg.start_soon(follow, seat)
            await anyio.sleep(0.01)
            await hall.send(match, 0, Pass(), command_id="p0")
            await hall.send(match, 1, Reveal())
            await hall.send(match, 0, Reveal())
        secret0 = hall.state(match).hands[0]
        for seat, records in seen.items():
            assert [r.seq for r in records] == [1, 2, 3, 4, 5, 6]
            assert records[0].event.seed is None
            dealt = [r.event.card for r in records[1:3]]
            assert dealt == [
                secret0 if seat == 0 else None,
                records[2].event.card if seat == 1 else None,
            ]
            assert (records[3].meta.command_id == "p0") == (seat == 0)


@pytest.mark.parametrize(
    ("rules", "shown"),
    [(Dice, "the roll"), (SecretRolls, None), (PrivateRolls, "the roll"), (OwnRedact, "the roll")],
)
async def test_a_commands_answer_shows_its_sender_what_the_rules_let_it_see(
    rules: type[Dice], shown: str | None
) -> None:
    # A public game's answer skips redact; the others still go through it, for the sender too.
    reg = Registry([DiceWith(rules)], entry_points=False)
    store = MemoryStore(reg.codec)
    async with Hall(store, reg) as hall:
        match = await hall.create("dice", 2, seed=3)
        seat = next(iter(hall.awaiting(match)))
        ack = await hall.send(match, seat, Roll())
        rolled = store.read(match, 0)[-1].event
        assert isinstance(rolled, Rolled) and rolled.value > 0
        assert [r.event for r in ack.events] == [
            rolled if shown else Rolled(seat=seat, value=None)  # type: ignore[arg-type]
        ]


@pytest.mark.parametrize("game", ["tictactoe", "dice"])
async def test_who_is_awaited_is_read_only_for_the_asker(game: str, registry: Registry) -> None:
    # Tic-tac-toe answers with read-only constants, the dice game with a new dict each time:
    # either way the asker gets a mapping it cannot change, and the match is left as it was.
    reg = registry if game == "tictactoe" else Registry([DiceWith(Dice)], entry_points=False)
    async with Hall(MemoryStore(reg.codec), reg) as hall:
        match = await hall.create(game, 2, seed=3)
        asked = hall.awaiting(match)
        assert list(asked) == [0] and asked[0].kind
        with pytest.raises(TypeError):
            asked[1] = asked[0]  # type: ignore[index]
        with pytest.raises(TypeError):
            del asked[0]  # type: ignore[attr-defined]
        assert dict(hall.awaiting(match)) == dict(asked) and list(hall.awaiting(match)) == [0]


async def test_watch_resumes_after_falling_behind(registry: Registry) -> None:
    async with Hall(MemoryStore(registry.codec), watch_buffer=1) as hall:
        match = await hall.create("tictactoe")
        stream = hall.watch(match, None, after=1)
        await hall.send(match, 0, PlaceMark(cell=X_WINS[0]))
        with anyio.fail_after(5):
            first = await stream.__anext__()
        await play_from(hall, match, X_WINS[1:6], 1)  # several batches while the watcher waits
        rest = [await stream.__anext__() for _ in range(5)]
        assert [r.seq for r in [first, *rest]] == [2, 3, 4, 5, 6, 7]
        await stream.aclose()


async def test_fork_starts_from_a_prefix(store: SQLiteStore) -> None:
    async with Hall(store) as hall:
        match = await hall.create("tictactoe", seed=9)
        await play(hall, match, [4, 0, 2])
        fork = await hall.fork(match, 3)
        assert hall.info(fork).forked_from == match and hall.info(fork).fork_seq == 3
        assert hall.state(fork).board == (2, 0, 0, 0, 1, 0, 0, 0, 0)
        await hall.send(fork, 0, PlaceMark(cell=8))
        assert hall.state(match).board[8] == 0
        with pytest.raises(GamehallError, match="seq 9"):
            await hall.fork(match, 9)


async def test_expansions_run_side_by_side(registry: Registry) -> None:
    async with Hall(MemoryStore(registry.codec)) as hall:
        plain = await hall.create("tictactoe")
        misere = await hall.create("tictactoe", expansions=["tictactoe-misere"])
        await play(hall, plain, [0, 3, 1, 4, 2])
        await play(hall, misere, [0, 3, 1, 4, 2])
        assert hall.view(plain, None).outcome.winners == (0,)  # type: ignore[union-attr]
        assert hall.view(misere, None).outcome.winners == (1,)  # type: ignore[union-attr]
        assert hall.info(misere).expansions == ["tictactoe-misere"]


async def test_shutdown_finishes_mailboxes_then_refuses(store: SQLiteStore) -> None:
    hall = Hall(store)
    async with hall:
        match = await hall.create("tictactoe")
        await hall.send(match, 0, PlaceMark(cell=0))
    assert hall.active == 0
    with pytest.raises(StoreClosed):
        await hall.send(match, 1, PlaceMark(cell=1))


async def test_actor_log_lines_carry_match_and_seq(store: SQLiteStore) -> None:
    async with Hall(store) as hall:
        match = await hall.create("tictactoe")
        await hall.send(match, 0, PlaceMark(cell=0))
        store.append(match, 2, [MarkPlaced(seat=1, cell=1)])  # someone else writes
        with capture_logs() as logs, pytest.raises(ConcurrencyError):
            await hall.send(match, 1, PlaceMark(cell=2))
        refused = [line for line in logs if line["event"] == "append refused"]
        assert refused and refused[0]["match"] == match and refused[0]["seq"] == 2


async def test_command_id_of_another_seat_is_refused_without_its_events(store: SQLiteStore) -> None:
    async with Hall(store) as hall:
        match = await hall.create("tictactoe")
        await hall.send(match, 0, PlaceMark(cell=4), command_id="mine")
        with pytest.raises(CommandIdConflict, match="command of another seat") as refused:
            await hall.send(match, 1, PlaceMark(cell=0), command_id="mine")
        assert "cell" not in str(refused.value)  # nothing of seat 0's command shows
        assert store.version(match) == 2


async def test_command_id_that_names_another_command_is_a_conflict(store: SQLiteStore) -> None:
    async with Hall(store) as hall:
        match = await hall.create("tictactoe")
        first = await hall.send(match, 0, PlaceMark(cell=4), command_id="c1")
        again = await hall.send(match, 0, PlaceMark(cell=4), command_id="c1")
        assert again.duplicate and again.events == first.events
        with pytest.raises(CommandIdConflict, match="names another command.*seq 2"):
            await hall.send(match, 0, PlaceMark(cell=8), command_id="c1")
        assert store.version(match) == 2
        # the same holds for two sends of one id in one mailbox batch
        await hall.send(match, 1, PlaceMark(cell=0), command_id="c2")
        hall.passivate()
        results: list[object] = []

        async def send(cell: int) -> None:
            try:
                results.append(await hall.send(match, 0, PlaceMark(cell=cell), command_id="c3"))
            except CommandIdConflict as exc:
                results.append(exc)

        async with anyio.create_task_group() as tg:
            tg.start_soon(send, 1)
            tg.start_soon(send, 2)
        assert sorted(type(r).__name__ for r in results) == ["Ack", "CommandIdConflict"]
        assert store.version(match) == 4


async def test_a_taken_match_id_says_the_match_exists(store: SQLiteStore) -> None:
    async with Hall(store) as hall:
        await hall.create("tictactoe", match_id="tb")
        with pytest.raises(GamehallError) as taken:
            await hall.create("tictactoe", match_id="tb")
        assert str(taken.value).startswith("match 'tb' already exists")
        assert "version" not in str(taken.value) and "append" not in str(taken.value)
        with pytest.raises(GamehallError, match="tictactoe plays with 2 players, not 3"):
            await hall.create("tictactoe", 3)


def test_new_match_ids_sort_by_creation_and_stay_unguessable() -> None:
    from gamehall.core.hall import new_match_id
    from gamehall.core.limits import is_match_id

    made = []
    for _ in range(200):
        made.append(new_match_id())
    assert all(is_match_id(m) and len(m) == 28 for m in made)
    # Ids of later matches never sort before earlier ones (one clock tick may hold several).
    assert [m[:12] for m in made] == sorted(m[:12] for m in made)
    # Sixty-four random bits after the time: two ids of one millisecond still differ.
    assert len({m[12:] for m in made}) == len(made)
