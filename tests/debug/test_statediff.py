"""What each event changed, per seat: in replay --diff and on the web replay page, never a
hidden fact."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from gamehall.adapters.cli import main
from gamehall.adapters.file.tools import write
from gamehall.adapters.http.web import scene
from gamehall.adapters.http.web.frame import frame
from gamehall.core import RandomBot, Registry, Table, replay
from gamehall.core.conformance import shown_among
from gamehall.core.debug.statediff import change_lines, event_changes
from gamehall.core.hall import Hall
from gamehall.core.store import MemoryStore


def test_replay_diff_shows_what_the_event_changed(
    tmp_path: Path, registry: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    table = Table.new("tictactoe", registry=registry, seed=7)
    table.send(0, registry.codec.command_from_json('{"type": "tictactoe.PlaceMark", "cell": 4}'))
    path = tmp_path / "t.jsonl"
    write(str(path), table.records(), None, registry)
    assert main(["replay", str(path), "--to", "2", "--diff"]) == 0
    out = capsys.readouterr().out
    assert "changed in this seat's view:\n  board[4]: 0 → 1\n  turn: 0 → 1" in out


def test_no_change_shown_to_a_seat_names_a_fact_hidden_from_it(registry: Registry) -> None:
    ruleset = registry.ruleset("toy-battle")
    table = Table(ruleset, ruleset.default_start(3)[0], stream="tb")
    table.play(RandomBot(3), max_commands=30)
    records = table.records()
    leaked = 0
    for seat in (0, 1, None):
        for record in records[2:]:
            after = replay.state_at(ruleset, records, record.seq)
            hidden = set(ruleset.rules.hidden(after, seat))
            change = event_changes(ruleset, records, record.seq, seat)
            assert not shown_among(hidden, msgspec.json.encode(change.changes)), (seat, record)
            # the whole state's changes (what ``gamehall diff`` shows) do name hidden facts
            whole = replay.diff_states(replay.state_at(ruleset, records, record.seq - 1), after)
            leaked += len(shown_among(hidden, msgspec.json.encode(whole)))
    assert leaked, "the check would not see a hidden fact"


@pytest.mark.anyio
async def test_the_web_replay_frame_lists_what_the_event_changed(registry: Registry) -> None:
    table = Table.new("tictactoe", registry=registry, seed=7)
    table.play(RandomBot(7))
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        match = await hall.import_records(table.records(), match_id="m")
        shown = await scene.replay(hall, match, None, 2)
        expected = change_lines(event_changes(hall.ruleset(match), hall.read(match), 2, None))
        assert shown.changes == expected and expected
        html = str(frame(hall.ruleset(match), shown, "csrf", None))
        assert "What event 2 changed" in html and expected[0].split(":")[0] in html
