"""The database doing a move's work: the statements one real move executes on PostgreSQL, captured from the
service and replayed by `pgbench`, so each write scenario can be read as a fraction of its own SQL.

How the script is made, not hand-copied: an in-process service on a database of its own plays the same move
three times on one table while SQLAlchemy's `before_cursor_execute` records every statement and its
parameters. The three recordings must have the same statements; each parameter is then classified by how it
changed from move to move:

- the same every time: a constant (passed as a pgbench variable, so the statement stays prepared with
  parameters, as the service's is);
- the campaign's id, the token's hash, the character's id: that client's own campaign's, looked up once
  per client (`-c 32` clients over N campaigns, client i on campaign i mod N);
- an integer that kept a fixed offset from the campaign's `last_seq` or `table_version` read under the row
  lock: that offset from the values the replay reads under its own lock (the first statement is the locking
  one; its row is kept with `\\gset`), so seqs and versions stay unique as the service's do;
- anything else that changed (a random tag, a request id, a timestamp, an event's payload): a fresh random
  number where the column is text (tags and ids must not repeat), else the first move's value.

Each move is one transaction (`BEGIN` ... `COMMIT`, as the service's session opens and commits it); a
statement run with several parameter rows (`executemany`: the events) is replayed as a pipeline of those
rows, one round trip as asyncpg sends it. pgbench runs in prepared mode: statements are prepared once per
connection. It keeps a per-transaction latency log, read here for p50 and p99.
"""

from __future__ import annotations

import datetime
import glob
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

PGBENCH_INSTALL = "install pgbench for the yardstick: apt-get install postgresql-contrib (Debian/Ubuntu)"
MOVES = 3  # recorded moves: two to tell what changes, a third to confirm it changes the same way


def have_pgbench() -> bool:
    return shutil.which("pgbench") is not None


@dataclass
class Recorded:
    text: str
    rows: list[tuple[Any, ...]]  # one tuple per execution (several for executemany)


@dataclass
class Script:
    text: str  # the pgbench custom script
    constants: dict[str, str] = field(default_factory=dict)  # -D name=value
    statements: int = 0  # per move, as the service executes them
    summary: list[str] = field(default_factory=list)  # the first words of each, for the report


@dataclass
class Yardstick:
    tps: float
    p50_ms: float
    p99_ms: float
    transactions: int
    failed: int


# ---- capture ---------------------------------------------------------------------------------------------------


async def capture(
    app, move: Callable[[Any], Awaitable[None]], counters: Callable[[], Awaitable[tuple[int, int]]]
) -> list[list[Recorded]]:
    """Every statement of MOVES consecutive moves, each move's statements after its counters
    (last_seq, table_version) as they stood before it. `move()` plays one move and fails unless it is applied."""
    from sqlalchemy import event

    from service.store.records import pgdirect

    engine = app.state.services.engine.sync_engine
    moves: list[list[Recorded]] = []
    current: list[Recorded] = []

    def record(conn, cursor, statement, parameters, context, executemany):
        rows = list(parameters) if executemany else [parameters]
        current.append(Recorded(statement, [tuple(r) for r in rows]))

    def record_direct(statement: str, args) -> None:  # the hot path's statements, sent past SQLAlchemy
        current.append(Recorded(statement, [tuple(args)]))

    before: list[tuple[int, int]] = []
    for _ in range(MOVES):
        before.append(await counters())
        current = []
        event.listen(engine, "before_cursor_execute", record)
        pgdirect.STATEMENT_HOOKS.append(record_direct)
        try:
            await move(None)
        finally:
            event.remove(engine, "before_cursor_execute", record)
            pgdirect.STATEMENT_HOOKS.remove(record_direct)
        moves.append(current)
    for m, (last_seq, version) in zip(moves, before):
        m.insert(0, Recorded("-- counters", [(last_seq, version)]))
    return moves


# ---- the script ------------------------------------------------------------------------------------------------

_PARAM = re.compile(r"\$(\d+)((?:::[A-Z ]+(?:\([0-9]+\))?(?:\[\])?)?)")


def build(moves: list[list[Recorded]], per_client: dict[str, str]) -> Script:
    """The pgbench script for the recorded moves. `per_client`: the capture campaign's own values (campaign id,
    token hash, character id) by the name of the pgbench variable that holds the client's own."""
    counters = [m[0].rows[0] for m in moves]
    moves = [m[1:] for m in moves]
    shapes = {tuple(r.text for r in m) for m in moves}
    if len(shapes) != 1:
        raise SystemExit("yardstick: the recorded moves executed different statements: " + repr(shapes))
    if (
        not moves[0]
        or not moves[0][0].text.lstrip().upper().startswith("SELECT")
        or "FOR UPDATE" not in moves[0][0].text.upper()
    ):
        raise SystemExit("yardstick: a move's first statement is expected to lock the campaign row")
    by_value = {v: k for k, v in per_client.items()}
    constants: dict[str, str] = {}
    lines = [
        # Once per client: its campaign (client i on campaign i mod N) and that campaign's GM token hash.
        "\\if :ready = 0",
        "\\set slot :client_id % :campaigns",
        "SELECT campaigns.id AS cid, credentials.token_hash AS th, characters.id AS chid FROM campaigns "
        "JOIN credentials ON credentials.campaign_id = campaigns.id AND credentials.role = 'gm' "
        "LEFT JOIN characters ON characters.campaign_id = campaigns.id "
        "ORDER BY campaigns.created_at, campaigns.id OFFSET :slot LIMIT 1 \\gset",
        "\\set ready 1",
        "\\endif",
        "BEGIN;",
    ]
    constants["ready"] = "0"
    derived: list[str] = []
    summary = []
    for i, stmt in enumerate(moves[0]):
        summary.append(" ".join(stmt.text.split()[:3]) + (f" x{len(stmt.rows)}" if len(stmt.rows) > 1 else ""))
        executions = []
        for j, row in enumerate(stmt.rows):
            values = [[m[i].rows[j][k] for m in moves] for k in range(len(row))]
            names: list[str | list[str]] = []
            for k, seen in enumerate(values):
                cast = _cast_of(stmt.text, k + 1)
                if all(isinstance(v, list) for v in seen):
                    # An array (rows unnested by the statement): one variable per element, as ARRAY[...].
                    if len({len(v) for v in seen}) != 1:
                        raise SystemExit(f"yardstick: an array parameter of statement {i} changed length")
                    elements = []
                    for e in range(len(seen[0])):
                        name, setter = _classify(
                            f"p{i}_{j}_{k}_{e}",
                            [v[e] for v in seen],
                            counters,
                            by_value,
                            constants,
                            cast.removesuffix("[]"),
                        )
                        derived += [setter] if setter else []
                        elements.append(name)
                    names.append(elements)
                    continue
                name, setter = _classify(f"p{i}_{j}_{k}", seen, counters, by_value, constants, cast)
                if setter:
                    derived.append(setter)
                names.append(name)
            executions.append(_substitute(stmt.text, names))
        if i == 0:
            executions = [executions[0] + " \\gset r_"]  # the locked row: counters to derive seqs from
        if len(executions) > 1:
            lines += ["\\startpipeline", *[e + ";" if not e.endswith("r_") else e for e in executions], "\\endpipeline"]
        else:
            lines.append(executions[0] if executions[0].endswith("r_") else executions[0] + ";")
        if i == 0:
            lines.append(_DERIVED)
    lines.append("COMMIT;")
    # The derived values are set right after the locked row is read: splice them in there.
    text = "\n".join(lines).replace(_DERIVED, "\n".join(derived)) + "\n"
    return Script(text, constants, len(moves[0]), summary)


_DERIVED = "-- derived"


def _cast_of(text: str, n: int) -> str:
    m = re.search(rf"\${n}(::[A-Z ]+(?:\([0-9]+\))?(?:\[\])?)", text)
    return m.group(1).strip() if m else ""


def _substitute(text: str, names: list[str | list[str]]) -> str:
    """`$n` -> `:name` (pgbench prepares `:name` back into a parameter); a None -> NULL; an array ->
    `ARRAY[:name_0, ...]`. One line: pgbench reads a command per line."""

    def one(name: str) -> str:
        return name if name == "NULL" else f":{name}"

    def repl(m: re.Match) -> str:
        name = names[int(m.group(1)) - 1]
        if isinstance(name, list):
            return "ARRAY[" + ", ".join(one(n) for n in name) + "]" + m.group(2)
        return one(name) + m.group(2)

    return " ".join(_PARAM.sub(repl, text).split())


def _classify(
    name: str,
    seen: list[Any],
    counters: list[tuple[int, int]],
    by_value: dict[Any, str],
    constants: dict[str, str],
    cast: str,
) -> tuple[str, str | None]:
    first = seen[0]
    if first is None and all(v is None for v in seen):
        return "NULL", None
    if first in by_value and all(v == first for v in seen):
        return by_value[first], None
    if all(v == first for v in seen):
        constants[name] = _text(first)
        return name, None
    if all(isinstance(v, int) and not isinstance(v, bool) for v in seen):
        for column, idx in (("last_seq", 0), ("table_version", 1)):
            offsets = {v - c[idx] for v, c in zip(seen, counters)}
            if len(offsets) == 1:
                return name, f"\\set {name} :r_{column} + {offsets.pop()}"
    if "VARCHAR" in cast or "TEXT" in cast:
        # A tag or an id that must not repeat: a random number, as text, of at most the captured length's digits.
        digits = max(6, min(18, len(str(first))))
        return name, f"\\set {name} random(1, {10**digits - 1})"
    constants[name] = _text(first)
    return name, None


def _text(value: Any) -> str:
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# ---- running it ------------------------------------------------------------------------------------------------


def run(script: Script, url: str, *, campaigns: int, clients: int, threads: int, seconds: float) -> Yardstick:
    """pgbench over the script: `clients` connections, prepared statements, a latency log for percentiles."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "move.sql")
        with open(path, "w") as f:
            f.write(script.text)
        args = [
            "pgbench",
            "-n",
            "-M",
            "prepared",
            "-c",
            str(clients),
            "-j",
            str(min(threads, clients)),
            "-T",
            str(max(1, round(seconds))),
            "-f",
            path,
            "-l",
            "--log-prefix",
            os.path.join(tmp, "log"),
        ]
        for k, v in {**script.constants, "campaigns": str(campaigns)}.items():
            args += ["-D", f"{k}={v}"]
        out = subprocess.run([*args, url], capture_output=True, text=True, timeout=seconds + 120)
        if out.returncode != 0:
            raise SystemExit(f"pgbench failed ({out.returncode}): {out.stderr[-2000:]}\n{script.text}")
        latencies = []
        for log in glob.glob(os.path.join(tmp, "log.*")):
            with open(log) as f:
                latencies += [int(line.split()[2]) for line in f if line.strip()]
    m = re.search(r"tps = ([0-9.]+) \(without initial connection time\)", out.stdout)
    failed = re.search(r"number of failed transactions: (\d+)", out.stdout)
    if m is None or not latencies:
        raise SystemExit(f"pgbench gave no result: {out.stdout[-2000:]}")
    latencies.sort()
    return Yardstick(
        float(m.group(1)),
        latencies[len(latencies) // 2] / 1000,
        latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] / 1000,
        len(latencies),
        int(failed.group(1)) if failed else 0,
    )
