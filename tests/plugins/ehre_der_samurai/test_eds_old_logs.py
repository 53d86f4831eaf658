"""Logs of Ehre der Samurai 1.0 (a Dishonour cost two card actions, the victim alone answered)
keep their meaning: they verify, and they resume with the rules they began with."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from gamehall.core import default_registry, replay
from gamehall.plugins.ehre_der_samurai import upcast_options
from gamehall.plugins.ehre_der_samurai.events import DishonourPlayed
from gamehall.plugins.ehre_der_samurai.state import Options

from tests.old_logs import resumed, verified

pytestmark = pytest.mark.anyio
LOG = Path(__file__).parent / "logs" / "ehre-der-samurai-1.0.0-3p.jsonl"


async def test_a_log_of_version_1_0_verifies_and_resumes_with_two_actions_a_dishonour() -> None:
    log = verified(LOG)
    started = log.started
    assert started.game_version == "1.0.0" and "dishonour_actions" not in started.options
    assert started.options["bystander_save_face"] is False  # stored in full: the flip is safe
    options = log.ruleset.config(started).options
    assert options.dishonour_actions == 2 and options.bystander_save_face is False
    # Each recorded Dishonour spent two card actions, as 1.0 played it.
    dishonours = [r.seq for r in log.records if isinstance(r.event, DishonourPlayed)]
    assert dishonours
    for seq in dishonours:
        before = replay.state_at(log.ruleset, log.records, seq - 1)
        after = replay.state_at(log.ruleset, log.records, seq)
        assert after.actions_used - before.actions_used == 2
        assert sum(a is not None for a in after.insult.answers) == 1  # the victim alone
    first, last = await resumed(log, commands=60)
    assert first.options == last.options == options


def test_only_older_versions_are_upcast_and_a_recorded_option_stays() -> None:
    assert upcast_options("1.0.0", {}) == {"dishonour_actions": 2, "bystander_save_face": False}
    assert upcast_options("1.0.0", {"bystander_save_face": True})["bystander_save_face"] is True
    assert upcast_options("1.1.0", {}) == {}
    ruleset = default_registry().ruleset("ehre-der-samurai")
    started = ruleset.started(3, {}, seed=1)
    assert started.options["dishonour_actions"] == 1 and started.options["bystander_save_face"]
    assert ruleset.config(started).options == Options()
    assert msgspec.structs.asdict(Options()).items() >= {"dishonour_actions": 1}.items()
