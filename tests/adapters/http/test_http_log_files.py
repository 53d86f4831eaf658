"""One log format: the server's export is a log file the file tools read and import elsewhere."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gamehall.adapters.cli import main
from gamehall.core import RandomBot, Registry
from gamehall.core.logformat import FORMAT_VERSION
from gamehall.core.store import SQLiteStore
from http_helpers import serve

pytestmark = pytest.mark.anyio
ADMIN = "admin-secret-for-tests"
AUTH = {"Authorization": f"Bearer {ADMIN}"}


@pytest.fixture(autouse=True)
def _keep_logging_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("gamehall.adapters.cli.configure", lambda **_: None)


def _events(text: str) -> list[dict[str, Any]]:
    """Return a log's event lines without what each store gives them (position, time)."""
    lines = [json.loads(line) for line in text.splitlines()[1:]]
    return [{k: v for k, v in line.items() if k not in ("position", "time")} for line in lines]


async def test_server_export_reads_in_the_file_tools_and_imports_into_a_second_server(
    registry: Registry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = SQLiteStore(tmp_path / "first.db", registry.codec)
    async with serve(registry, first, admin_token=ADMIN) as served:
        match = await served.hall.create("toy-battle", seed=11, match_id="tb")
        bot = RandomBot(11)
        for _ in range(30):
            (seat,) = served.hall.awaiting(match)
            command = bot.choose(seat, served.hall.legal(match, seat), lambda: None)
            await served.hall.send(
                match, seat, command, command_id=f"c{served.hall.info(match).version}"
            )
        exported = await served.client.get(f"/matches/{match}/log", headers=AUTH)
    first.close()
    assert exported.status_code == 200
    header = json.loads(exported.text.splitlines()[0])
    assert header["format"] == "gamehall-log" and header["version"] == FORMAT_VERSION
    log = tmp_path / "tb.jsonl"
    log.write_text(exported.text)

    assert main(["verify", str(log)]) == 0
    assert main(["replay", str(log), "--to", "12", "--seat", "1"]) == 0
    assert main(["import", str(log), "--db", str(tmp_path / "second.db")]) == 0
    out = capsys.readouterr().out
    assert "verified" in out and "after event 12" in out and "imported match tb" in out

    second = SQLiteStore(tmp_path / "second.db", registry.codec)
    async with serve(registry, second, admin_token=ADMIN) as again:
        info = (await again.client.get("/matches/tb")).json()
        assert info["seq"] == header["events"]
        reexported = await again.client.get("/matches/tb/log", headers=AUTH)
    second.close()
    assert reexported.text.splitlines()[0] == exported.text.splitlines()[0]
    assert _events(reexported.text) == _events(exported.text)


async def test_a_log_of_the_first_version_still_imports(
    registry: Registry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = SQLiteStore(tmp_path / "a.db", registry.codec)
    async with serve(registry, store, admin_token=ADMIN) as served:
        match = await served.hall.create("tictactoe", seed=2, match_id="old")
        await served.hall.send(match, 0, {"type": "tictactoe.PlaceMark", "cell": 4})
        text = (await served.client.get(f"/matches/{match}/log", headers=AUTH)).text
    store.close()
    lines = text.splitlines()
    header = json.loads(lines[0])
    header["version"] = 1  # version 1 had no optional fields: the same lines otherwise
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join([json.dumps(header, separators=(",", ":")), *lines[1:]]) + "\n")
    assert main(["import", str(old), "--db", str(tmp_path / "b.db")]) == 0
    assert "imported match old (2 events)" in capsys.readouterr().out


async def test_the_optional_fields_of_the_schema_are_read(
    registry: Registry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = SQLiteStore(tmp_path / "a.db", registry.codec)
    async with serve(registry, store, admin_token=ADMIN) as served:
        match = await served.hall.create("tictactoe", seed=2, match_id="named")
        await served.hall.send(match, 0, {"type": "tictactoe.PlaceMark", "cell": 4})
        text = (await served.client.get(f"/matches/{match}/log", headers=AUTH)).text
    store.close()
    header, *events = [json.loads(line) for line in text.splitlines()]
    header["names"] = ["Ann", None]
    for event in events:
        event["text"] = f"event {event['seq']} in words"
        event["clock"] = {"0": 59.5, "1": 60.0}
    extended = tmp_path / "extended.jsonl"
    extended.write_text("".join(json.dumps(line) + "\n" for line in [header, *events]))
    assert main(["verify", str(extended)]) == 0
    assert main(["import", str(extended), "--db", str(tmp_path / "b.db")]) == 0
    assert "imported match named" in capsys.readouterr().out
