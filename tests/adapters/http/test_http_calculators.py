"""Calculators over HTTP: listed per game with their schemas, run with a JSON body."""

from __future__ import annotations

import pytest
from gamehall.core import default_registry
from http_helpers import serve

pytestmark = pytest.mark.anyio
WORKED_EXAMPLE = {
    "attacker": ["general", "archer", "archer", "sword"],
    "attacker_terrain": "forest",
    "defender": ["general", "shield"],
    "defender_terrain": "mountain",
}


async def test_a_game_lists_its_calculators_with_request_schemas() -> None:
    async with serve(default_registry()) as served:
        listed = (await served.client.get("/games/kaladan/calculators")).json()
        assert [c["name"] for c in listed] == ["odds"]
        assert "attacker" in str(listed[0]["request"])
        assert (await served.client.get("/games/tictactoe/calculators")).json() == []
        missing = await served.client.get("/games/nogame/calculators")
        assert missing.status_code == 400 and "nogame" in missing.json()["message"]


async def test_the_odds_calculator_answers_the_worked_example_in_data_and_words() -> None:
    async with serve(default_registry()) as served:
        response = await served.client.post("/games/kaladan/calculators/odds", json=WORKED_EXAMPLE)
        assert response.status_code == 200
        body = response.json()
        assert body["answer"]["method"] == "exact" and body["answer"]["pairs"] == 3
        total = sum(o["chance"]["p"] for o in body["answer"]["outcomes"])
        assert abs(total - 1) < 1e-9
        assert body["text"].startswith("attacker rolls D12 D10 D10 D8 D10")


async def test_bad_calculator_requests_are_refused_by_name() -> None:
    async with serve(default_registry()) as served:
        post = served.client.post
        unknown_unit = await post(
            "/games/kaladan/calculators/odds", json={"attacker": ["x"], "defender": ["sword"]}
        )
        assert (
            unknown_unit.status_code == 400 and "unknown unit 'x'" in unknown_unit.json()["message"]
        )
        typo = await post("/games/kaladan/calculators/odds", json={**WORKED_EXAMPLE, "atacker": []})
        assert typo.status_code == 400 and "atacker" in typo.json()["message"]
        nothing = await post("/games/kaladan/calculators/nope", json={})
        assert nothing.status_code == 404 and "odds" in nothing.json()["message"]
