"""The PostgreSQL store's lobby: a schema-1 database migrates in place to the lobby's schema."""

from __future__ import annotations

import psycopg
from gamehall.core.store import MatchQuery
from gamehall.core.testing.events import ContractPlugins, marks


def test_schema_1_database_gets_the_lobby_columns(pg_url: str) -> None:
    registry = ContractPlugins()
    from gamehall.core.store.postgres import PostgresStore

    store = PostgresStore(pg_url, registry.codec)
    store.append("old", 0, marks(2), info={"game": "tictactoe", "seat_players": ["p1"]})
    store.append("gone", 0, marks(1))
    schema = store.schema
    conninfo = store.url.conninfo
    store.close()
    # Make it look like a schema-1 database: no lobby tables or columns, version 1.
    with psycopg.connect(conninfo, autocommit=True, options=f"-c search_path={schema}") as db:
        db.execute(
            "DROP TABLE stream_players, players, deleted; "
            "ALTER TABLE streams DROP COLUMN game, DROP COLUMN finished, DROP COLUMN open_seats; "
            "UPDATE gamehall SET value = '1' WHERE key = 'schema'"
        )
    store = PostgresStore(pg_url, registry.codec)
    try:
        found = store.find_matches(MatchQuery(player="p1", game="tictactoe"))
        assert [e.stream for e in found.matches] == ["old"]
        assert found.total == 1
        assert store.delete_stream("gone")
        assert store.deleted_positions() == [(3, 3)]
        assert store.check() == []
        store.append("new", 0, marks(1))
        assert store.read_all(2)[0].position == 4
        with psycopg.connect(conninfo, options=f"-c search_path={schema}") as db:
            row = db.execute("SELECT value FROM gamehall WHERE key = 'schema'").fetchone()
        assert row is not None and row[0] == "5"
    finally:
        store.close()
