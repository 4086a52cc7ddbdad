"""The benchmark's yardstick replays the SQL of a real move: built from recorded statements, and runnable by
pgbench against the statements the current code executes (its figures are not asserted)."""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
from pathlib import Path

from servers import postgres_url, redis_url, server_unavailable

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import yardstick  # noqa: E402  (a benchmark script, not a package)
from yardstick import Recorded  # noqa: E402

LOCK = (
    "SELECT campaigns.id FROM campaigns WHERE campaigns.token = $1::VARCHAR AND campaigns.id = $2::VARCHAR FOR UPDATE"
)
COUNTERS = (
    "UPDATE campaigns SET last_seq=$1::INTEGER, table_version=$2::INTEGER, table_token=$3::VARCHAR "
    "WHERE campaigns.id = $4::VARCHAR"
)
EVENTS = (
    "INSERT INTO events (campaign_id, seq, data, actor_player_id, created_at) VALUES ($1::VARCHAR, "
    "$2::INTEGER, $3::JSON, $4::VARCHAR, $5::TIMESTAMP WITH TIME ZONE)"
)


def _move(last_seq: int, version: int, tag: str, payload: str) -> list[Recorded]:
    when = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(seconds=version)
    return [
        Recorded("-- counters", [(last_seq, version)]),
        Recorded(LOCK, [("hash-a", "camp-a")]),
        Recorded(COUNTERS, [(last_seq + 2, version + 1, tag, "camp-a")]),
        Recorded(
            EVENTS, [("camp-a", last_seq + 1, payload, None, when), ("camp-a", last_seq + 2, '{"x": 1}', None, when)]
        ),
    ]


def test_the_replay_derives_seqs_from_the_row_it_locks_and_takes_ids_per_client():
    moves = [_move(5, 3, "aaaa", '{"t": 1}'), _move(7, 4, "bbbb", '{"t": 2}'), _move(9, 5, "cccc", '{"t": 3}')]
    script = yardstick.build(moves, {"cid": "camp-a", "th": "hash-a"})
    text = script.text
    # The lock is the first statement in the transaction, its row kept for the counters.
    assert text.index("BEGIN;") < text.index("FOR UPDATE \\gset r_") < text.index("COMMIT;")
    assert "campaigns.token = :th::VARCHAR AND campaigns.id = :cid::VARCHAR" in text
    # Seqs and versions: offsets from what the replay locked, as the service computes them.
    assert "\\set p1_0_0 :r_last_seq + 2" in text and "\\set p1_0_1 :r_table_version + 1" in text
    assert "\\set p2_0_1 :r_last_seq + 1" in text and "\\set p2_1_1 :r_last_seq + 2" in text
    # A tag that changed every move must not repeat: a fresh random value per transaction.
    assert "\\set p1_0_2 random(" in text
    # The rows of one executemany go in one pipeline, as the driver sends them; a None stays NULL.
    assert text.index("\\startpipeline") < text.index("INSERT INTO events") < text.index("\\endpipeline")
    assert "NULL::VARCHAR" in text
    # What stayed the same is a constant; a payload that changed keeps the first move's value and size.
    assert script.constants["p2_1_2"] == '{"x": 1}' and script.constants["p2_0_2"] == '{"t": 1}'
    assert script.statements == 3


def test_moves_that_executed_different_statements_are_refused():
    other = _move(7, 4, "bbbb", '{"t": 2}')
    other[2] = Recorded(COUNTERS.replace("table_token", "status"), other[2].rows)
    try:
        yardstick.build([_move(5, 3, "aaaa", "{}"), other, _move(9, 5, "c", "{}")], {"cid": "camp-a"})
    except SystemExit as exc:
        assert "different statements" in str(exc)
    else:
        raise AssertionError("different recordings were accepted")


def test_the_yardstick_records_a_real_move_and_pgbench_replays_it():
    if not yardstick.have_pgbench():
        server_unavailable("pgbench", yardstick.PGBENCH_INSTALL)
    code = (
        "import sys, tempfile, argparse; sys.path.insert(0, 'benchmarks'); import bench; r = bench.Run(); "
        "a = argparse.Namespace(tables=2, seconds=1)\n"
        "with tempfile.TemporaryDirectory() as tmp: bench.measure_yardstick(r, tmp, a)\n"
        "print(sorted(r.yardstick), [y.transactions > 0 and y.failed == 0 for y in r.yardstick.values()])\n"
        "print(r.yardstick_script)"
    )
    env = {**os.environ, "TEST_DATABASE_URL": postgres_url(), "TEST_REDIS_URL": redis_url()}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
    if out.returncode != 0 and "could not connect" in (out.stderr + out.stdout).lower():
        server_unavailable("postgres", out.stderr[-500:])
    assert out.returncode == 0, out.stderr[-3000:] + out.stdout[-2000:]
    assert "a move's SQL, 2 campaigns" in out.stdout and "a move's SQL, one campaign" in out.stdout
    assert "[False, True] [True, True]" in out.stdout
    # The move's own statements, whichever way the service sends them: the lock first, then its rows.
    script = out.stdout.split("BEGIN;", 1)[1]
    assert script.index("FOR UPDATE") < script.index("INSERT INTO events") < script.index("COMMIT;")
    assert "INSERT INTO moves" in script
