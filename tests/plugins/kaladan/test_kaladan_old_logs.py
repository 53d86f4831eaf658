"""Logs of Kaladan 1.0 (a plain Forest held 3, the castle die went to owners only) keep their
meaning: the options they began with are read as 1.0 played them, so they verify and resume."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from gamehall.core import default_registry, replay
from gamehall.plugins.kaladan import upcast_options
from gamehall.plugins.kaladan.state import Options
from gamehall.plugins.kaladan.world import capacity
from kaladan_helpers import CAT

from tests.old_logs import resumed, verified

pytestmark = pytest.mark.anyio
LOGS = Path(__file__).parent / "logs"
OLD = {"terrain_capacity": "compendium", "castle_die_defender": "owner"}


@pytest.mark.parametrize("name", ["kaladan-1.0.0-2p.jsonl", "kaladan-1.0.0-3p-castle-die-8.jsonl"])
async def test_a_log_of_version_1_0_verifies_and_resumes_with_its_old_readings(name: str) -> None:
    log = verified(LOGS / name)
    started = log.started
    assert started.game_version == "1.0.0" and not set(OLD) & set(started.options)
    options = log.ruleset.config(started).options
    assert msgspec.structs.asdict(options).items() >= OLD.items()
    assert options.castle_defence_die == started.options["castle_defence_die"]
    first, last = await resumed(log, commands=40)
    assert first.options == last.options == options
    forests = [t for t, key in enumerate(last.terrain) if key == "forest" and t not in last.castles]
    assert forests and all(capacity(CAT, last, t) == 3 for t in forests)
    assert all(len(last.board[t]) <= 3 for t in forests)


def test_read_with_todays_defaults_the_1_0_log_would_play_otherwise() -> None:
    """The upcast is what keeps the 2-player log: without it, a plain Forest holds 4 and the
    re-decided events part from the recorded ones."""
    log = verified(LOGS / "kaladan-1.0.0-2p.jsonl")
    ruleset = log.ruleset
    records = list(log.records)
    today = msgspec.structs.replace(
        log.started, game_version=ruleset.game.version, data=ruleset.data
    )
    records[0] = msgspec.structs.replace(records[0], event=today)
    difference = replay.verify(ruleset, records)
    assert difference is not None and difference.kind == "events"


def test_only_older_versions_are_upcast_and_a_recorded_option_stays() -> None:
    assert upcast_options("1.0.0", {}) == {**OLD, "castle_defence_die": 0}
    kept = upcast_options("1.0.0", {"castle_defence_die": 8, "terrain_capacity": "seed"})
    assert kept["castle_defence_die"] == 8 and kept["terrain_capacity"] == "seed"
    assert upcast_options("1.1.0", {}) == {}
    registry = default_registry()
    started = registry.ruleset("kaladan").started(2, {}, seed=1)
    assert started.options["terrain_capacity"] == "seed"  # new matches store it in full
    assert registry.ruleset("kaladan").config(started).options == Options()
