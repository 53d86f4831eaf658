"""Replay tools: state_at, verify, check_sequence, diff, bisect and batches on real logs."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest
from gamehall.core import (
    CorruptRecord,
    ExpansionSpec,
    GamehallError,
    Invariant,
    MatchStarted,
    RandomBot,
    Recorded,
    Registry,
    Ruleset,
    Table,
    hookimpl,
    replay,
)
from gamehall.core.events import redact_started
from gamehall.plugins.tictactoe.commands import PlaceMark
from gamehall.plugins.tictactoe.events import LineCompleted, MarkPlaced

from tests.core.dice_game import DicePlugin, Hold, Roll, Rolled
from tests.core.sample_games import SECRETS, SamplePlugin

# -- a test expansion with invariants that fail at known points ----------------------------------


def centre_empty(state: Any) -> str | None:
    return None if state.board[4] == 0 else "the centre is taken"


def not_three_marks(state: Any) -> str | None:
    marks = sum(1 for cell in state.board if cell)
    return "exactly three marks" if marks == 3 else None


def board_not_empty(state: Any) -> str | None:
    return "the board is empty" if not any(state.board) else None


def always_fine(state: Any) -> str | None:
    return None


class InvariantExpansion:
    @hookimpl
    def gamehall_expansions(self) -> list[ExpansionSpec]:
        return [
            ExpansionSpec(id="ttt-checks", name="Checks", version="1.0.0", game="tictactoe"),
            ExpansionSpec(id="ttt-strict", name="Strict", version="1.0.0", game="tictactoe",
                          hookimpls=(StrictChecks(),)),
        ]  # fmt: skip

    @hookimpl
    def gamehall_invariants(self) -> list[Invariant]:
        return [
            Invariant("centre-empty", centre_empty),
            Invariant("not-three-marks", not_three_marks),
            Invariant("always-fine", always_fine),
        ]


class StrictChecks:
    @hookimpl
    def gamehall_invariants(self) -> list[Invariant]:
        return [Invariant("board-not-empty", board_not_empty)]


@pytest.fixture(scope="module")
def reg() -> Registry:
    return Registry([InvariantExpansion(), DicePlugin(), SamplePlugin(SECRETS)])


# -- playing and capturing live states ----------------------------------------------------------


def play_live(table: Table, bot: RandomBot, limit: int = 400) -> dict[int, Any]:
    """Play with ``send`` and return the live state after every batch, keyed by its last seq."""
    live = {table.seq: table.state}
    for _ in range(limit):
        asked = table.awaiting()
        if not asked:
            break
        seat = next(iter(asked))
        command = bot.choose(seat, table.legal(seat), lambda s=seat: table.view(s))
        table.send(seat, command, command_id=f"c{table.seq}")
        live[table.seq] = table.state
    return live


def tictactoe_table(reg: Registry, cells: Sequence[int], expansions: Sequence[str] = ()) -> Table:
    table = Table.new("tictactoe", expansions=expansions, registry=reg, seed=9)
    for i, cell in enumerate(cells):
        table.send(i % 2, PlaceMark(cell=cell), command_id=f"m{i}")
    return table


GAMES = ["tictactoe", "dice", "secrets", "toy-battle", "river-of-gold"]


@pytest.fixture(scope="module", params=GAMES)
def played(
    request: pytest.FixtureRequest, reg: Registry
) -> tuple[Ruleset, list[Recorded], dict[int, Any]]:
    game = request.param
    if game not in reg.games:
        pytest.skip(f"{game} is not installed")
    table = Table.new(game, registry=reg, seed=21)
    live = play_live(table, RandomBot(3))
    return table.ruleset, table.records(), live


# -- state_at ------------------------------------------------------------------------------------


def test_fold_to_any_batch_end_equals_the_live_state(
    played: tuple[Ruleset, list[Recorded], dict[int, Any]],
) -> None:
    ruleset, records, live = played
    assert len(live) >= 3
    for seq, state in live.items():
        assert replay.state_at(ruleset, records, seq) == state, f"seq {seq}"
    assert replay.state_at(ruleset, records) == live[len(records)]


def test_fold_inside_a_batch_stops_at_that_event(reg: Registry) -> None:
    table = tictactoe_table(reg, [0, 3, 1, 4, 2])  # X completes the top row at seq 6-7
    records = table.records()
    assert isinstance(records[-1].event, LineCompleted)
    inside = replay.state_at(table.ruleset, records, len(records) - 1)
    assert inside.board[2] == 1 and not inside.over  # the mark is there, the line not yet
    assert replay.state_at(table.ruleset, records).over


def test_fold_from_seq_to_seq_changes_only_what_events_change(reg: Registry) -> None:
    table = tictactoe_table(reg, [4, 0, 8])
    records = table.records()
    boards = [
        replay.state_at(table.ruleset, records, seq).board for seq in range(1, len(records) + 1)
    ]
    assert boards == [
        (0,) * 9,
        (0, 0, 0, 0, 1, 0, 0, 0, 0),
        (2, 0, 0, 0, 1, 0, 0, 0, 0),
        (2, 0, 0, 0, 1, 0, 0, 0, 1),
    ]


@pytest.mark.parametrize("seq", [0, -1, 5, 100])
def test_fold_outside_the_log_raises(reg: Registry, seq: int) -> None:
    table = tictactoe_table(reg, [4, 0, 8])
    records = table.records()
    assert len(records) == 4
    with pytest.raises(GamehallError, match=re.escape(f"seq {seq}")):
        replay.state_at(table.ruleset, records, seq)


def test_fold_refuses_a_log_that_does_not_start_a_match(reg: Registry) -> None:
    records = tictactoe_table(reg, [4, 0]).records()
    with pytest.raises(CorruptRecord, match="MatchStarted"):
        replay.state_at(reg.ruleset("tictactoe"), records[1:])
    with pytest.raises(CorruptRecord):
        replay.ruleset_for(reg, [])


# -- verify ------------------------------------------------------------------------------------


def test_verify_passes_on_real_logs(played: tuple[Ruleset, list[Recorded], dict[int, Any]]) -> None:
    ruleset, records, _ = played
    seen: list[int] = []
    assert replay.verify(ruleset, records, progress=seen.append) is None
    ends = [records[b.end - 1].seq for b in replay.batches(records)[1:]]
    assert seen == ends and seen[-1] == len(records)


def test_verify_passes_on_a_log_played_by_bots(reg: Registry) -> None:
    # Table.play takes a faster path than send: its log must verify all the same
    for game in ("dice", "tictactoe", "toy-battle"):
        if game not in reg.games:
            continue
        table = Table.new(game, registry=reg, seed=5)
        table.play(RandomBot(8))
        assert replay.verify(table.ruleset, table.records()) is None, game


def edited(records: list[Recorded], seq: int, **fields: Any) -> list[Recorded]:
    """Return a copy of the log with some fields of one event changed."""
    out = list(records)
    record = out[seq - 1]
    out[seq - 1] = msgspec.structs.replace(
        record, event=msgspec.structs.replace(record.event, **fields)
    )
    return out


def test_verify_reports_an_edited_event(reg: Registry) -> None:
    table = tictactoe_table(reg, [4, 0, 8, 2, 6])
    records = table.records()
    assert records[4].event == MarkPlaced(seat=1, cell=2)  # seq 5: the command placed O on 2
    bad = edited(records, 5, cell=7)
    diff = replay.verify(table.ruleset, bad)
    assert diff is not None
    assert (diff.seq, diff.kind) == (5, "events")
    assert diff.recorded == [MarkPlaced(seat=1, cell=7)]
    assert diff.redecided == [MarkPlaced(seat=1, cell=2)]
    assert replay.verify(table.ruleset, records) is None  # the original is untouched


def test_verify_reports_the_first_of_several_differences(reg: Registry) -> None:
    table = tictactoe_table(reg, [4, 0, 8, 2, 6])
    bad = edited(edited(table.records(), 5, cell=1), 3, cell=5)
    diff = replay.verify(table.ruleset, bad)
    assert diff is not None and diff.seq == 3


def test_verify_reports_a_missing_event_of_a_batch(reg: Registry) -> None:
    table = tictactoe_table(reg, [0, 3, 1, 4, 2])
    records = table.records()[:-1]  # the LineCompleted of the last command is gone
    diff = replay.verify(table.ruleset, records)
    assert diff is not None and diff.kind == "events" and diff.seq == len(records)
    assert diff.recorded == [MarkPlaced(seat=0, cell=2)]
    assert diff.redecided[-1] == LineCompleted(line=(0, 1, 2), winner=0)


def test_verify_reports_a_drawn_value_that_was_edited(reg: Registry) -> None:
    table = Table.new("dice", registry=reg, seed=31)
    play_live(table, RandomBot(1))
    records = table.records()
    rolls = [r for r in records if isinstance(r.event, Rolled)]
    assert len(rolls) >= 2
    target = rolls[1]
    bad = edited(records, target.seq, value=target.event.value % 6 + 1)
    diff = replay.verify(table.ruleset, bad)
    assert diff is not None and (diff.seq, diff.kind) == (target.seq, "events")


def test_verify_reports_another_seed(reg: Registry) -> None:
    table = Table.new("dice", registry=reg, seed=31)
    play_live(table, RandomBot(1))
    records = table.records()
    setup = [r.event for r in records[: replay.batches(records)[0].end]]
    # a seed whose setup draws another first player
    other = next(
        s for s in range(32, 200)
        if Table.new("dice", registry=reg, seed=s).events[1:] != setup[1:]
    )  # fmt: skip
    started = records[0].event
    assert isinstance(started, MatchStarted)
    bad = [msgspec.structs.replace(records[0], event=msgspec.structs.replace(started, seed=other))]
    diff = replay.verify(table.ruleset, bad + records[1:])
    assert diff is not None and (diff.seq, diff.kind) == (1, "setup")


def test_verify_reports_a_command_that_is_now_refused(reg: Registry) -> None:
    table = tictactoe_table(reg, [4, 0, 8, 2])
    records = table.records()
    head = records[2]  # seq 3: O's command; make it ask for X's cell
    assert head.meta.command == PlaceMark(cell=0)
    records[2] = msgspec.structs.replace(
        head, meta=msgspec.structs.replace(head.meta, command=PlaceMark(cell=4))
    )
    diff = replay.verify(table.ruleset, records)
    assert diff is not None and (diff.seq, diff.kind) == (3, "refused")
    assert "taken" in diff.message and diff.recorded == [MarkPlaced(seat=1, cell=0)]


def test_verify_reports_a_refused_command_of_a_game_with_draws(reg: Registry) -> None:
    table = Table.new("dice", registry=reg, seed=2)
    for _ in range(4):  # whoever is first: each seat holds twice
        table.send(next(iter(table.awaiting())), Hold())
    table.send(next(iter(table.awaiting())), Roll())
    records = table.records()
    head = records[-1]
    assert head.meta.command == Roll()
    records[-1] = msgspec.structs.replace(
        head, meta=msgspec.structs.replace(head.meta, command=Hold())
    )
    diff = replay.verify(table.ruleset, records)
    assert diff is not None and (diff.seq, diff.kind) == (head.seq, "refused")
    assert "DICE-1" in diff.message


def test_verify_refuses_a_log_without_seed(reg: Registry) -> None:
    records = tictactoe_table(reg, [4, 0]).records()
    started = records[0].event
    assert isinstance(started, MatchStarted) and started.seed is not None
    records[0] = msgspec.structs.replace(records[0], event=redact_started(started))
    with pytest.raises(GamehallError, match="seed"):
        replay.verify(reg.ruleset("tictactoe"), records)


def test_verify_refuses_a_log_with_a_gap(reg: Registry) -> None:
    records = tictactoe_table(reg, [4, 0, 8]).records()
    with pytest.raises(CorruptRecord):
        replay.verify(reg.ruleset("tictactoe"), records[:2] + records[3:])


# -- check_sequence ----------------------------------------------------------------------------


def test_check_sequence_accepts_a_whole_log(reg: Registry) -> None:
    replay.check_sequence(tictactoe_table(reg, [4, 0, 8]).records())


def test_check_sequence_catches_a_missing_event(reg: Registry) -> None:
    records = tictactoe_table(reg, [4, 0, 8, 2]).records()
    with pytest.raises(CorruptRecord) as info:
        replay.check_sequence(records[:2] + records[3:])
    assert info.value.seq == 4 and "3" in info.value.reason


def test_check_sequence_catches_a_repeated_event(reg: Registry) -> None:
    records = tictactoe_table(reg, [4, 0, 8, 2]).records()
    with pytest.raises(CorruptRecord) as info:
        replay.check_sequence(records[:3] + records[2:])
    assert info.value.seq == 3


def test_check_sequence_catches_a_log_not_starting_at_one(reg: Registry) -> None:
    records = tictactoe_table(reg, [4, 0, 8, 2]).records()
    with pytest.raises(CorruptRecord):
        replay.check_sequence(records[1:])


def test_check_sequence_catches_a_foreign_stream(reg: Registry) -> None:
    records = tictactoe_table(reg, [4, 0, 8, 2]).records()
    other = Table.new("tictactoe", registry=reg, seed=1)
    other.stream = "someone-else"
    other.send(0, PlaceMark(cell=1))
    other.send(1, PlaceMark(cell=2))
    foreign = other.records()[2]  # seq 3 of another match: the seqs still line up
    assert foreign.seq == 3
    with pytest.raises(CorruptRecord) as info:
        replay.check_sequence(records[:2] + [foreign] + records[3:])
    assert info.value.stream == "someone-else" and "table" in str(info.value)


# -- diff --------------------------------------------------------------------------------------


def changes(
    ruleset: Ruleset, records: list[Recorded], a: int, b: int
) -> dict[str, tuple[Any, Any]]:
    return {c.path: (c.before, c.after) for c in replay.diff(ruleset, records, a, b)}


def plain(value: Any) -> Any:
    """Return a value with tuples as lists, so either form of a sequence compares equal."""
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def top_fields(found: dict[str, tuple[Any, Any]]) -> set[str]:
    return {re.split(r"[.\[]", path)[0] for path in found}


def test_diff_names_the_changed_fields(reg: Registry) -> None:
    table = tictactoe_table(reg, [0, 3, 1, 4, 2])
    records, ruleset = table.records(), table.ruleset
    assert top_fields(changes(ruleset, records, 1, 2)) == {"board", "turn"}
    assert changes(ruleset, records, 1, 2)["turn"] == (0, 1)
    assert top_fields(changes(ruleset, records, 2, 4)) == {"board"}
    last = len(records)
    found = changes(ruleset, records, last - 1, last)
    assert plain(found) == {"winner": [None, 0], "line": [None, [0, 1, 2]], "over": [False, True]}
    assert replay.diff(ruleset, records, 3, 3) == []
    assert changes(ruleset, records, 2, 1)["turn"] == (1, 0)  # backwards, before and after swap


def test_diff_lists_exactly_the_changed_elements(reg: Registry) -> None:
    table = tictactoe_table(reg, [0, 3, 1, 4, 2])
    records, ruleset = table.records(), table.ruleset
    assert plain(changes(ruleset, records, 1, 2)) == {"board[0]": [0, 1], "turn": [0, 1]}
    assert plain(changes(ruleset, records, 2, 4)) == {"board[3]": [0, 2], "board[1]": [0, 1]}


def test_diff_outside_the_log_raises(reg: Registry) -> None:
    table = tictactoe_table(reg, [0, 3])
    with pytest.raises(GamehallError):
        replay.diff(table.ruleset, table.records(), 1, 9)


_STEP = re.compile(r"\[(\d+)\]|\.?([^.\[\]]+)")


def resolve(value: Any, path: str) -> Any:
    if path == ".":
        return value
    for index, key in _STEP.findall(path):
        if value is None:
            return None
        if index:
            value = value[int(index)]
        elif isinstance(value, dict):
            value = value.get(key, value.get(int(key)) if key.lstrip("-").isdigit() else None)
        else:
            return None
    return value


def test_diff_agrees_with_the_states_on_a_long_match(
    played: tuple[Ruleset, list[Recorded], dict[int, Any]],
) -> None:
    ruleset, records, _ = played
    states = [
        msgspec.to_builtins(replay.state_at(ruleset, records, s))
        for s in range(1, len(records) + 1)
    ]
    step = max(1, len(records) // 25)
    for a in range(1, len(records), step):
        for b in (a + 1, min(a + 7, len(records))):
            found = replay.diff(ruleset, records, a, b)
            assert (found == []) == (states[a - 1] == states[b - 1]), (a, b)
            for change in found:
                assert resolve(states[a - 1], change.path) == change.before, (a, b, change.path)
                assert resolve(states[b - 1], change.path) == change.after, (a, b, change.path)
                assert change.before != change.after


# -- bisect ------------------------------------------------------------------------------------

MOVES = [0, 4, 8, 2, 6, 3]  # seq 2: X on 0; seq 3: O takes the centre; seq 4: the third mark


def test_bisect_finds_the_first_event_after_which_an_invariant_fails(reg: Registry) -> None:
    table = tictactoe_table(reg, MOVES, ["ttt-checks"])
    records = table.records()
    found = replay.bisect(table.ruleset, records, "centre-empty")
    assert found is not None
    assert (found.seq, found.invariant, found.message) == (3, "centre-empty", "the centre is taken")
    assert found.event == MarkPlaced(seat=1, cell=4)


def test_bisect_reports_the_first_failure_of_an_invariant_that_heals(reg: Registry) -> None:
    table = tictactoe_table(reg, MOVES, ["ttt-checks"])
    records = table.records()
    # three marks exactly after seq 4 only: it breaks and heals at once
    assert not_three_marks(replay.state_at(table.ruleset, records, 5)) is None
    found = replay.bisect(table.ruleset, records, "not-three-marks")
    assert found is not None and found.seq == 4 and found.event == MarkPlaced(seat=0, cell=8)
    # the same invariant on a log that stops before seq 4 holds throughout
    assert replay.bisect(table.ruleset, records[:3], "not-three-marks") is None


def test_bisect_without_a_name_checks_every_invariant(reg: Registry) -> None:
    table = tictactoe_table(reg, MOVES, ["ttt-checks"])
    found = replay.bisect(table.ruleset, table.records())
    assert found is not None and (found.seq, found.invariant) == (3, "centre-empty")
    # the game's own invariants are part of the ruleset too
    assert {"marks-alternate", "over-means-line-or-full", "centre-empty"} <= set(
        table.ruleset.invariants
    )


def test_bisect_checks_the_state_after_the_first_event(reg: Registry) -> None:
    table = tictactoe_table(reg, MOVES, ["ttt-strict"])
    found = replay.bisect(table.ruleset, table.records(), "board-not-empty")
    assert found is not None and found.seq == 1 and isinstance(found.event, MatchStarted)


def test_bisect_returns_none_when_all_hold(reg: Registry) -> None:
    table = tictactoe_table(reg, MOVES, ["ttt-checks"])
    seen: list[int] = []
    assert (
        replay.bisect(table.ruleset, table.records(), "always-fine", progress=seen.append) is None
    )
    assert seen == list(range(1, len(table.records()) + 1))
    plain = tictactoe_table(reg, MOVES)
    assert replay.bisect(plain.ruleset, plain.records()) is None


def test_bisect_finds_a_broken_game_invariant_in_an_edited_log(reg: Registry) -> None:
    table = tictactoe_table(reg, MOVES)
    bad = edited(table.records(), 3, seat=0)  # X "places" twice in a row
    found = replay.bisect(table.ruleset, bad, "marks-alternate")
    assert found is not None and found.seq == 3


def test_bisect_refuses_an_unknown_invariant_listing_the_declared_ones(reg: Registry) -> None:
    table = tictactoe_table(reg, MOVES, ["ttt-checks"])
    with pytest.raises(GamehallError) as info:
        replay.bisect(table.ruleset, table.records(), "centre-emtpy")
    text = str(info.value)
    assert "centre-emtpy" in text
    for name in table.ruleset.invariants:
        assert name in text
    # an expansion's invariants are not declared in a match without it
    plain = tictactoe_table(reg, MOVES)
    with pytest.raises(GamehallError, match="marks-alternate"):
        replay.bisect(plain.ruleset, plain.records(), "centre-empty")


# -- batches -----------------------------------------------------------------------------------


def test_batches_split_a_log_into_command_batches(reg: Registry) -> None:
    table = tictactoe_table(reg, [0, 3, 1, 4, 2])
    records = table.records()
    found = replay.batches(records)
    assert [(b.start, b.end) for b in found] == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 7)]


def test_batches_follow_the_commands_of_long_matches(
    played: tuple[Ruleset, list[Recorded], dict[int, Any]],
) -> None:
    _, records, live = played
    found = replay.batches(records)
    # one batch for the start and one per command; each ends where a live state was seen
    assert [records[b.end - 1].seq for b in found] == sorted(live)
    assert found[0].start == 0 and found[-1].end == len(records)
    for before, after in itertools.pairwise(found):
        assert before.end == after.start and before.start < before.end
    for batch in found[1:]:
        head, *rest = records[batch.start : batch.end]
        assert head.meta.command is not None and head.meta.command_id == f"c{head.seq - 1}"
        assert all(
            r.meta.command is None and r.meta.command_id == head.meta.command_id for r in rest
        )


def test_batches_of_a_setup_with_several_events(reg: Registry) -> None:
    table = Table.new("secrets", registry=reg, seed=4)
    records = table.records()
    assert len(records) == 3  # MatchStarted and one CardDealt per seat
    assert [(b.start, b.end) for b in replay.batches(records)] == [(0, 3)]


def test_batches_of_an_empty_log() -> None:
    assert replay.batches([]) == []


def test_diff_states_is_public_and_names_each_changed_field_by_path() -> None:
    before = {"players": [{"koku": 3, "favour": 1}], "turn": 1}
    after = {"players": [{"koku": 5, "favour": 1}], "turn": 2, "over": True}
    changes = replay.diff_states(before, after)
    assert [(c.path, c.before, c.after) for c in changes][:2] == [
        ("over", changes[0].before, True),
        ("players[0].koku", 3, 5),
    ]
    assert changes[-1].path == "turn" and replay.diff_states(before, before) == []
