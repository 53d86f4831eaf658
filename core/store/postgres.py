"""The shared store: events in PostgreSQL, for several gamehall nodes serving the same matches.

Every group commit is one call of the function ``gamehall_append`` (one statement, one round
trip, one transaction): it checks each batch's expected version against the stream's last seq,
takes positions for the rows of the batches at their version from the sequence
``gamehall_positions``, inserts them with the transaction's id (``tx``), writes their listing
entries (a created stream's, or a later batch's changes merged in by ``gamehall_info_merge``,
with the indexed columns and players) and seat tokens. No lock is shared by all streams: two
appends wait for each other only when both insert the same (stream, seq), and the one that finds
its row written first drops its batch as a conflict (a conflict fails only its own batch).

Readers that follow the global order (``read_all``, ``changes``, ``position``) read it as
(transaction id, position) and only rows of transactions older than every transaction still
running (``pg_snapshot_xmin(pg_current_snapshot())``): every transaction that could still commit
has an id at or above that watermark, so a reader never passes a row that commits later. The
price: one long write transaction holds every follower back until it ends. Positions have holes
where an append rolled back; they are unique and increase along each stream.

Rows carry the same CRC-32 as SQLite's, checked on every read. The schema lives in the URL's
schema (``?schema=name``, ``public`` by default), is created and migrated by the store under an
advisory lock, and records its version; a schema from a newer gamehall is refused.

Reads take a connection from a pool (``psycopg_pool``) for the call and give it back after:
at most ``pool_max`` of them (the URL's, 10 by default). A read that finds them all in use waits
up to ``pool_timeout`` seconds (5 by default), then fails with :class:`StoreBusy`, which the
adapters answer as "busy, try again" (HTTP 503 with ``Retry-After``): never a hang. The writer,
the listener, the notifier and the lease connection are connections of their own.

Leases: a node runs the work of a match that belongs to no person (bot seats, turn clocks) only
while it holds the match's lease, a session advisory lock on a connection of its own, which
PostgreSQL releases when the node dies or loses the connection. Its key is a 64-bit hash of the
schema and the match id.
"""

from __future__ import annotations

import asyncio
import bisect
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

import msgspec
import psycopg
import psycopg_pool
from psycopg import pq, sql

from ..codec import Codec
from ..errors import DamagedStore, GamehallError, StoreBusy, StoreClosed, StoreFailed
from ..events import Event, Recorded
from .base import (
    MAX_PAGE,
    Due,
    Encoded,
    Loaded,
    MatchPage,
    MatchQuery,
    Overlapped,
    PlayerRecord,
    Problem,
    RawRow,
    Snapshot,
    Store,
    StreamInfo,
    Written,
    check_query,
    check_recorded,
    check_row,
    check_rows,
    check_seqs,
    checked_rows,
    command_ranges,
    conflict,
    listed,
    loaded,
    match_filters,
    merged,
    page_of,
    stored_deadline,
)
from .url import StoreURL, parse_store_url

fast_row_arrays: Callable[..., tuple[Any, ...]] | None
try:  # the append's row arrays built in C, where core/store/_rowcheck.c was built
    from ._rowcheck import append_arrays as fast_row_arrays
except ImportError:  # pragma: no cover - the same arrays in Python (row_arrays) serve
    fast_row_arrays = None

P = ParamSpec("P")
T = TypeVar("T")
SCHEMA_VERSION = 5  # 2: the lobby (indexed info columns, players, deleted positions);
# 3: seat tokens (seat_tokens, written with the appends; the HTTP adapter's table moves there);
# 4: no head row: positions from a sequence, the writing transaction's id on every row;
# 5: each timed match's next clock expiry (streams.deadline, written with the appends)
LOCK_CLASS = 0x6761  # advisory lock class of gamehall (two 32-bit keys): 1 migration
# A match's lease: a 64-bit advisory lock key (a key space of its own) from its schema and id,
# so that the same match id in two schemas, or two ids with one CRC-32, never share a lease.
LEASE_KEY = "hashtextextended(%s || ':' || %s, 0)"
CONNECT_TIMEOUT = 10
# How long a look at who listens holds: a writer sends its notifications only while another
# node listens (its listening connection is named ``LISTENING``), and looks again this often.
LISTENERS_SECONDS = 0.25
# Notifications of one node are at least this far apart (s): the first after a quiet spell goes
# at once; under a steady stream of commits the ones that come meanwhile go as one, a little
# later. Each is a transaction on the server and a wake-up of every listening node, which cost
# three nodes on two cores a fifth of their commands/s (bench/README.md).
NOTIFY_SPACING = 0.01
LISTENING = "gamehall listening {}"
# A notification names the streams its commits wrote, up to this many (8,000 bytes at most
# in all); past that it names none, which means any.
NAMED_STREAMS = 100
# Sessions listening on this schema's channel other than ``pid``, and sessions whose name this
# role may not read (they count as listening: a hidden listener is never left unwoken).
_LISTENERS = """SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
    AND pid <> %(pid)s AND (application_name = %(name)s OR query = '<insufficient privilege>')"""
# How long closing a store waits for a thread still inside a connection (a statement, which
# closing cancels, or a wait for notifications) before leaving that connection to its thread.
CLOSE_WAIT = 5.0
TABLES = """
CREATE TABLE IF NOT EXISTS events (
    stream   text             NOT NULL,
    seq      bigint           NOT NULL,
    position bigint           NOT NULL,
    time     double precision NOT NULL,
    type     text             NOT NULL,
    v        integer          NOT NULL,
    data     bytea            NOT NULL,
    meta     bytea            NOT NULL,
    cmd      text,
    crc      bigint           NOT NULL,
    PRIMARY KEY (stream, seq)
);
-- Positions are unique by the sequence that gives them; the index makes it sure where it can.
-- Tables partitioned by stream id (or distributed by it) allow no unique index without the
-- stream: there it is a plain one, and an index of that name made by hand is left alone.
DO $$ BEGIN
    IF to_regclass('events_position') IS NULL THEN
        IF (SELECT relkind FROM pg_class WHERE oid = 'events'::regclass) = 'p' THEN
            CREATE INDEX events_position ON events (position);
        ELSE
            CREATE UNIQUE INDEX events_position ON events (position);
        END IF;
    END IF;
END $$;
CREATE TABLE IF NOT EXISTS streams (
    stream  text             PRIMARY KEY,
    version bigint           NOT NULL,
    created double precision NOT NULL,
    updated double precision NOT NULL,
    info    bytea
);
ALTER TABLE streams ADD COLUMN IF NOT EXISTS game text;
ALTER TABLE streams ADD COLUMN IF NOT EXISTS finished boolean NOT NULL DEFAULT false;
ALTER TABLE streams ADD COLUMN IF NOT EXISTS open_seats integer NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS streams_created ON streams (created, stream COLLATE "C");
CREATE TABLE IF NOT EXISTS stream_players (
    player text NOT NULL,
    stream text NOT NULL,
    PRIMARY KEY (player, stream)
);
CREATE INDEX IF NOT EXISTS stream_players_stream ON stream_players (stream);
CREATE TABLE IF NOT EXISTS players (
    id      text             PRIMARY KEY,
    digest  bytea            NOT NULL UNIQUE,
    name    text,
    created double precision NOT NULL
);
CREATE TABLE IF NOT EXISTS deleted (
    first bigint PRIMARY KEY,
    last  bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
    stream text   PRIMARY KEY,
    seq    bigint NOT NULL,
    key    text   NOT NULL,
    data   bytea  NOT NULL
);
CREATE TABLE IF NOT EXISTS gamehall (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS seat_tokens (
    stream  text             NOT NULL,
    seat    integer          NOT NULL,
    digest  bytea            NOT NULL,
    created double precision NOT NULL,
    PRIMARY KEY (stream, seat)
);
ALTER TABLE events ADD COLUMN IF NOT EXISTS tx xid8 NOT NULL DEFAULT '0';
CREATE INDEX IF NOT EXISTS events_tx ON events (tx, position);
ALTER TABLE deleted ADD COLUMN IF NOT EXISTS tx xid8 NOT NULL DEFAULT '0';
CREATE SEQUENCE IF NOT EXISTS gamehall_positions;
ALTER TABLE streams ADD COLUMN IF NOT EXISTS deadline double precision;
CREATE INDEX IF NOT EXISTS streams_deadline ON streams (deadline, stream COLLATE "C")
    WHERE deadline IS NOT NULL;
"""
# Schema 5 keeps each timed match's next clock expiry: an older schema's running matches get
# theirs from the clocks their last event records (base.stored_deadline).
LAST_METAS = """SELECT s.stream, s.info, e.seq, e.meta FROM streams s JOIN events e
ON e.stream = s.stream AND e.seq = s.version WHERE NOT s.finished AND s.deadline IS NULL"""
# Every command moves its stream's row on (version, updated): with room left on each page the
# new row version goes on the same page and no index is touched (a heap-only update), which
# took a tenth off the append's server time (bench/README.md). A table partitioned (or
# distributed) by stream id is left to its operator: its partitions are where the room is.
STREAMS_ROOM = """
DO $$ BEGIN
    IF (SELECT relkind FROM pg_class WHERE oid = 'streams'::regclass) = 'r' AND NOT coalesce(
            (SELECT 'fillfactor=50' = ANY(reloptions) FROM pg_class
             WHERE oid = 'streams'::regclass), false) THEN
        ALTER TABLE streams SET (fillfactor = 50);
    END IF;
EXCEPTION WHEN insufficient_privilege THEN
    NULL;  -- a role that writes rows but does not own the table: the table stays as it is
END $$;
"""
# Rows restored from a dump of another server carry that server's transaction ids, which may
# be ahead of this one's: readers would not read them until this server's ids pass them. Every
# visible row has an id below the snapshot's xmax, unless it came from elsewhere: those are
# committed, and go first, as the rows of older schemas do.
FOREIGN_TX = """
UPDATE events SET tx = '0' WHERE tx >= pg_snapshot_xmax(pg_current_snapshot());
UPDATE deleted SET tx = '0' WHERE tx >= pg_snapshot_xmax(pg_current_snapshot());
"""
# Schema 3 gave positions from the head row, which every append held until its commit; schema
# 4 takes them from a sequence that starts after every position given (rows of older schemas
# keep transaction id 0: committed long ago, they come first), and the head row goes.
DROP_HEAD = """
DO $$ DECLARE top bigint; BEGIN
    top := greatest((SELECT max(position) FROM events), (SELECT max(last) FROM deleted), 0);
    IF to_regclass('gamehall_head') IS NOT NULL THEN
        top := greatest(top, (SELECT position FROM gamehall_head WHERE id = 1));
        DROP TABLE gamehall_head;
    END IF;
    IF top > (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM gamehall_positions) THEN
        PERFORM setval('gamehall_positions', top);
    END IF;
END $$;
DROP FUNCTION IF EXISTS gamehall_append(
    text[], bigint[], integer[], bytea[], double precision, text, integer[], integer[], text[],
    integer[], bytea[], bytea[], text[], bigint[], integer[], text[], boolean[], integer[],
    integer[], bytea[], bytea[], integer[], text[], integer[], integer[], bytea[]);
"""
# Schema 2 kept the HTTP adapter's seat tokens in a table of its own; schema 3 moves them.
MOVE_HTTP_SEATS = """
DO $$ BEGIN
    IF to_regclass('http_seats') IS NOT NULL THEN
        INSERT INTO seat_tokens SELECT match, seat, digest, coalesce(claimed, 0)
            FROM http_seats WHERE digest IS NOT NULL ON CONFLICT DO NOTHING;
        DROP TABLE http_seats;
    END IF;
END $$;
"""
# The listing entry of a stream is its info, a msgpack map: a later batch's changes are merged
# into it inside the append, key by key, without decoding anything but the map's outline.
MSGPACK = """
CREATE OR REPLACE FUNCTION gamehall_info_merge(entry bytea, keys bytea[], pairs bytea[])
RETURNS bytea LANGUAGE plpgsql IMMUTABLE AS $$
-- ``entry`` (a msgpack map, or NULL) without the pairs of ``keys`` (encoded keys), then ``pairs``
-- (an encoded key and value each; NULL for a key that goes away): the merge of ``merged()``.
-- The map is walked item by item (its values are skipped, never decoded) and the pairs kept
-- are copied as runs between the ones left out: linear in the entry's size.
DECLARE
    old bytea := entry || ''::bytea;  -- a plain copy: a compressed one is unpacked once
    size integer := coalesce(length(old), 0);
    t integer;
    items bigint := 0;
    pending bigint;
    pos integer := 0;
    run integer;
    key_start integer;
    key_end integer;
    count bigint := 0;
    body bytea := ''::bytea;
BEGIN
    keys := coalesce(keys, '{}');
    IF size > 0 THEN
        t := get_byte(old, 0);
        IF t BETWEEN 128 AND 143 THEN
            items := 2 * (t - 128);
            pos := 1;
        ELSIF t = 222 THEN
            items := 2 * (get_byte(old, 1) << 8 | get_byte(old, 2));
            pos := 3;
        ELSIF t = 223 THEN
            items := 2 * ('x' || encode(substring(old FROM 2 FOR 4), 'hex'))::bit(32)::bigint;
            pos := 5;
        ELSE
            RAISE EXCEPTION 'a listing entry is not a msgpack map (byte %)', t;
        END IF;
        run := pos;
        FOR item IN 1 .. items LOOP
            IF item % 2 = 1 THEN
                key_start := pos;
            END IF;
            pending := 1;  -- the values still to pass over to reach the item's end
            WHILE pending > 0 LOOP
                IF pos >= size THEN
                    RAISE EXCEPTION 'a listing entry is cut short (% bytes)', size;
                END IF;
                t := get_byte(old, pos);
                pos := pos + 1;
                pending := pending - 1;
                IF t <= 127 OR t >= 224 OR t IN (192, 194, 195) THEN
                    NULL;  -- fixint, nil, false, true
                ELSIF t <= 143 THEN pending := pending + 2 * (t - 128);  -- fixmap
                ELSIF t <= 159 THEN pending := pending + (t - 144);  -- fixarray
                ELSIF t <= 191 THEN pos := pos + (t - 160);  -- fixstr
                ELSIF t IN (204, 208) THEN pos := pos + 1;
                ELSIF t IN (205, 209) THEN pos := pos + 2;
                ELSIF t IN (202, 206, 210) THEN pos := pos + 4;
                ELSIF t IN (203, 207, 211) THEN pos := pos + 8;
                ELSIF t IN (196, 217) THEN pos := pos + 1 + get_byte(old, pos);  -- bin/str 8
                ELSIF t IN (197, 218) THEN  -- bin 16, str 16
                    pos := pos + 2 + (get_byte(old, pos) << 8 | get_byte(old, pos + 1));
                ELSIF t IN (198, 219) THEN  -- bin 32, str 32
                    pos := pos + 4
                        + ('x' || encode(substring(old FROM pos + 1 FOR 4), 'hex'))::bit(32)::int;
                ELSIF t = 220 THEN  -- array 16
                    pending := pending + (get_byte(old, pos) << 8 | get_byte(old, pos + 1));
                    pos := pos + 2;
                ELSIF t = 221 THEN  -- array 32
                    pending := pending
                        + ('x' || encode(substring(old FROM pos + 1 FOR 4), 'hex'))::bit(32)::int;
                    pos := pos + 4;
                ELSIF t = 222 THEN  -- map 16
                    pending := pending + 2 * (get_byte(old, pos) << 8 | get_byte(old, pos + 1));
                    pos := pos + 2;
                ELSIF t = 223 THEN  -- map 32
                    pending := pending + 2
                        * ('x' || encode(substring(old FROM pos + 1 FOR 4), 'hex'))::bit(32)::int;
                    pos := pos + 4;
                ELSIF t BETWEEN 212 AND 216 THEN pos := pos + 1 + (1 << (t - 212));  -- fixext
                ELSIF t = 199 THEN pos := pos + 2 + get_byte(old, pos);  -- ext 8
                ELSIF t = 200 THEN  -- ext 16
                    pos := pos + 3 + (get_byte(old, pos) << 8 | get_byte(old, pos + 1));
                ELSIF t = 201 THEN  -- ext 32
                    pos := pos + 5
                        + ('x' || encode(substring(old FROM pos + 1 FOR 4), 'hex'))::bit(32)::int;
                ELSE
                    RAISE EXCEPTION 'a listing entry is not msgpack (byte % at %)', t, pos - 1;
                END IF;
            END LOOP;
            IF pos > size THEN
                RAISE EXCEPTION 'a listing entry is cut short (% bytes)', size;
            END IF;
            IF item % 2 = 1 THEN
                key_end := pos;
            ELSIF substring(old FROM key_start + 1 FOR key_end - key_start) = ANY(keys) THEN
                body := body || substring(old FROM run + 1 FOR key_start - run);  -- left out
                run := pos;
            ELSE
                count := count + 1;
            END IF;
        END LOOP;
        body := body || substring(old FROM run + 1 FOR pos - run);
    END IF;
    FOR i IN 1 .. coalesce(array_length(pairs, 1), 0) LOOP
        IF pairs[i] IS NOT NULL THEN
            body := body || pairs[i];
            count := count + 1;
        END IF;
    END LOOP;
    IF count < 16 THEN
        RETURN set_byte('\\x00'::bytea, 0, 128 + count::int) || body;
    ELSIF count < 65536 THEN
        RETURN '\\xde'::bytea || substring(int4send(count::int) FROM 3 FOR 2) || body;
    END IF;
    RETURN '\\xdf'::bytea || int4send(count::int) || body;
END $$;
"""
APPEND = """
CREATE OR REPLACE FUNCTION gamehall_append(
    b_stream text[], b_expected bigint[], b_count integer[], b_info bytea[],
    b_now double precision,
    r_batch integer[], r_k integer[], r_type text[], r_v integer[], r_data bytea[],
    r_meta bytea[], r_cmd text[], r_crc bigint[],
    l_mask integer[], l_game text[], l_finished boolean[], l_open integer[],
    k_batch integer[], k_key bytea[], k_pair bytea[],
    p_batch integer[], p_player text[],
    t_batch integer[], t_seat integer[], t_digest bytea[],
    b_deadline double precision[], b_was bytea[]
) RETURNS bigint[] LANGUAGE plpgsql AS $$
-- One group commit: the events of every batch at its expected version and, in the same
-- statement, the listing entry (``b_info`` of a created stream; ``k_`` changes merged into a
-- later one's, or ``b_info`` itself where the entry is still ``b_was``, the one the writer
-- stored last and merged the changes into already; ``l_`` the indexed columns a batch sets,
-- by ``l_mask`` bits 1 game, 2 finished, 4 open seats, 8 players, ``p_`` the players), the
-- seat tokens (``t_``) and each stream's next clock expiry (``b_deadline``: NaN leaves it as
-- it is).
DECLARE
    me xid8 := pg_current_xact_id();  -- on every row: readers follow (tx, position)
    first bigint[] := '{}';
    positions bigint[];
    total integer := 0;
    later integer := 0;
    short text[] := '{}';
    forced integer[];
    created text[] := '{}';
    listed text[] := '{}';
    n integer := coalesce(array_length(b_stream, 1), 0);
    put integer;
    stored bigint;
BEGIN
    -- No lock shared by all streams and no look-up before the writes: a batch's rows go in
    -- at the seqs after its expected version, where the (stream, seq) key refuses a row that
    -- another append wrote first (a stale version, or a race), and its stream's row in
    -- ``streams`` is moved on only where it is still at that version (which refuses a version
    -- past the stream's end, or a stream deleted meanwhile). A batch refused either way is a
    -- conflict: its rows go. Positions come from a sequence.
    FOR i IN 1 .. n LOOP
        first[i] := total + 1;  -- an index into positions until the rows are in
        total := total + b_count[i];
        IF b_expected[i] > 0 THEN
            later := later + 1;
        END IF;
    END LOOP;
    IF total = 1 THEN  -- one event, as most appends of a node with few matches
        positions := ARRAY[nextval('gamehall_positions')];
    ELSE
        positions := ARRAY(SELECT p FROM (
            SELECT nextval('gamehall_positions') AS p FROM generate_series(1, total)) AS g
            ORDER BY p);
    END IF;
    -- One batch, as most appends of a node with few matches: a plain insert (the one over
    -- all batches below, joined and counted, costs it a tenth of its server time; from two
    -- batches on it costs less than an insert each). A row another append wrote first is
    -- left out.
    IF n = 1 THEN
        short := '{}';
        IF first[1] > 0 AND b_count[1] > 0 THEN
            INSERT INTO events (stream, seq, position, time, type, v, data, meta, cmd, crc, tx)
            SELECT b_stream[1], b_expected[1] + r.k, positions[r.k], b_now, r.t, r.v, r.d, r.m,
                   r.c, r.crc, me
            FROM unnest(r_type, r_v, r_data, r_meta, r_cmd, r_crc) WITH ORDINALITY
                 AS r(t, v, d, m, c, crc, k)
            ON CONFLICT (stream, seq) DO NOTHING;
            GET DIAGNOSTICS put = ROW_COUNT;
            IF put < b_count[1] THEN
                short := b_stream;
            END IF;
        END IF;
    ELSE  -- in (stream, seq) order, so that two appends that wait for each other's rows
        -- wait in the same order (no deadlock). A plain insert first: no other append's row
        -- is in the way (almost always), and it costs a tenth less than one that skips them;
        -- when one is, it is undone and the insert that leaves such rows out runs instead.
        BEGIN
            @GROUP_ROWS@;
            GET DIAGNOSTICS put = ROW_COUNT;
        EXCEPTION WHEN unique_violation THEN
            @GROUP_ROWS@
            ON CONFLICT (stream, seq) DO NOTHING;
            GET DIAGNOSTICS put = ROW_COUNT;
        END;
        short := '{}';
        IF put < total THEN  -- a row left out: the streams whose rows are not all in
            -- (this call's rows of a stream are those past its expected version)
            SELECT coalesce(array_agg(b.stream), '{}') INTO short
            FROM unnest(b_stream, b_expected, b_count, first) AS b(stream, expected, n, first)
            WHERE b.first > 0 AND b.n > (SELECT count(*) FROM events e
                WHERE e.stream = b.stream AND e.seq > b.expected AND e.tx = me);
        END IF;
    END IF;
    IF cardinality(short) > 0 THEN  -- beaten on these streams: nothing more of theirs
        FOR i IN 1 .. n LOOP
            IF b_stream[i] = ANY(short) THEN
                first[i] := -1;
                IF b_expected[i] > 0 THEN
                    later := later - 1;
                END IF;
            END IF;
        END LOOP;
    END IF;
    IF 0 = ANY(b_count) THEN  -- an empty first batch: no row of its own tells a race
        FOR i IN 1 .. n LOOP
            IF first[i] > 0 AND b_count[i] = 0 AND b_expected[i] = 0
                    AND EXISTS (SELECT 1 FROM events e WHERE e.stream = b_stream[i]) THEN
                first[i] := -1;
                short := short || b_stream[i];
            END IF;
        END LOOP;
    END IF;
    IF 0 = ANY(b_expected) THEN  -- created streams: their listing entries
        WITH made AS (
            INSERT INTO streams (stream, version, created, updated, info, game, finished, open_seats,
                                 deadline)
            SELECT b.stream, b.n, b_now, b_now, b.info, b.game, coalesce(b.finished, false),
                   coalesce(b.open, 0), nullif(b.deadline, 'NaN')
            FROM unnest(b_stream, b_expected, b_count, b_info, first, l_game, l_finished, l_open,
                        b_deadline)
                 AS b(stream, expected, n, info, first, game, finished, open, deadline)
            WHERE b.first > 0 AND b.expected = 0
            ON CONFLICT (stream) DO UPDATE SET (version, updated, info, game, finished,
                open_seats, deadline) = (excluded.version, excluded.updated, excluded.info,
                excluded.game, excluded.finished, excluded.open_seats, excluded.deadline)
            WHERE streams.version = 0  -- an empty first batch left the row before
            RETURNING stream)
        SELECT coalesce(array_agg(stream), '{}') INTO created FROM made;
    END IF;
    -- Every later batch moves its stream's row on from its expected version (counted):
    -- one that is not at it is a conflict, below.
    IF n = 1 AND cardinality(k_batch) = 0 THEN  -- one batch: by its key (a join costs more)
        UPDATE streams SET version = b_expected[1] + b_count[1], updated = b_now,
            deadline = CASE WHEN b_deadline[1] = 'NaN' THEN deadline ELSE b_deadline[1] END
        WHERE stream = b_stream[1] AND version = b_expected[1] AND first[1] > 0
            AND b_expected[1] > 0;
    ELSIF cardinality(k_batch) = 0 AND cardinality(l_mask) = 0 THEN
        -- no batch changes its listing (the writer sends the listing's arrays empty then):
        -- the versions, times and deadlines alone
        UPDATE streams s SET version = b.expected + b.n, updated = b_now,
            deadline = CASE WHEN b.deadline = 'NaN' THEN s.deadline ELSE b.deadline END
        FROM unnest(b_stream, b_expected, b_count, first, b_deadline)
             AS b(stream, expected, n, first, deadline)
        WHERE s.stream = b.stream AND s.version = b.expected AND b.first > 0
            AND b.expected > 0;
    ELSE
        @LISTING_UPDATE@ s.version = b.expected;
    END IF;
    GET DIAGNOSTICS put = ROW_COUNT;
    IF put < later THEN  -- a later batch whose stream's row was not at its version (a row
        -- that was is at the batch's end now, as no other append can have moved it there):
        -- a conflict, unless the row is missing or behind its stream's events (a stream whose
        -- first batch was empty, as an older release left it) and the events end at the
        -- version: then the row is brought up to the batch (``forced``)
        forced := '{}';
        FOR i IN 1 .. n LOOP
            IF first[i] > 0 AND b_expected[i] > 0 THEN
                stored := (SELECT s.version FROM streams s WHERE s.stream = b_stream[i]);
                IF stored = b_expected[i] + b_count[i] THEN
                    CONTINUE;  -- moved on from its version above
                ELSIF coalesce(stored < b_expected[i], true) AND b_expected[i] = (
                        SELECT max(e.seq) FROM events e WHERE e.stream = b_stream[i]
                        AND e.tx <> me) THEN
                    forced := forced || i;
                ELSE
                    first[i] := -1;
                    short := short || b_stream[i];
                END IF;
            END IF;
        END LOOP;
        IF cardinality(forced) > 0 THEN
            @LISTING_UPDATE@ b.i = ANY(forced);
        END IF;
    END IF;
    IF cardinality(short) > 0 THEN  -- beaten on these streams: their rows go, a conflict
        DELETE FROM events WHERE stream = ANY(short) AND tx = me;
        FOR i IN 1 .. n LOOP
            IF b_stream[i] = ANY(short) THEN
                first[i] := -1 - coalesce(
                    (SELECT max(e.seq) FROM events e WHERE e.stream = b_stream[i]), 0);
            END IF;
        END LOOP;
    END IF;
    IF cardinality(l_mask) > 0 THEN  -- the later batches that set their players
        listed := ARRAY(SELECT b_stream[i] FROM generate_series(1, n) AS i
                        WHERE l_mask[i] & 8 <> 0 AND first[i] > 0 AND b_expected[i] > 0);
    END IF;
    listed := listed || created;
    IF cardinality(listed) > 0 THEN
        DELETE FROM stream_players WHERE stream = ANY(listed);
        INSERT INTO stream_players (player, stream)
        SELECT DISTINCT p.player, b_stream[p.b] FROM unnest(p_batch, p_player) AS p(b, player)
        WHERE b_stream[p.b] = ANY(listed) AND first[p.b] > 0;
    END IF;
    IF cardinality(t_batch) > 0 THEN
        INSERT INTO seat_tokens (stream, seat, digest, created)
        SELECT b_stream[t.b], t.seat, t.digest, b_now
        FROM unnest(t_batch, t_seat, t_digest) AS t(b, seat, digest)
        WHERE first[t.b] > 0
        ON CONFLICT (stream, seat) DO UPDATE SET digest = excluded.digest;
    END IF;
    RETURN first || positions;
END $$;
""".replace(  # the group's insert, written once: plain, and leaving out rows in the way
    "@GROUP_ROWS@",
    """INSERT INTO events (stream, seq, position, time, type, v, data, meta, cmd, crc, tx)
            SELECT b.stream, b.expected + r.k, positions[b.first + r.k - 1], b_now, r.t, r.v,
                   r.d, r.m, r.c, r.crc, me
            FROM unnest(r_batch, r_k, r_type, r_v, r_data, r_meta, r_cmd, r_crc)
                 AS r(b, k, t, v, d, m, c, crc)
            JOIN unnest(b_stream, b_expected, first) WITH ORDINALITY
                 AS b(stream, expected, first, i) ON b.i = r.b
            WHERE b.first > 0
            ORDER BY b.stream, r.k""",
).replace(  # and the update of later batches' rows: checked at their versions, and forced
    "@LISTING_UPDATE@",
    # One statement for every later batch: its version and, where it changes any, its
    # listing entry (``k_`` merged into the info, ``l_`` the indexed columns); a stream is
    # in a call once, so each row is updated once.
    """UPDATE streams s SET version = b.expected + b.n, updated = b_now,
            deadline = CASE WHEN b.deadline = 'NaN' THEN s.deadline ELSE b.deadline END,
            info = CASE WHEN k.b IS NULL THEN s.info
                        WHEN s.info = b.was THEN b.info  -- merged by the writer already
                        ELSE gamehall_info_merge(s.info, k.keys, k.pairs) END,
            game = CASE WHEN l_mask[b.i] & 1 <> 0 THEN l_game[b.i] ELSE s.game END,
            finished = CASE WHEN l_mask[b.i] & 2 <> 0 THEN l_finished[b.i] ELSE s.finished END,
            open_seats = CASE WHEN l_mask[b.i] & 4 <> 0 THEN l_open[b.i] ELSE s.open_seats END
        FROM unnest(b_stream, b_expected, b_count, first, b_deadline, b_info, b_was)
             WITH ORDINALITY AS b(stream, expected, n, first, deadline, info, was, i)
        LEFT JOIN (SELECT u.b, array_agg(u.key ORDER BY u.o) AS keys,
                          array_agg(u.pair ORDER BY u.o) AS pairs
                   FROM unnest(k_batch, k_key, k_pair) WITH ORDINALITY AS u(b, key, pair, o)
                   GROUP BY u.b) AS k ON k.b = b.i
        WHERE s.stream = b.stream AND b.first > 0 AND b.expected > 0 AND""",
)
_COLUMNS = "seq, position, time, type, v, data, meta, crc"
_UNWRITTEN = GamehallError("a batch of the commit was not in any of its rounds")
# Global order is (tx, position). A row is read only once its transaction id is below the
# oldest transaction still running (the watermark): every transaction that could still commit
# has an id at or above it, so nothing a reader passed can appear behind it later. ``after`` is
# a position the reader saw last; its transaction id is looked up (a deleted row's is kept).
# The running transactions are those of the reading statement's snapshot, less the ones whose
# session is seen to be another database's or another application's (not this schema's
# gamehall, whose connections all carry one application name): they cannot write these rows,
# and a transaction of another test or another schema then holds no reader back. One whose
# session is not found (it ended meanwhile, or its details are hidden) still counts. Reading
# pg_stat_activity costs (it halved one node's commands/s when read on every follow), so it is
# read only when the plain watermark holds a committed row of the schema back.
#
# The watermark is taken by a statement of its own, before the one that reads the rows: a
# transaction below it had ended before the first statement's snapshot, so the second one
# sees all it wrote. The first reports when the watermark is a transaction whose session was
# not found and that has ended since: one that ended between the snapshot and the reading of
# pg_stat_activity, which holds rows back for nothing; the watermark is then taken again.
_WATERMARK = """(SELECT CASE
    WHEN NOT EXISTS (SELECT 1 FROM events WHERE tx >= pg_snapshot_xmin(s)) THEN pg_snapshot_xmin(s)
    ELSE coalesce((
        SELECT min(x) FROM pg_snapshot_xip(s) AS x WHERE NOT EXISTS (
            SELECT 1 FROM pg_stat_activity AS a WHERE a.backend_xid = x::xid
            AND (a.datname IS DISTINCT FROM current_database()
                 OR a.application_name IS DISTINCT FROM current_setting('application_name')))
        ), pg_snapshot_xmax(s)) END
    FROM pg_current_snapshot() AS s)"""
_TX_OF = """coalesce(
    (SELECT tx FROM events WHERE position = %(after)s),
    (SELECT tx FROM (SELECT tx, last FROM deleted WHERE first <= %(after)s
                     ORDER BY first DESC LIMIT 1) AS d WHERE d.last >= %(after)s),
    (SELECT tx FROM events WHERE position < %(after)s ORDER BY position DESC LIMIT 1),
    '0'::xid8)"""
_MARK = f"""SELECT w.mark::text, CASE
    WHEN EXISTS (SELECT 1 FROM events WHERE tx >= w.mark)
        AND NOT EXISTS (SELECT 1 FROM pg_stat_activity AS a WHERE a.backend_xid = w.mark::xid)
    THEN pg_xact_status(w.mark) IS DISTINCT FROM 'in progress' ELSE false END
FROM (SELECT {_WATERMARK} AS mark) AS w"""
_BELOW_MARK = "tx < %(mark)s::text::xid8"
# What a follower reads, in one statement: the watermark and the rows below it read in the
# same snapshot (a transaction below the watermark had ended before the snapshot was taken,
# so the snapshot sees all it wrote, as it does with the watermark taken by a statement
# before), folded in the database to what the follower keeps: the last position read, how many
# rows, each stream's last seq; then whether committed rows wait above the watermark (``held``)
# and whether the watermark is a transaction that ended while it was taken (``_MARK``'s).
_CHANGES = f"""WITH w AS MATERIALIZED (SELECT {_WATERMARK} AS mark),
r AS MATERIALIZED (
    SELECT stream, seq, tx, position FROM events, w
    WHERE (tx, position) > (({_TX_OF}), %(after)s) AND tx < w.mark
    ORDER BY tx, position LIMIT %(limit)s),
h AS (SELECT stream, max(seq) AS seq FROM r GROUP BY stream),
held AS (SELECT w.mark, EXISTS (SELECT 1 FROM events WHERE tx >= w.mark) AS held FROM w)
SELECT (SELECT position FROM r ORDER BY tx DESC, position DESC LIMIT 1),
    (SELECT count(*) FROM r), a.streams, a.seqs, held.held,
    CASE WHEN held.held AND NOT EXISTS (
        SELECT 1 FROM pg_stat_activity AS p WHERE p.backend_xid = held.mark::xid)
    THEN pg_xact_status(held.mark) IS DISTINCT FROM 'in progress' ELSE false END
FROM held, LATERAL (SELECT array_agg(stream) AS streams, array_agg(seq) AS seqs FROM h) AS a"""
_FOLLOW = f"(tx, position) > (({_TX_OF}), %(after)s) AND {_BELOW_MARK}"
_HOLES = """SELECT p + 1, next - 1 FROM (
    SELECT p, lead(p) OVER (ORDER BY p) AS next FROM (
        SELECT 0 AS p UNION ALL SELECT position FROM events
        UNION ALL SELECT generate_series(first, last) FROM deleted) AS given) AS runs
WHERE next > p + 1"""
_HELD_BACK = f"""WITH w AS (SELECT {_WATERMARK} AS mark)
SELECT (SELECT count(*) FROM events, w WHERE tx >= w.mark),
    coalesce((SELECT extract(epoch FROM clock_timestamp() - a.xact_start)::float8
              FROM pg_stat_activity AS a, w WHERE a.backend_xid = w.mark::xid LIMIT 1), 0)"""
_LAST = f"""SELECT position FROM (
    (SELECT tx, position FROM events WHERE {_BELOW_MARK}
     ORDER BY tx DESC, position DESC LIMIT 1)
    UNION ALL
    (SELECT tx, last FROM deleted WHERE {_BELOW_MARK} ORDER BY tx DESC, last DESC LIMIT 1)
) AS l ORDER BY tx DESC, position DESC LIMIT 1"""
# Activation's one query (one statement reads one consistent state): every row of a stream in
# seq order, with its payload only if it is the first or follows the snapshot (``at``, or
# ``after`` without one); the first row also carries the snapshot.
_LOAD_STREAM = """
WITH at AS (
    SELECT coalesce(s.seq, %(after)s) AS seq, s.key AS key, s.data AS data
    FROM (SELECT 1) AS one
    LEFT JOIN snapshots AS s ON s.stream = %(stream)s AND s.seq > %(after)s AND %(snap)s)
SELECT e.seq,
    CASE WHEN e.seq = 1 OR e.seq > at.seq THEN e.type END,
    CASE WHEN e.seq = 1 OR e.seq > at.seq THEN e.v END,
    CASE WHEN e.seq = 1 OR e.seq > at.seq THEN e.data END,
    CASE WHEN e.seq = 1 OR e.seq > at.seq THEN e.meta END,
    CASE WHEN e.seq = 1 OR e.seq > at.seq THEN e.crc END,
    e.cmd,
    CASE WHEN e.seq = 1 THEN at.seq END,
    CASE WHEN e.seq = 1 THEN at.key END,
    CASE WHEN e.seq = 1 THEN at.data END,
    CASE WHEN e.seq = 1 THEN (SELECT version FROM streams WHERE stream = %(stream)s) END,
    CASE WHEN e.seq = 1 AND at.key IS NOT NULL THEN (
        SELECT array[count(*), max(m.seq)] FROM events AS m
        WHERE m.stream = %(stream)s AND m.seq > 1 AND m.seq <= at.seq) END
FROM at CROSS JOIN events AS e WHERE e.stream = %(stream)s
    AND (e.seq = 1 OR e.seq > at.seq OR at.key IS NULL) ORDER BY e.seq
"""
# The seq and command id of the rows between the first and ``upto``: a stream read from a
# snapshot whose rows before it are not all there, read again to say which is missing.
_LOAD_MARKS = "SELECT seq, cmd FROM events WHERE stream = %s AND seq > 1 AND seq <= %s ORDER BY seq"


class StoreUnreachable(StoreFailed):
    """A database that refuses the connection (down, wrong host, no such database)."""

    code = "store_unreachable"
    exit_code = 2


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


def _db_errors(fn: Callable[P, T]) -> Callable[P, T]:
    """Turn psycopg's errors into the store's; a lost connection is made again next time."""

    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        store = args[0]
        assert isinstance(store, PostgresStore)
        local = store._local
        depth = getattr(local, "depth", 0)
        local.depth = depth + 1  # a reader connection taken inside is kept for the call
        try:
            try:
                return fn(*args, **kwargs)
            except psycopg.OperationalError:
                store._drop_reader()
                store._check_pool()  # the server cut them all, most likely: find the others
                try:
                    return fn(*args, **kwargs)  # reads are safe to try again on a new connection
                except psycopg.Error as exc:
                    store._drop_reader()
                    raise store.failure(exc) from None
            except psycopg.Error as exc:
                store._drop_reader()
                raise store.failure(exc) from None
        finally:
            local.depth = depth
            if not depth:
                store._give_back()

    wrapper.__doc__ = fn.__doc__
    wrapper.__name__ = fn.__name__
    return wrapper


Entry = tuple[bytes, dict[str, Any]]  # a listing entry, encoded and as a map
Made = tuple[int, str, Entry]  # a batch's index, its stream, the entry it stores


class PostgresStore(Store):
    """Events, streams, snapshots and seat tokens in one PostgreSQL schema."""

    def __init__(self, url: StoreURL | str, codec: Codec, *, poll: float = 1.0) -> None:
        self.url = parse_store_url(url) if isinstance(url, str) else url
        if self.url.backend != "postgresql":
            raise GamehallError(f"{self.url} is not a PostgreSQL URL")
        self.codec = codec
        self.schema = self.url.schema
        self.channel = f"gamehall_{self.schema}"
        self._schema_name = sql.Identifier(self.schema)
        self.poll = poll
        self.damaged: str | None = None
        self._closed = False
        self._lock = threading.Lock()
        self._lease_lock = threading.Lock()
        self._conns_lock = threading.Lock()
        self._local = threading.local()
        self._conns: list[psycopg.Connection[Any]] = []
        self._leases: set[str] = set()
        self._lease_conn: psycopg.Connection[Any] | None = None
        self._listener: psycopg.Connection[Any] | None = None
        self._notifier: threading.Thread | None = None
        self._notify_wanted = threading.Event()
        self._notify_streams: set[str] | None = set()  # to name in the next one (None: all)
        self._owed = 0.0  # when the last commit not notified yet was made (0: none is)
        self._listened = True  # whether another node listened at the last look (none yet)
        self._heard: set[str] | None = set()  # named by the notifications heard (None: all)
        self._notify_pid = 0  # the server process of the notifying connection
        self._listen_pid = 0  # the server process of this store's listening connection
        self._held = False  # the last follow left committed rows above the watermark
        self._lent = 0  # reader connections out of the pool
        self._pool: psycopg_pool.ConnectionPool[psycopg.Connection[Any]] = (
            psycopg_pool.ConnectionPool(
                self.url.conninfo,
                kwargs=self._connection_options(autocommit=True),
                min_size=1,
                max_size=self.url.pool_max,
                open=False,
                configure=self._pooled,
                name=f"gamehall {self.schema}",
                timeout=self.url.pool_timeout,
                num_workers=2,
            )
        )
        self._writer: psycopg.Connection[Any] | None = self.connect()
        # The journal's own connection, on its event loop (_Overlapped), while it has one.
        self._journal_conn: psycopg.Connection[Any] | None = None
        # The listing entry the journal's connection last stored for each stream of an
        # active match (encoded, and as a map): a later change is merged into it here and
        # sent whole, which the append stores where the entry is still this one (instead of
        # merging in the database, a walk over the map in PL/pgSQL that cost a tenth of a
        # group commit). Only a speed-up: an entry changed since (by ``put_entry``, another
        # node) is merged in the database as before.
        self._entries: dict[str, Entry] = {}
        self._migrate()
        self._pool.open(wait=False)

    def __str__(self) -> str:
        return str(self.url)

    # -- connections ------------------------------------------------------------------------

    def connect(
        self, autocommit: bool = True, name: str = "gamehall {}"
    ) -> psycopg.Connection[Any]:
        """Return a new connection with the store's schema first on the search path, named
        ``name`` (``{}`` stands for the schema) for ``pg_stat_activity``."""
        if self._closed:
            raise StoreClosed("the store is closed")
        try:
            options = self._connection_options(autocommit, name)
            conn = psycopg.connect(self.url.conninfo, **options)
        except psycopg.Error as exc:
            raise StoreUnreachable(f"cannot connect to {self.url}: {_first_line(exc)}") from None
        self._pooled(conn)
        return conn

    def _connection_options(self, autocommit: bool, name: str = "gamehall {}") -> dict[str, Any]:
        return {
            "autocommit": autocommit,
            "connect_timeout": CONNECT_TIMEOUT,
            "options": f"-c search_path={self.schema}",
            "application_name": name.format(self.schema)[:63],
        }

    def _pooled(self, conn: psycopg.Connection[Any]) -> None:
        """Count a new connection among the store's (closing the store closes it)."""
        with self._conns_lock:
            self._conns = [c for c in self._conns if not c.closed]
            self._conns.append(conn)

    @contextmanager
    def reading(self) -> Iterator[psycopg.Connection[Any]]:
        """Hold a reader connection of the pool for a block: the store's reads inside use it."""
        local = self._local
        depth = getattr(local, "depth", 0)
        local.depth = depth + 1
        try:
            yield self._reader()
        finally:
            local.depth = depth
            if not depth:
                self._give_back()

    def _reader(self) -> psycopg.Connection[Any]:
        """Return the reader connection this thread holds for the call (taken on first use)."""
        if self._closed:
            raise StoreClosed("the store is closed")
        local = self._local
        if not getattr(local, "depth", 0):
            raise RuntimeError("a reader connection is held only inside a store call")
        conn: psycopg.Connection[Any] | None = getattr(local, "conn", None)
        if conn is None:
            conn = local.conn = self._borrow()
        return conn

    def _borrow(self) -> psycopg.Connection[Any]:
        """Take a connection from the pool: wait up to ``pool_timeout``, then refuse."""
        timeout = self.url.pool_timeout
        try:
            conn = self._pool.getconn(timeout)
        except psycopg_pool.PoolClosed:
            raise StoreClosed("the store is closed") from None
        except psycopg_pool.PoolTimeout:
            if self._closed:
                raise StoreClosed("the store is closed") from None
            if not self._lent:  # none is in use: the pool could open none
                raise StoreUnreachable(
                    f"cannot connect to {self.url}: no reader connection opened in {timeout:g} s"
                ) from None
            raise StoreBusy(
                f"every reader connection of {self.url} ({self.url.pool_max}, pool_max) was "
                f"in use for {timeout:g} s (pool_timeout)"
            ) from None
        if self._closed:  # given back by a read that closing cancelled, before the pool closed
            try:
                self._pool.putconn(conn)
            except (psycopg.Error, psycopg_pool.PoolClosed):
                _shut(conn)
            raise StoreClosed("the store is closed")
        with self._conns_lock:
            self._lent += 1
        return conn

    def _give_back(self) -> None:
        """Return the reader connection this thread holds, if any, to the pool."""
        conn: psycopg.Connection[Any] | None = getattr(self._local, "conn", None)
        if conn is None:
            return
        self._local.conn = None
        with self._conns_lock:
            self._lent -= 1
        try:
            self._pool.putconn(conn)  # a closed one is replaced by the pool
        except (psycopg.Error, psycopg_pool.PoolClosed):
            _shut(conn)

    def _drop_reader(self) -> None:
        """Close the reader connection this thread holds (it failed) and give it back."""
        conn: psycopg.Connection[Any] | None = getattr(self._local, "conn", None)
        if conn is not None:
            _shut(conn)
            self._give_back()

    def _check_pool(self) -> None:
        """Have the pool test its idle connections and replace those that fail."""
        try:
            self._pool.check()
        except (psycopg.Error, psycopg_pool.PoolClosed):
            pass

    def failure(self, exc: psycopg.Error) -> GamehallError:
        """Return the store error for a driver one."""
        if self._closed:
            return StoreClosed("the store is closed")
        if isinstance(exc, psycopg.OperationalError):
            return StoreUnreachable(f"the connection to {self.url} failed: {_first_line(exc)}")
        return StoreFailed(f"the store {self.url} failed: {_first_line(exc)}")

    def _migrate(self) -> None:
        db = self._writer
        assert db is not None
        migrated = False
        try:
            with db.transaction():
                # One node migrates at a time (CREATE … IF NOT EXISTS races otherwise).
                db.execute("SELECT pg_advisory_xact_lock(%s, 1)", (LOCK_CLASS,))
                db.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(self._schema_name))
                found = db.execute(
                    "SELECT 1 FROM information_schema.tables "
                    "WHERE table_schema = %s AND table_name = 'gamehall'",
                    (self.schema,),
                ).fetchone()
                version = self._schema_version(db) if found else None
                # The functions of this gamehall, whatever wrote them before (an older one's
                # append, with fewer arguments, stays for its nodes until they are upgraded).
                db.execute(MSGPACK)
                db.execute(APPEND)
                if version is not None and version >= 4:
                    db.execute(FOREIGN_TX)
                if version is None or version < SCHEMA_VERSION:
                    db.execute(TABLES)
                    db.execute(MOVE_HTTP_SEATS)
                    db.execute(DROP_HEAD)
                    if version is not None and version < 2:
                        # Fill the lobby's columns of an older schema from each stream's info.
                        for stream, info in db.execute(
                            "SELECT stream, info FROM streams"
                        ).fetchall():
                            _set_info(db, stream, _decoded(info))
                    if version is not None and version < 5:
                        _fill_deadlines(db, self.codec)
                    db.execute(
                        "INSERT INTO gamehall VALUES ('schema', %s) "
                        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                        (str(SCHEMA_VERSION),),
                    )
                db.execute(STREAMS_ROOM)
            migrated = True
        except psycopg.Error as exc:
            raise self.failure(exc) from None
        finally:
            if not migrated:  # whatever stopped the migration (an interrupt too) closes the store
                self.close()

    def _schema_version(self, db: psycopg.Connection[Any]) -> int | None:
        row = db.execute("SELECT value FROM gamehall WHERE key = 'schema'").fetchone()
        if row is None:
            return None
        try:
            version = int(row[0])
        except (TypeError, ValueError):
            raise DamagedStore(
                f"{self.url} has the schema version {row[0]!r}, not a number"
            ) from None
        if version > SCHEMA_VERSION:
            raise DamagedStore(
                f"{self.url} has store schema {version}, written by a newer gamehall; "
                f"this gamehall reads schema {SCHEMA_VERSION}"
            )
        return version

    @property
    def threaded(self) -> bool:
        """Appends wait for the database, so they run in a worker thread."""
        return True

    @property
    def shared(self) -> bool:
        """Other nodes write here too: a hall follows their commits."""
        return True

    # -- writing ----------------------------------------------------------------------------

    def _check_writable(self) -> None:
        if self._closed:
            raise StoreClosed("the store is closed")

    def write(self, encoded: Sequence[Encoded | GamehallError]) -> list[Written | GamehallError]:
        """Commit every batch that is at its expected version, in one transaction."""
        self._check_writable()
        now = time.time()
        rounds = _rounds(encoded)
        with self._lock:
            db = self._writer
            if db is None or db.closed:
                db = self._writer = self.connect()
            try:
                if len(rounds) == 1:  # one statement: events, listing and seat tokens
                    found = [self._append(db, rounds[0], now)]
                else:  # a stream twice in a group commit: one call per round, one transaction
                    with db.transaction():
                        found = [self._append(db, batches, now) for batches in rounds]
            except psycopg.Error as exc:
                lost = isinstance(exc, psycopg.OperationalError) or db.closed
                if lost:
                    _shut(db)
                    self._writer = None
                raise self._commit_failed(exc, lost) from None
            except UnicodeEncodeError as exc:  # found while the arguments are sent: none went
                raise self._not_utf8(exc) from None
        return self._placed(encoded, rounds, found, now)

    def _commit_failed(self, exc: psycopg.Error, lost: bool) -> GamehallError:
        """The error a failed commit answers, its connection ``lost`` or not."""
        if self._closed:
            return StoreClosed("the store is closed")
        if lost:
            return StoreUnreachable(
                f"the connection to {self.url} was lost during a commit "
                f"({_first_line(exc)}): nothing of it is acknowledged"
            )
        return self.failure(exc)

    def _not_utf8(self, exc: UnicodeEncodeError) -> GamehallError:
        bad = exc.object[exc.start : exc.end]
        return StoreFailed(
            f"the store {self.url} holds text as UTF-8, which has no {bad!r} "
            "(a lone surrogate): nothing of this commit is stored"
        )

    def _placed(
        self,
        encoded: Sequence[Encoded | GamehallError],
        rounds: list[list[tuple[int, Encoded]]],
        found: list[tuple[list[int], list[int]]],
        now: float,
    ) -> list[Written | GamehallError]:
        """Each batch's place, from what the append calls answered; the listening nodes are
        told of the commit."""
        if any(positions for _, positions in found):
            self._notify(b.stream for batches in rounds for _, b in batches)
        # Every batch that encoded is in a round: each place is filled below.
        results: list[Written | GamehallError] = [
            b if isinstance(b, GamehallError) else _UNWRITTEN for b in encoded
        ]
        for batches, (firsts, positions) in zip(rounds, found, strict=True):
            for (index, batch), first in zip(batches, firsts, strict=True):
                if first > 0:
                    mine = tuple(positions[first - 1 : first - 1 + len(batch.rows)])
                    results[index] = Written(mine[0] if mine else 0, now, mine)
                else:
                    results[index] = conflict(batch.stream, batch.expected, -1 - first)
        return results

    def _notify(self, streams: Iterable[str]) -> None:
        """Have the listening nodes woken, after the commit and from a connection of its own.

        A NOTIFY inside the append would take PostgreSQL's notification lock, one for the whole
        database, and hold it through the commit: the lock shared by all streams that this
        append does without. Sent apart, it costs the append no round trip, and notifications
        of commits that come while one is sent go as one, naming every stream they wrote (a
        follower reads the store only for a stream it serves; see :meth:`heard_streams`). A
        lost one costs a follower a poll. While the last look found no other node listening,
        the notifying thread is not even woken: it looks again on its own (see
        :meth:`_notifying`).
        """
        with self._conns_lock:
            named = self._notify_streams
            if named is not None:
                named.update(streams)
                if len(named) > NAMED_STREAMS:  # too many to name: the next one names none
                    self._notify_streams = None
            self._owed = time.monotonic()
            if self._notifier is None or not self._notifier.is_alive():
                self._notifier = threading.Thread(
                    target=self._notifying, name="gamehall-notify", daemon=True
                )
                self._notifier.start()
        if self._listened or self._held:
            self._notify_wanted.set()

    def _notifying(self) -> None:
        """Send the notifications :meth:`_notify` asks for while another node listens.

        A notification is a transaction of its own on the server (an id, a commit record, the
        notification queue's lock) and a round trip here: about as much CPU as a one-event
        append. With no other node listening (one node alone, or writers that follow nothing)
        it wakes nobody, so it is not sent; who listens is looked up in ``pg_stat_activity``
        (listening connections carry the name ``LISTENING``) at most every
        ``LISTENERS_SECONDS``, and this thread wakes that often by itself while a commit is
        owed a notification. A commit passed over while nobody was known to listen is
        notified after the next look if someone listens by then: a node that has just begun
        to listen hears it within that time, and its first read covers what came before.
        This node's own follower is woken only while its last follow was held back (see
        :meth:`wait_for_commits`). Notifications go at least ``NOTIFY_SPACING`` apart: the
        commits that come meanwhile are named by the next one.
        """
        conn: psycopg.Connection[Any] | None = None
        looked = -LISTENERS_SECONDS
        sent = -NOTIFY_SPACING
        while not self._closed:
            if self._notify_wanted.wait(LISTENERS_SECONDS):
                self._notify_wanted.clear()
            owed = self._owed
            if not owed:
                continue
            try:
                if conn is None or conn.closed:
                    conn = self.connect()
                    # A NOTIFY gives its transaction an id and a commit record: a wake-up
                    # need not wait for that record's flush.
                    conn.execute("SET synchronous_commit = off")
                    self._notify_pid = conn.info.backend_pid
                if time.monotonic() - looked >= LISTENERS_SECONDS:
                    name = LISTENING.format(self.schema)[:63]
                    row = conn.execute(_LISTENERS, {"pid": self._listen_pid, "name": name})
                    self._listened = bool(row.fetchone()[0])  # type: ignore[index]
                    looked = time.monotonic()
                if not self._listened and not self._held:
                    # The streams stay to be named (up to NAMED_STREAMS, then none is): a
                    # node that begins to listen may serve one of them, and a name too many
                    # costs it only a read.
                    if looked >= owed:  # a look since the commit found nobody: done
                        with self._conns_lock:
                            if self._owed == owed:
                                self._owed = 0.0
                    continue
                wait = sent + NOTIFY_SPACING - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                with self._conns_lock:
                    streams, self._notify_streams = self._notify_streams, set()
                    self._owed = 0.0
                conn.execute("SELECT pg_notify(%s, %s)", (self.channel, _payload(streams)))
                sent = time.monotonic()
            except (psycopg.Error, GamehallError):
                if conn is not None:
                    _shut(conn)
                conn = None
                time.sleep(min(self.poll, 0.5))
        if conn is not None:
            _shut(conn)

    def _append(
        self, db: psycopg.Connection[Any], batches: list[tuple[int, Encoded]], now: float
    ) -> tuple[list[int], list[int]]:
        """Append one round; return each batch's index (from 1) into the positions given,
        or its conflict (-1 - the stream's version), and the positions given."""
        for _, batch in batches:  # the entries it changes are no longer the ones kept
            if batch.info:
                self._entries.pop(batch.stream, None)
        row = db.execute(_APPEND, _append_args(batches, now)[0]).fetchone()
        assert row is not None
        return _appended(row[0], len(batches))

    def forget(self, stream: str) -> None:
        """Drop the listing entry kept for a match gone to rest."""
        self._entries.pop(stream, None)

    def release_memory(self) -> None:
        """Drop every listing entry kept (they are kept again as matches commit)."""
        self._entries = {}

    def _keep(self, made: list[Made], placed: list[Written | GamehallError]) -> None:
        """Keep the listing entries a commit sent (``made`` by :func:`_append_args`), not
        those of a conflict. Where the database merged instead (the entry had changed since),
        the entry kept is not the one stored, and the next change is merged there too."""
        for index, stream, entry in made:
            if isinstance(placed[index], Written):
                self._entries[stream] = entry
            else:
                self._entries.pop(stream, None)

    def overlapped(self, loop: asyncio.AbstractEventLoop) -> Overlapped | None:
        """The journal's commits on a connection of the loop's own (psycopg's asynchronous
        one): the append's arguments are built on the loop and the loop goes on while the
        database commits, with no thread that would need the GIL back to answer."""
        return None if self._closed else _Overlapped(self, loop)

    # -- reading ----------------------------------------------------------------------------

    def _decode(self, stream: str, rows: Sequence[tuple[Any, ...]]) -> list[Recorded]:
        codec = self.codec
        out = []
        for seq, position, at, tag, version, data, meta, crc in rows:
            check_row(stream, seq, tag, version, data, meta, crc)
            event = codec.decode_event(tag, version, data, stream, seq)
            envelope = codec.decode_meta(meta, stream, seq)
            out.append(Recorded(stream, seq, position, at, event, envelope))
        return out

    def _rows(self, query: str, args: Sequence[Any] | Mapping[str, Any]) -> list[tuple[Any, ...]]:
        local = self._local  # as ``reading()``, without a generator: this runs on every read
        depth = getattr(local, "depth", 0)
        local.depth = depth + 1
        try:
            return self._reader().execute(query, args, binary=True).fetchall()
        finally:
            local.depth = depth
            if not depth:
                self._give_back()

    @_db_errors
    def read(
        self, stream: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[Recorded]:
        """Return a slice of a stream, in seq order."""
        query = f"SELECT {_COLUMNS} FROM events WHERE stream = %s AND seq > %s"
        args: list[Any] = [stream, after]
        if upto is not None:
            query += " AND seq <= %s"
            args.append(upto)
        query += " ORDER BY seq"
        if limit is not None:
            query += " LIMIT %s"
            args.append(max(limit, 0))
        whole = upto is None and limit is None
        if whole:  # one statement: the rows and the version their last write recorded
            query = query.replace(
                f"SELECT {_COLUMNS} FROM",
                f"SELECT {_COLUMNS}, (SELECT version FROM streams WHERE stream = %s) FROM",
            )
            args.insert(0, stream)
        rows = self._rows(query, args)
        recorded = rows[0][-1] if whole and rows else None
        if whole:
            rows = [row[:-1] for row in rows]
        if rows:
            check_seqs(stream, (row[0] for row in rows), rows[0][0] - 1)
            check_recorded(stream, rows[-1][0], recorded)
        return self._decode(stream, rows)

    @_db_errors
    def read_events(self, stream: str, after: int = 0) -> list[Event]:
        """Return the events of a stream after ``after``, without envelopes."""
        rows = self._rows(
            "SELECT seq, type, v, data, meta, crc FROM events WHERE stream = %s AND seq > %s "
            "ORDER BY seq",
            (stream, after),
        )
        return self.codec.decode_events(checked_rows(stream, rows, after), stream)

    @_db_errors
    def load_stream(self, stream: str, after: int = 1, snapshot: bool = False) -> Loaded:
        """Read a match for activation in one query: its snapshot (when asked), the first
        event and those after the snapshot; of the rows before the snapshot their number and
        last seq (their command ids are left to :meth:`command_ids`), and without a snapshot
        the seq and command id of every row before ``after``."""
        rows = self._rows(_LOAD_STREAM, {"stream": stream, "after": after, "snap": snapshot})
        snap = None
        if rows and rows[0][0] == 1:
            after = rows[0][7]
            if rows[0][8] is not None:
                snap = Snapshot(stream, after, rows[0][8], rows[0][9])
        if snap is not None:
            count, end = rows[0][11]
            check_recorded(stream, max(rows[-1][0], end or 0), rows[0][10])
            if count == (end or 1) - 1:  # seqs 2 to ``end``, none missing
                return loaded(self.codec, stream, rows, [], after, snap, end or 1)
            marks = self._rows(_LOAD_MARKS, (stream, after))  # says which one is missing
            return loaded(self.codec, stream, rows, marks, after, snap)
        if rows and rows[0][0] == 1:
            check_recorded(stream, rows[-1][0], rows[0][10])
        split = bisect.bisect_right(rows, after, 1, key=lambda row: row[0]) if rows else 0
        marks = [(row[0], row[6]) for row in rows[1:split]]
        return loaded(self.codec, stream, rows[:1] + rows[split:], marks, after, snap)

    @_db_errors
    def read_all(self, after: int = 0, limit: int | None = None) -> list[Recorded]:
        """Return events of every stream in global order: (transaction id, position), only
        of transactions older than every one still running (see ``_FOLLOW``)."""
        query = f"SELECT stream, {_COLUMNS} FROM events WHERE {_FOLLOW} ORDER BY tx, position"
        args: dict[str, Any] = {"after": after, "mark": self._mark()}
        if limit is not None:
            query += " LIMIT %(limit)s"
            args["limit"] = max(limit, 0)
        out: list[Recorded] = []
        for stream, *row in self._rows(query, args):
            out.extend(self._decode(stream, [tuple(row)]))
        return out

    @_db_errors
    def version(self, stream: str) -> int:
        """Return the seq of a stream's last event."""
        rows = self._rows("SELECT max(seq) FROM events WHERE stream = %s", (stream,))
        return int(rows[0][0] or 0)

    @_db_errors
    def streams(self, after: str = "", limit: int | None = None) -> list[StreamInfo]:
        """Return streams in id order."""
        query = (
            "SELECT stream, version, created, updated, info FROM streams WHERE stream > %s "
            "ORDER BY stream"
        )
        args: list[Any] = [after]
        if limit is not None:
            query += " LIMIT %s"
            args.append(max(limit, 0))
        return [_info(*row) for row in self._rows(query, args)]

    @_db_errors
    def stream_info(self, stream: str) -> StreamInfo | None:
        """Return one stream's listing entry."""
        rows = self._rows(
            "SELECT stream, version, created, updated, info FROM streams WHERE stream = %s",
            (stream,),
        )
        return _info(*rows[0]) if rows else None

    @_db_errors
    def command_ids(self, stream: str) -> dict[str, tuple[int, int]]:
        """Return each command id of a stream with the seq range of its events."""
        rows = self._rows("SELECT seq, cmd FROM events WHERE stream = %s ORDER BY seq", (stream,))
        return command_ranges((seq, cmd) for seq, cmd in rows)

    def _mark(self) -> str:
        """Return the watermark (see ``_MARK``): taken again, up to twice, when it was a
        transaction that ended while it was taken."""
        for _ in range(3):
            mark, ended = self._rows(_MARK, ())[0]
            if not ended:
                break
        return str(mark)

    @_db_errors
    def position(self) -> int:
        """Return the position of the last event a follower can read now (0 for none): the
        last in global order of those settled, deleted ones included."""
        rows = self._rows(_LAST, {"mark": self._mark()})
        return int(rows[0][0]) if rows else 0

    @_db_errors
    def held_back(self) -> tuple[int, float]:
        """Return what the watermark costs now: how many committed events no follower can
        read yet, and for how many seconds the transaction holding them back has run (0 when
        none does)."""
        rows = self._rows(_HELD_BACK, ())
        return int(rows[0][0]), float(rows[0][1])

    def changes(self, after: int, limit: int = 10_000) -> tuple[int, dict[str, int]]:
        """Return the last position seen and each stream's last seq, of events after ``after``
        in global order (the position to pass next time)."""
        last, heads, _ = self.follow(after, limit)
        return last, heads

    @_db_errors
    def follow(self, after: int, limit: int = 10_000) -> tuple[int, dict[str, int], bool]:
        """Return :meth:`changes` and whether the page was full (more may follow at once),
        in one statement (``_CHANGES``): taken again, up to twice, when the watermark was a
        transaction that ended while it was taken. Whether it left committed rows behind is
        kept for :meth:`wait_for_commits`."""
        args = {"after": after, "limit": limit}
        for _ in range(3):
            last, count, streams, seqs, held, ended = self._rows(_CHANGES, args)[0]
            if not ended:
                break
        self._held = bool(held)
        heads = dict(zip(streams, seqs, strict=True)) if count else {}
        return (int(last) if count else after), heads, count >= limit

    # -- the lobby --------------------------------------------------------------------------

    def _writing(self) -> psycopg.Connection[Any]:
        db = self._writer
        if db is None or db.closed:
            db = self._writer = self.connect()
        return db

    @_db_errors
    def find_matches(self, query: MatchQuery) -> MatchPage:
        """Filter on the indexed columns, newest first, one page at a time."""
        start = check_query(query)
        filters, args = match_filters(query, "%s")
        total = self._rows(f"SELECT count(*) FROM streams WHERE {filters}", args)[0][0]
        page_args = list(args)
        if start is not None:
            filters += ' AND (created < %s OR (created = %s AND stream COLLATE "C" < %s))'
            page_args += [start[0], start[0], start[1]]
        rows = self._rows(
            f"SELECT stream, version, created, updated, info FROM streams WHERE {filters} "
            'ORDER BY created DESC, stream COLLATE "C" DESC LIMIT %s',
            [*page_args, query.limit + 1],
        )
        return page_of([_info(*row) for row in rows], int(total), query)

    @_db_errors
    def due_matches(
        self, before: float, after: Due | None = None, limit: int = MAX_PAGE
    ) -> list[Due]:
        """Return the timed matches whose next expiry is at or before ``before``, earliest
        first, from the deadline index."""
        query = "SELECT stream, deadline FROM streams WHERE deadline <= %s"
        args: list[Any] = [before]
        if after is not None:
            query += ' AND (deadline, stream COLLATE "C") > (%s, %s)'
            args += [after.deadline, after.stream]
        query += ' ORDER BY deadline, stream COLLATE "C" LIMIT %s'
        rows = self._rows(query, [*args, max(limit, 0)])
        return [Due(stream, float(deadline)) for stream, deadline in rows]

    @_db_errors
    def delete_stream(self, stream: str) -> bool:
        """Delete a stream's rows; keep its positions as deleted ones, never given again."""
        self._check_writable()
        self._entries.pop(stream, None)
        with self._lock:
            db = self._writing()
            with db.transaction():
                found = db.execute(
                    "SELECT 1 FROM streams WHERE stream = %s FOR UPDATE", (stream,)
                ).fetchone()
                rows = db.execute(
                    "SELECT position, tx::text FROM events WHERE stream = %s ORDER BY position",
                    (stream,),
                ).fetchall()
                positions = [int(position) for position, _ in rows]
                with db.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO deleted (first, last, tx) VALUES (%s, %s, %s::xid8)",
                        _tx_ranges(rows),
                    )
                for table in ("events", "streams", "snapshots", "stream_players", "seat_tokens"):
                    db.execute(
                        sql.SQL("DELETE FROM {} WHERE stream = %s").format(sql.Identifier(table)),
                        (stream,),
                    )
        return found is not None or bool(positions)

    @_db_errors
    def put_entry(self, stream: str, info: Mapping[str, Any], version: int) -> bool:
        """Replace a stream's listing entry if it is still at ``version`` (one transaction)."""
        self._check_writable()
        self._entries.pop(stream, None)
        with self._lock:
            db = self._writing()
            with db.transaction():
                row = db.execute(
                    "SELECT version FROM streams WHERE stream = %s FOR UPDATE", (stream,)
                ).fetchone()
                if row is None or int(row[0]) != version:
                    return False
                _set_info(db, stream, info)
        return True

    @_db_errors
    def seat_tokens(self, stream: str) -> dict[int, bytes]:
        """Return the digest of each seat's token."""
        rows = self._rows("SELECT seat, digest FROM seat_tokens WHERE stream = %s", (stream,))
        return {int(seat): bytes(digest) for seat, digest in rows}

    @_db_errors
    def deleted_positions(self) -> list[tuple[int, int]]:
        """Return the deleted position ranges."""
        out: list[tuple[int, int]] = []
        for first, last in self._rows("SELECT first, last FROM deleted ORDER BY first", ()):
            if out and out[-1][1] + 1 == first:  # one deletion's runs of transactions
                out[-1] = (out[-1][0], int(last))
            else:
                out.append((int(first), int(last)))
        return out

    @_db_errors
    def save_player(self, player: PlayerRecord) -> None:
        """Insert or replace a player."""
        self._check_writable()
        try:
            self._reader().execute(
                "INSERT INTO players VALUES (%s, %s, %s, %s) ON CONFLICT (id) DO UPDATE "
                "SET digest = excluded.digest, name = excluded.name",
                (player.id, player.digest, player.name, player.created),
            )
        except psycopg.errors.UniqueViolation:
            raise GamehallError("another player already has this token") from None

    @_db_errors
    def player(self, player_id: str) -> PlayerRecord | None:
        """Return a player by id."""
        rows = self._rows(
            "SELECT id, digest, name, created FROM players WHERE id = %s", (player_id,)
        )
        return _player(rows[0]) if rows else None

    @_db_errors
    def player_by_digest(self, digest: bytes) -> PlayerRecord | None:
        """Return a player by token digest."""
        rows = self._rows(
            "SELECT id, digest, name, created FROM players WHERE digest = %s", (digest,)
        )
        return _player(rows[0]) if rows else None

    # -- snapshots --------------------------------------------------------------------------

    @_db_errors
    def save_snapshot(self, snapshot: Snapshot) -> None:
        """Replace a stream's snapshot."""
        self._check_writable()
        self._reader().execute(
            "INSERT INTO snapshots VALUES (%s, %s, %s, %s) ON CONFLICT (stream) DO UPDATE "
            "SET seq = excluded.seq, key = excluded.key, data = excluded.data",
            (snapshot.stream, snapshot.seq, snapshot.key, snapshot.data),
        )

    @_db_errors
    def load_snapshot(self, stream: str) -> Snapshot | None:
        """Return a stream's snapshot."""
        rows = self._rows("SELECT seq, key, data FROM snapshots WHERE stream = %s", (stream,))
        return Snapshot(stream, rows[0][0], rows[0][1], rows[0][2]) if rows else None

    # -- notifications ----------------------------------------------------------------------

    def wait_for_commits(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for another node's commit; tell whether one was
        notified.

        This node's own notifications are passed over: its actors hold what it wrote, and
        following them cost every commit a read. They wake it only while its last follow left
        committed rows held back by the watermark (a transaction of this node may be what holds
        them). Passing them over skips no event: the follower reads from its position, at the
        next commit of another node or the next poll. Blocking: call it from a worker thread. A
        lost listening connection is made again on the next call, and the caller's polling
        covers the time in between.
        """
        try:
            if self._listener is None or self._listener.closed:
                self._listener = self.connect(name=LISTENING)
                self._listener.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                self._listen_pid = self._listener.info.backend_pid
            heard = False
            deadline = time.monotonic() + timeout
            while not heard and (left := deadline - time.monotonic()) > 0:
                notes = list(self._listener.notifies(timeout=left, stop_after=1))
                if not notes:
                    break
                held = self._held
                for note in notes:
                    if note.pid != self._notify_pid or held:
                        heard = True
                        self._hear(note.payload)
            if self._closed:  # closed while this thread waited: the connection is its own
                _shut(self._listener)
            return heard
        except (psycopg.Error, GamehallError):
            if self._listener is not None:
                _shut(self._listener)
            self._listener = None
            if not self._closed:
                time.sleep(min(timeout, self.poll))
            return False

    def _hear(self, payload: str) -> None:
        with self._conns_lock:
            if not payload:  # named no stream: any may have changed
                self._heard = None
            elif self._heard is not None:
                self._heard.update(payload.split("\n"))

    def heard_streams(self) -> set[str] | None:
        """Return the streams the notifications heard since the last call named (and forget
        them); ``None`` when one named none (any stream may have changed) or the last follow
        was held back by the watermark (it is to be read again whatever was named)."""
        with self._conns_lock:
            heard, self._heard = self._heard, set()
        return None if self._held else heard

    # -- leases -----------------------------------------------------------------------------

    def try_lease(self, match: str) -> bool:
        """Take the lease of a match for this node if it is free; tell whether it is ours."""
        with self._lease_lock:
            if match in self._leases:
                return True
            if self._closed:
                return False
            try:
                if self._lease_conn is None or self._lease_conn.closed:
                    self._leases.clear()  # the locks went with the old connection
                    self._lease_conn = self.connect()
                row = self._lease_conn.execute(
                    f"SELECT pg_try_advisory_lock({LEASE_KEY})", (self.schema, match)
                ).fetchone()
            except (psycopg.Error, GamehallError):
                if self._lease_conn is not None:
                    _shut(self._lease_conn)
                self._lease_conn = None
                self._leases.clear()
                return False
            if row and row[0]:
                self._leases.add(match)
                return True
            return False

    def release_lease(self, match: str) -> None:
        """Give up a match's lease (its actor stopped here)."""
        with self._lease_lock:
            if match not in self._leases:
                return
            self._leases.discard(match)
            try:
                if self._lease_conn is not None and not self._lease_conn.closed:
                    self._lease_conn.execute(
                        f"SELECT pg_advisory_unlock({LEASE_KEY})", (self.schema, match)
                    )
            except psycopg.Error:
                self._lease_conn = None

    @property
    def leases(self) -> int:
        """Return how many match leases this node holds."""
        return len(self._leases)

    # -- checks -----------------------------------------------------------------------------

    def raw_rows(self) -> Iterator[RawRow]:
        """Yield every row undecoded, in (stream, seq) order."""
        conn = self.connect(autocommit=False)
        try:
            with conn.cursor(name="gamehall_check") as cursor:
                cursor.itersize = 2000
                cursor.execute(
                    "SELECT stream, seq, position, type, v, data, meta, crc FROM events "
                    "ORDER BY stream, seq"
                )
                for row in cursor:
                    yield RawRow(*row)
        except psycopg.Error as exc:
            raise self.failure(exc) from None
        finally:
            _shut(conn)

    def check(self, progress: Callable[[int], None] | None = None) -> list[Problem]:
        """Check every row and the event chains. Positions that no row holds and none was
        deleted from are not reported: an append that rolled back (a lost connection, a
        conflict found at its insert) had taken them from the sequence, which gives none back.
        """
        try:
            holes = [(int(a), int(b)) for a, b in self._rows(_HOLES, ())]
            return check_rows(
                self.codec, self.raw_rows(), progress, self.deleted_positions() + holes
            )
        except psycopg.Error as exc:
            return [Problem(None, None, f"reading the store failed: {_first_line(exc)}")]

    def drop_schema(self) -> None:
        """Remove the store's schema and everything in it (for tests and teardown)."""
        db = self.connect()
        try:
            db.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(self._schema_name))
        finally:
            _shut(db)

    def close(self) -> None:
        """Close every connection (which also gives up every lease)."""
        if self._closed:
            return
        self._closed = True
        self._notify_wanted.set()  # the notifier wakes, sees the store closed and ends
        with self._conns_lock:
            conns, self._conns = self._conns, []
        for conn in conns:  # readers inside a statement too: it is cancelled first
            # The listening connection, while a thread waits on it for notifications, is that
            # thread's to close when its wait ends (it looks for the store closed then):
            # waiting for it here held every close up for a follower's poll, 0.1-0.2 s.
            _shut(conn, 0 if conn is self._listener else CLOSE_WAIT)
        # Connections still lent are closed by the pool when they are given back.
        self._pool.close(timeout=1.0)


class _Overlapped:
    """A PostgreSQL store's commits for the journal, on a connection of the journal's own
    driven from the event loop (see :class:`~gamehall.core.store.base.Overlapped`).

    The append's arguments are built on the loop and sent at once through libpq's
    non-blocking calls (``send_query_params``), and the loop's watch on the socket takes the
    answer: no thread that would need the GIL back to answer, and no task between the call
    and the wire (a task's first step waits for every callback the loop has ready, about a
    millisecond a commit here). The connection is made in a worker thread; until it is there
    (and after one is lost) commits go through :meth:`PostgresStore.write`.
    """

    def __init__(self, store: PostgresStore, loop: asyncio.AbstractEventLoop) -> None:
        self._store, self._loop = store, loop
        self._conn: psycopg.Connection[Any] | None = None
        self._fd = -1
        self._connecting: asyncio.Future[psycopg.Connection[Any]] | None = None
        self._landed: (
            tuple[
                asyncio.Future[list[Written | GamehallError] | None],
                Sequence[Encoded | GamehallError],
                list[list[tuple[int, Encoded]]],
                float,
                list[Made],
            ]
            | None
        ) = None
        self._closed = False

    async def open(self) -> None:
        """Connect before the first commit (a failure leaves it to the next ``start``)."""
        self._connect()
        if self._connecting is not None:
            await asyncio.wait([self._connecting])

    def _connect(self) -> None:
        if self._connecting is not None or self._closed or self._store._closed:
            return
        name = "gamehall {} journal"
        self._connecting = self._loop.run_in_executor(None, self._store.connect, True, name)
        self._connecting.add_done_callback(self._connected)

    def _connected(self, made: asyncio.Future[psycopg.Connection[Any]]) -> None:
        self._connecting = None
        if made.cancelled() or made.exception() is not None:
            return  # the store is unreachable: write() says so, and the next start tries again
        conn = made.result()
        if self._closed:
            conn.close()
            return
        conn.pgconn.nonblocking = 1
        self._conn, self._fd = conn, conn.pgconn.socket
        self._store._journal_conn = conn
        self._loop.add_reader(self._fd, self._readable)

    def start(
        self, encoded: Sequence[Encoded | GamehallError]
    ) -> asyncio.Future[list[Written | GamehallError] | None] | None:
        store, conn = self._store, self._conn
        if store._closed or self._landed is not None:
            return None
        if conn is None or conn.closed:
            self._lost()
            self._connect()
            return None
        rounds = _rounds(encoded)
        if len(rounds) != 1:  # a stream twice: write() runs the calls in one transaction
            return None
        now = time.time()
        future: asyncio.Future[list[Written | GamehallError] | None] = self._loop.create_future()
        try:
            args, made = _append_args(rounds[0], now, store._entries, _BINARY)
            values = [_wire(a) for a in args]
        except UnicodeEncodeError as exc:
            future.set_exception(store._not_utf8(exc))
            return future
        except OverflowError:  # a number past its column: the server says which, as text
            return None
        pgconn = conn.pgconn
        try:
            pgconn.send_query_params(_APPEND_WIRE, values, None, _BINARY_ROWS if _BINARY else None)
            if pgconn.flush():  # more than the socket took: the rest when it can take it
                self._loop.add_writer(self._fd, self._writable)
        except psycopg.Error as exc:
            self._lost()
            future.set_exception(store._commit_failed(exc, True))
            return future
        self._landed = (future, encoded, rounds, now, made)
        return future

    def _writable(self) -> None:
        conn = self._conn
        try:
            if conn is None or not conn.pgconn.flush():
                self._loop.remove_writer(self._fd)
        except psycopg.Error as exc:
            self._failed(exc, True)

    def _readable(self) -> None:
        conn = self._conn
        if conn is None:
            return
        pgconn = conn.pgconn
        try:
            pgconn.consume_input()
            if pgconn.is_busy():
                return
            results = []
            while (result := pgconn.get_result()) is not None:
                results.append(result)
        except psycopg.Error as exc:  # the connection is gone
            self._failed(exc, True)
            return
        if self._landed is None:
            return  # nothing asked (a notice)
        (future, encoded, rounds, now, made), self._landed = self._landed, None
        if future.done():
            return
        answer = results[0] if results else None
        if answer is None or answer.status != pq.ExecStatus.TUPLES_OK:
            message = "no answer" if answer is None else answer.get_error_message()
            state = None if answer is None else answer.error_field(pq.DiagnosticField.SQLSTATE)
            kind = psycopg.errors.lookup(state.decode()) if state else psycopg.Error
            lost = issubclass(kind, psycopg.OperationalError) or pgconn.status == pq.ConnStatus.BAD
            if lost:
                self._lost()
            future.set_exception(self._store._commit_failed(kind(message), lost))
            return
        value = answer.get_value(0, 0) or b"{}"
        found = [int(n) for n in value[1:-1].split(b",")] if len(value) > 2 else []
        placed = self._store._placed(encoded, rounds, [_appended(found, len(rounds[0]))], now)
        self._store._keep(made, placed)
        future.set_result(placed)

    def _failed(self, exc: psycopg.Error, lost: bool) -> None:
        landed, self._landed = self._landed, None
        self._lost()
        if landed is not None and not landed[0].done():
            landed[0].set_exception(self._store._commit_failed(exc, lost))

    def _lost(self) -> None:
        """Let go of the connection (lost, or the journal ends)."""
        conn, self._conn = self._conn, None
        if conn is None:
            return
        self._loop.remove_reader(self._fd)
        self._loop.remove_writer(self._fd)
        if self._store._journal_conn is conn:
            self._store._journal_conn = None
        if not conn.closed:
            conn.close()

    def close(self) -> None:
        self._closed = True
        self._failed(psycopg.OperationalError("the journal stopped"), True)


def _shut(conn: psycopg.Connection[Any], wait: float = CLOSE_WAIT) -> None:
    """Close a connection that another thread may be using.

    psycopg's ``close`` frees the connection at once, even while another thread is inside a
    statement on it (a crash, not an error). So a running statement is cancelled first, and
    the connection is closed under its own lock, which every statement and wait holds; a
    thread that keeps it past ``wait`` seconds keeps it, and finds the store closed next time.
    """
    if conn.closed:
        return
    if conn.info.transaction_status == psycopg.pq.TransactionStatus.ACTIVE:
        try:
            conn.cancel_safe(timeout=CLOSE_WAIT)
        except (psycopg.Error, OSError):
            pass
    if not (conn.lock.acquire(timeout=wait) if wait > 0 else conn.lock.acquire(False)):
        return
    try:
        conn.close()
    except psycopg.Error:
        pass
    finally:
        conn.lock.release()


def _numbers(values: Sequence[int]) -> str:
    return "{" + ",".join(map(str, values)) + "}"


def _deadlines(values: Sequence[float | None | msgspec.UnsetType]) -> str:
    """Return the deadlines of a group commit as an array literal: NaN for one left as it is."""
    shown = ("NULL" if v is None else "NaN" if v is msgspec.UNSET else repr(v) for v in values)
    return "{" + ",".join(shown) + "}"


def _payload(streams: set[str] | None) -> str:
    """Return a notification's payload: the streams it names, a line each, or nothing (any
    stream) when they are too many or one holds a line break."""
    if streams is None or len(streams) > NAMED_STREAMS:
        return ""
    payload = "\n".join(streams)
    if len(payload) > 7_900 or payload.count("\n") != len(streams) - 1:
        return ""
    return payload


def _texts(values: Sequence[str | None]) -> str:
    return "{" + ",".join("NULL" if v is None else _quoted(v) for v in values) + "}"


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _blobs(values: Sequence[bytes | None]) -> str:
    return "{" + ",".join("NULL" if v is None else '"\\\\x' + v.hex() + '"' for v in values) + "}"


def _tx_ranges(rows: Sequence[tuple[int, str]]) -> list[tuple[int, int, str]]:
    """Return (first, last, transaction id) of each run of positions one transaction wrote."""
    out: list[tuple[int, int, str]] = []
    for position, tx in rows:
        if out and out[-1][1] == position - 1 and out[-1][2] == tx:
            out[-1] = (out[-1][0], position, tx)
        else:
            out.append((position, position, tx))
    return out


def _info(stream: str, version: int, created: float, updated: float, info: Any) -> StreamInfo:
    return StreamInfo(stream, version, created, updated, _decoded(info))


def _decoded(info: Any) -> dict[str, Any]:
    decoded: dict[str, Any] = msgspec.msgpack.decode(bytes(info)) if info else {}
    return decoded


def _player(row: Sequence[Any]) -> PlayerRecord:
    return PlayerRecord(row[0], bytes(row[1]), row[2], row[3])


def _fill_deadlines(db: psycopg.Connection[Any], codec: Codec) -> None:
    """Record the next clock expiry of each running timed match of an older schema."""

    def earlier(stream: str, seq: int) -> Iterator[tuple[int, Any]]:
        yield from db.execute(
            "SELECT seq, meta FROM events WHERE stream = %s AND seq < %s ORDER BY seq DESC",
            (stream, seq),
        )

    found = [
        (deadline, stream)
        for stream, info, seq, meta in db.execute(LAST_METAS).fetchall()
        if (deadline := stored_deadline(codec, stream, info, seq, meta, earlier)) is not None
    ]
    if found:
        with db.cursor() as cursor:
            cursor.executemany("UPDATE streams SET deadline = %s WHERE stream = %s", found)


def _set_info(db: psycopg.Connection[Any], stream: str, info: Mapping[str, Any]) -> None:
    """Write a stream's info with its indexed columns (inside the caller's transaction)."""
    game, finished, open_seats, players = listed(info)
    db.execute(
        "UPDATE streams SET info = %s, game = %s, finished = %s, open_seats = %s WHERE stream = %s",
        (msgspec.msgpack.encode(dict(info)), game, finished, open_seats, stream),
    )
    db.execute("DELETE FROM stream_players WHERE stream = %s", (stream,))
    if players:
        with db.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO stream_players VALUES (%s, %s)", [(p, stream) for p in players]
            )


class _Listing:
    """The listing part of a group commit of ``n`` batches, as the arrays ``gamehall_append``
    takes: for each batch the indexed columns it sets (all of them for a created stream), the
    changes merged into a later batch's info (encoded key, and key and value; ``None`` for a
    key removed), the player ids of each batch that sets them, and the seat tokens. A batch
    never :meth:`add`-ed changes nothing (most: a command's events alone)."""

    BITS = {"game": 1, "finished": 2, "open_seats": 4, "seat_players": 8}

    def __init__(self, n: int) -> None:
        self.added = False
        self.mask: list[int] = [0] * n
        self.game: list[str | None] = [None] * n
        self.finished: list[str] = ["f"] * n
        self.open: list[int] = [0] * n
        self.k_batch: list[int] = []
        self.k_key: list[bytes] = []
        self.k_pair: list[bytes | None] = []
        self.p_batch: list[int] = []
        self.p_player: list[str] = []
        self.t_batch: list[int] = []
        self.t_seat: list[int] = []
        self.t_digest: list[bytes] = []

    def add(self, number: int, batch: Encoded) -> None:
        """Add the listing of the ``number``th batch (from 1) of the call."""
        self.added = True
        encode = msgspec.msgpack.encode
        changes: Mapping[str, Any] = batch.info or {}
        if batch.expected == 0:
            mask = 15
        else:
            mask = sum(bit for key, bit in self.BITS.items() if key in changes)
            for key, value in changes.items():
                self.k_batch.append(number)
                self.k_key.append(encode(key))
                self.k_pair.append(None if value is None else encode(key) + encode(value))
        game, finished, open_seats, players = listed({key: changes.get(key) for key in self.BITS})
        at = number - 1
        self.mask[at] = mask
        self.game[at] = game
        self.finished[at] = "t" if finished else "f"
        self.open[at] = open_seats
        if mask & 8:
            self.p_batch.extend([number] * len(players))
            self.p_player.extend(players)
        for seat, digest in batch.tokens:
            self.t_batch.append(number)
            self.t_seat.append(seat)
            self.t_digest.append(digest)

    def arrays(self) -> tuple[str, ...]:
        """Return the array literals, in the order of the function's arguments."""
        if not self.added:  # most group commits: every batch a command's events alone,
            return ("{}",) * 12  # which the append takes as empty arrays
        return (
            _numbers(self.mask), _texts(self.game), "{" + ",".join(self.finished) + "}",
            _numbers(self.open), _numbers(self.k_batch), _blobs(self.k_key),
            _blobs(self.k_pair), _numbers(self.p_batch), _texts(self.p_player),
            _numbers(self.t_batch), _numbers(self.t_seat), _blobs(self.t_digest),
        )  # fmt: skip


_APPEND = (
    "SELECT gamehall_append(%s::text[], %s::bigint[], %s::integer[], %s::bytea[], %s, "
    "%s::integer[], %s::integer[], %s::text[], %s::integer[], %s::bytea[], %s::bytea[], "
    "%s::text[], %s::bigint[], %s::integer[], %s::text[], %s::boolean[], %s::integer[], "
    "%s::integer[], %s::bytea[], %s::bytea[], %s::integer[], %s::text[], "
    "%s::integer[], %s::integer[], %s::bytea[], %s::double precision[], %s::bytea[])"
)


# The same call as libpq takes it: numbered parameters, sent as text.
_APPEND_WIRE = "".join(
    f"{part}${n}" if n < _APPEND.count("%s") + 1 else part
    for n, part in enumerate(_APPEND.split("%s"), 1)
).encode()
# The formats of its parameters where the batches' own arrays go binary (1): those
# ``_rowcheck.append_arrays(batches, True)`` builds; the server reads them without parsing
# text or decoding hex, 2-3 µs a batch of its time (bench/README.md).
_BINARY_ROWS = [1 if n in (0, 1, 2, 5, 6, 7, 8, 9, 10, 11, 12, 25) else 0 for n in range(27)]
_BINARY = fast_row_arrays is not None  # only the C module writes them


def _wire(value: Any) -> bytes:
    """A parameter of the append as libpq sends it: binary as it is, else its text."""
    if isinstance(value, bytes):
        return value
    return (value if isinstance(value, str) else repr(value)).encode()


def _append_args(
    batches: list[tuple[int, Encoded]],
    now: float,
    entries: Mapping[str, Entry] | None = None,
    binary: bool = False,
) -> tuple[tuple[Any, ...], list[Made]]:
    """The arguments of one call of ``gamehall_append`` (_APPEND) for a round of batches, and
    the listing entries it stores (index of the batch, stream, entry) where they are known:
    a created stream's, and a later batch's whose stream has its last entry in ``entries``
    (merged here into the whole entry the call stores where the entry is still that one).
    With ``binary`` (where ``_rowcheck`` was built: ``_BINARY``), the batches' own arrays are in
    PostgreSQL's binary format (bytes, sent with the formats of ``_BINARY_ROWS``); else array
    literals."""
    n = len(batches)
    infos: list[bytes | None] = [None] * n
    was: list[bytes | None] = [None] * n
    made: list[Made] = []
    listing = _Listing(n)
    for number, (index, batch) in enumerate(batches, 1):
        if batch.expected and not batch.info and not batch.tokens:
            continue  # most: a command's events, which change no listing
        listing.add(number, batch)
        entry: Entry | None = None
        if batch.expected == 0:
            info = dict(batch.info or {})
            entry = (msgspec.msgpack.encode(info), info)
        elif batch.info and entries is not None and (kept := entries.get(batch.stream)):
            was[number - 1] = kept[0]
            info = merged(kept[1], batch.info)
            entry = (msgspec.msgpack.encode(info), info)
        if entry is not None and entries is not None:
            made.append((index, batch.stream, entry))
        infos[number - 1] = None if entry is None else entry[0]
    # Array literals built here, not by psycopg, which dumps a list element by element in
    # Python (two thirds of a group commit); the rows' arrays in C where it is built.
    if binary and fast_row_arrays is not None:
        arrays = fast_row_arrays(batches, True)
    else:
        arrays = (fast_row_arrays or row_arrays)(batches)
    (streams, expected, counts, r_batch, r_k, types, versions, datas, metas, cmds, crcs,
     deadlines) = arrays  # fmt: skip
    changed = listing.added  # else no entry either: the append takes them empty
    return (streams, expected, counts, _blobs(infos) if changed else "{}", now, r_batch, r_k,
            types, versions, datas, metas, cmds, crcs, *listing.arrays(), deadlines,
            _blobs(was) if changed else "{}"), made  # fmt: skip


def row_arrays(batches: Sequence[tuple[int, Encoded]]) -> tuple[str, ...]:
    """The batches' own array literals of a call of ``gamehall_append``: streams, expected
    versions, row counts, then each row's batch number, place in its batch, type, version,
    payload, metadata, command mark and checksum, and the batches' deadlines (what
    ``_rowcheck.append_arrays`` builds in C, text for text)."""
    streams, expected, counts, r_batch, r_k, types, versions, datas, metas, cmds, crcs = (
        [], [], [], [], [], [], [], [], [], [], []
    )  # fmt: skip
    deadlines: list[float | None | msgspec.UnsetType] = []
    for number, (_, batch) in enumerate(batches, 1):
        streams.append(batch.stream)
        expected.append(batch.expected)
        counts.append(len(batch.rows))
        deadlines.append(batch.deadline)
        for k, (tag, version, data, meta, mark, crc) in enumerate(batch.rows, 1):
            r_batch.append(number)
            r_k.append(k)
            types.append(tag)
            versions.append(version)
            datas.append(data)
            metas.append(meta)
            cmds.append(mark)
            crcs.append(crc)
    return (_texts(streams), _numbers(expected), _numbers(counts), _numbers(r_batch),
            _numbers(r_k), _texts(types), _numbers(versions), _blobs(datas), _blobs(metas),
            _texts(cmds), _numbers(crcs), _deadlines(deadlines))  # fmt: skip


def _appended(answer: Sequence[int], batches: int) -> tuple[list[int], list[int]]:
    """Each batch's index into the positions (or its conflict), and the positions given."""
    out = list(answer)
    return out[:batches], out[batches:]


def _rounds(encoded: Sequence[Encoded | GamehallError]) -> list[list[tuple[int, Encoded]]]:
    """Split batches into calls in which each stream appears once (almost always one call)."""
    rounds: list[list[tuple[int, Encoded]]] = [[]]
    seen: list[set[str]] = [set()]
    for index, batch in enumerate(encoded):
        if isinstance(batch, GamehallError):
            continue
        level = 0
        while batch.stream in seen[level]:
            level += 1
            if level == len(rounds):
                rounds.append([])
                seen.append(set())
        rounds[level].append((index, batch))
        seen[level].add(batch.stream)
    return [r for r in rounds if r] or [[]]
