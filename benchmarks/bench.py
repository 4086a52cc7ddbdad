"""What users feel, in one run: Rulekeeper beside a bare Starlette endpoint served by the same uvicorn.

    .venv/bin/python benchmarks/bench.py [--quick] [--seconds 4] [--tables 32] [--backends embedded,servers]
    .venv/bin/python benchmarks/bench.py --only inprocess [--baseline DIR]   # engines and roller beside d20 only

Load comes from `wrk` (install it: `apt-get install wrk` on Debian/Ubuntu, `brew install wrk` on macOS); without
it an in-process asyncio client stands in and the script says so (its figures are low: it shares the machine).
Every scenario is closed-loop with 32 connections (--tables), one uvicorn worker, for --seconds each:

- the ceiling: POST of a small JSON body to a bare Starlette `JSONResponse` (benchmarks/ceiling.py);
- writes, REST and GraphQL: a free roll (3d10) and each rule system's real moves (benchmarks/workload.py),
  over 32 tables at once (--tables) (one connection per table) and on one contended table; Step Dice's moves
  over 32 tables again with an Idempotency-Key of their own each (as the web table sends its moves);
- reads: the table's state, and the event log (the last 100 events) over the 32 tables;
- the event log of one campaign holding 10^4 and 10^6 events (inserted in bulk), pages at its start, middle
  and end;
- Redis bytes per in-flight encounter (PostgreSQL + Redis only);
- in process, beside the `d20` library rolling the same dice: each engine's whole cycle (every move through
  SYSTEM.apply) and its dice resolution (only the moves that throw dice, each from the state before it), and
  the free-expression roller beside `d20` on the same expressions. `--only inprocess` measures just these,
  and with --baseline also the baseline checkout's code, in a second process right after.

The embedded defaults (SQLite + its SQL live store) and PostgreSQL + Redis (TEST_DATABASE_URL, TEST_REDIS_URL;
in a database of its own) are measured in the same run. It prints requests/s, p50 and p99 and the ratio to the
ceiling for each scenario, then the issue's targets and whether this run reached them. Figures only: the
machine is shared and noisy, so compare ratios within one run. --quick is the smoke run the tests use.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))
from api_bench import free_port  # noqa: E402  (sibling scripts, not a package)
from load import WRK_INSTALL, Req, Result, answers, have_wrk, run  # noqa: E402
from workload import WORKLOADS, Table, Workload, new_table, web_table_read  # noqa: E402
import yardstick  # noqa: E402

ROLL_GQL = (
    "mutation($i: RollInput!) { rollExpression(input: $i) "
    "{ total text dice { sides face } events { seq type data { __typename } } } }"
)
ACT_GQL = (
    "mutation($i: ActInput!) { act(input: $i) { version state { __typename } "
    "events { seq type data { __typename } } } }"
)
EXPRESSIONS = ["1d20", "3d10", "4d6kh3", "10d10e10"]


@dataclass
class Row:
    backend: str
    scenario: str
    result: Result
    cpu_ms: float | None = None  # the server's CPU time per request: steadier than req/s on a shared machine


@dataclass
class Run:
    rows: list[Row] = field(default_factory=list)
    # The same scenarios on --baseline's server, each run right after the current server's.
    baseline: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    ceiling: float = 0.0
    # pgbench on a move's own SQL: [False] on one campaign, [True] over --tables campaigns.
    yardstick: dict[bool, yardstick.Yardstick] = field(default_factory=dict)
    yardstick_script: str = ""
    # The machine's pace (pace()) when the run began; the report measures it again at the end.
    pace_at_start: float = 0.0
    # Scenario -> (one worker's, two workers' req/s), each the median of rounds alternated between the two servers.
    scaling: dict[str, tuple[float, float]] = field(default_factory=dict)

    def get(self, backend: str, scenario: str) -> Result | None:
        return next((r.result for r in self.rows if r.backend == backend and r.scenario == scenario), None)


# ---- servers ---------------------------------------------------------------------------------------------------


def server_log():
    """Where a server's stderr goes: a file, never a pipe nobody reads (a full pipe blocks the server's logging,
    and with it the server, after a few dozen tracebacks of clients that hung up when wrk stopped)."""
    return tempfile.TemporaryFile()


def tail(log) -> str:
    log.seek(0)
    return log.read().decode(errors="replace")[-2000:]


def start_ceiling(plain: bool = False) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "ceiling.py"), str(port), *(["plain"] if plain else [])],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=(log := server_log()),
    )
    base = f"http://127.0.0.1:{port}"
    if answers(f"{base}/readyz", time.monotonic() + 20):
        return proc, base
    proc.kill()
    raise SystemExit(f"ceiling server did not start: {tail(log)}")


def start_service(env: dict[str, str], root: Path, workers: int = 1) -> tuple[subprocess.Popen, str]:
    """`rulekeeper serve` from the checkout at `root` (`python -m` imports the package from the working
    directory), so an earlier commit's code can be measured beside this one."""
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "service.cli",
            "serve",
            "--port",
            str(port),
            *(["--workers", str(workers)] if workers > 1 else []),
        ],
        cwd=root,
        # One client and one token at full speed: rate limits would measure themselves.
        env={
            **os.environ,
            "RULEKEEPER_LOG_LEVEL": "WARNING",
            "RULEKEEPER_RATE_LIMIT_PER_TOKEN": "off",
            "RULEKEEPER_RATE_LIMIT_PER_ADDRESS": "off",
            **env,
        },
        stdout=subprocess.DEVNULL,
        stderr=(log := server_log()),
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    if answers(f"{base}/readyz", deadline):
        if workers > 1:
            all_started(proc.pid, deadline)
        return proc, base
    proc.kill()
    raise SystemExit(f"server did not start: {tail(log)}")


def all_started(pid: int, deadline: float) -> None:
    """Waits until every worker has finished starting: the first one ready answers /readyz while the others may
    still be importing, and wrk's connections, opened at once and kept, would all go to the first (seen here: 32
    of 32 on one worker, against 17 and 15 once both had started). A worker's start is CPU-bound, so they have
    all started when the process tree goes idle."""
    before = cpu_seconds(pid)
    quiet = 0
    while quiet < 3 and time.monotonic() < deadline:
        time.sleep(0.2)
        now = cpu_seconds(pid)
        quiet = quiet + 1 if now - before < 0.02 else 0
        before = now


def cpu_seconds(pid: int) -> float:
    """CPU time of the process and of its live descendants (`--workers N` serves from child processes)."""

    def stat(p: int) -> list[str]:
        return Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()

    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                children.setdefault(int(stat(int(entry))[1]), []).append(int(entry))
            except OSError:
                continue
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        try:
            fields = stat(p)
        except OSError:
            if p == pid:
                raise
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        todo += children.get(p, [])
    return total


def timed(
    proc: subprocess.Popen, base: str, cycles: list[list[Req]], args, use_wrk: bool
) -> tuple[Result, float | None]:
    try:
        c0 = cpu_seconds(proc.pid)
    except OSError:  # no /proc: figures without the CPU column
        return run(base, cycles, args.tables, args.seconds, use_wrk=use_wrk), None
    result = run(base, cycles, args.tables, args.seconds, use_wrk=use_wrk)
    return result, (cpu_seconds(proc.pid) - c0) * 1000 / max(1, result.requests)


# A plain Python loop's additions, timed: a fixed amount of one core's work, so a shared machine's pace shows beside
# the figures, at the start and at the end of the run, and runs on other days can be set side by side.
PACE_ADDITIONS = 10**7


def pace(additions: int = PACE_ADDITIONS) -> float:
    """Seconds that `additions` additions in a Python loop take, the median of three (wall time, as the scenarios'
    requests/s are)."""
    times = []
    for _ in range(3):
        start, total = time.perf_counter(), 0
        for i in range(additions):
            total += i
        times.append(time.perf_counter() - start)
    return sorted(times)[1]


def show_pace(label: str, seconds: float, additions: int) -> None:
    print(f"machine {label}: a Python loop of {additions:,} additions took {seconds:.3f} s", flush=True)


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()


class Backend:
    """A records database (and live store) for one server, created for this run and dropped after it."""

    def __init__(self, kind: str, tmp: str) -> None:
        self.kind = kind
        self.title = "embedded" if kind == "embedded" else "pg+redis"
        self.admin = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test").replace(
            "postgresql+asyncpg://", "postgresql://"
        )
        self.redis_url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
        self.sqlite_path = f"{tmp}/bench.db"
        self.dbname = f"rk_bench_{uuid.uuid4().hex[:8]}"

    def env(self) -> dict[str, str]:
        if self.kind == "embedded":
            return {"DATABASE_URL": f"sqlite:///{self.sqlite_path}"}
        subprocess.run(["psql", self.admin, "-qc", f'CREATE DATABASE "{self.dbname}"'], check=True)
        return {
            "DATABASE_URL": self.pg_url,
            "REDIS_URL": self.redis_url,
            "RULEKEEPER_WEBHOOKS_SECRETS_KEY": "a benchmark key for sealing webhook secrets",
        }

    @property
    def pg_url(self) -> str:
        return self.admin.rsplit("/", 1)[0] + f"/{self.dbname}"

    def drop(self) -> None:
        if self.kind != "embedded":
            subprocess.run(
                ["psql", self.admin, "-qc", f'DROP DATABASE IF EXISTS "{self.dbname}" WITH (FORCE)'],
                check=False,
                capture_output=True,
            )

    def sql(self, statement: str) -> None:
        if self.kind == "embedded":
            with sqlite3.connect(self.sqlite_path, timeout=120) as db:
                db.executescript(statement)
        else:
            subprocess.run(["psql", self.pg_url, "-qc", statement], check=True, capture_output=True)

    def bulk_events(self, campaign: str, n: int) -> None:
        """n more events copied from the campaign's last one: the log a long campaign ends up with."""
        series = ("generate_series(1, {n}) AS g(x)" if self.kind != "embedded" else "g").format(n=n)
        head = (
            ""
            if self.kind != "embedded"
            else f"WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < {n}) "
        )
        self.sql(f"""{head}INSERT INTO events (campaign_id, seq, type, data, redacted, visibility, actor_role,
                       actor_player_id, request_id, created_at)
                     SELECT e.campaign_id, e.seq + g.x, e.type, e.data, e.redacted, e.visibility, e.actor_role,
                            e.actor_player_id, e.request_id, e.created_at
                     FROM events e, {series}
                     WHERE e.campaign_id = '{campaign}'
                       AND e.seq = (SELECT last_seq FROM campaigns WHERE id = '{campaign}');
                     UPDATE campaigns SET last_seq = last_seq + {n} WHERE id = '{campaign}';""")


# ---- setting tables up -----------------------------------------------------------------------------------------


def _camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(p[:1].upper() + p[1:] for p in rest)


def _flag_moves() -> set[tuple[str, str]]:
    """(ActionInput type, move field) of the moves GraphQL takes as `Boolean` (no fields at all), from the exported
    schema; a move whose fields are all optional takes an input object, `{}` when none is sent."""
    import re

    out, current = set(), None
    for text in (ROOT / "schema" / "schema.graphql").read_text().splitlines():
        if m := re.match(r"input (\w+ActionInput) ", text):
            current = m.group(1)
        elif text.startswith("}"):
            current = None
        elif current and (m := re.match(r"  (\w+): Boolean!?$", text)):
            out.add((current, m.group(1)))
    return out


_FLAGS: set[tuple[str, str]] | None = None


def gql_action(system: str, action: dict) -> dict:
    """A REST move as GraphQL's `ActionInput`: `{system: {moveType: {camelCasedField: …}}}` (`true` for a move
    the schema takes as a flag)."""
    global _FLAGS
    if _FLAGS is None:
        _FLAGS = _flag_moves()

    def fields(value):
        if isinstance(value, dict):
            return {_camel(k): fields(v) for k, v in value.items()}
        return [fields(v) for v in value] if isinstance(value, list) else value

    rest = {k: v for k, v in action.items() if k != "type"}
    move = _camel(action["type"])
    flag = not rest and any(t.lower() == f"{system.replace('_', '')}actioninput" and f == move for t, f in _FLAGS)
    return {_camel(system): {move: True if flag else fields(rest)}}


def move_body(w: Workload, action: dict) -> dict:
    faces = (w.dice or {}).get(action["type"])
    return {"action": action, **({"dice": faces} if faces is not None else {})}


async def check_cycle(c: httpx.AsyncClient, w: Workload, t: Table) -> None:
    """Play the cycle once through, so a workload that stopped repeating fails here, not as a wall of 409s."""
    for action in w.cycle(t.character):
        r = await c.post(
            f"/v1/campaigns/{t.id}/actions", json=move_body(w, action), headers={"Authorization": f"Bearer {t.gm}"}
        )
        if r.status_code != 200:
            raise SystemExit(f"{w.system} move {action['type']} refused: {r.text[:500]}")


async def tables_for(c: httpx.AsyncClient, w: Workload, n: int, *, check: bool = True) -> list[Table]:
    out = []
    for start in range(0, n, 8):
        out += await asyncio.gather(*(new_table(c, w) for _ in range(min(8, n - start))))
    if check:
        await check_cycle(c, w, out[0])
    return out


def act_req(w: Workload, t: Table, action: dict, graphql: bool) -> Req:
    body = move_body(w, action)
    if graphql:
        move = {**body, "action": gql_action(w.system, body["action"])}
        return Req.json("POST", "/graphql", {"query": ACT_GQL, "variables": {"i": {"campaignId": t.id, **move}}}, t.gm)
    return Req.json("POST", f"/v1/campaigns/{t.id}/actions", body, t.gm)


def web_table_req(t: Table) -> Req:
    return Req.json("POST", "/graphql", web_table_read(t.id), token=t.gm)


def roll_req(t: Table, graphql: bool) -> Req:
    if graphql:
        return Req.json(
            "POST",
            "/graphql",
            {"query": ROLL_GQL, "variables": {"i": {"campaignId": t.id, "expression": "3d10"}}},
            t.gm,
        )
    return Req.json("POST", f"/v1/campaigns/{t.id}/rolls", {"expression": "3d10"}, t.gm)


# ---- the yardstick: a move's own SQL under pgbench ------------------------------------------------------------

YARDSTICK_WORKLOAD = WORKLOADS[0]  # Step Dice `test`: one move that repeats, two events, table dice


async def yardstick_script(env: dict[str, str], tables: int) -> yardstick.Script:
    """The statements of a real move, recorded from an in-process service on the yardstick's own database (which
    keeps the `tables` campaigns it sets up, for pgbench to play on)."""
    from sqlalchemy import text

    from service.app import create_app
    from service.game.tokens import hash_token
    from service.settings import Settings

    settings = Settings.from_env({**os.environ, "RULEKEEPER_LOG_LEVEL": "WARNING", **env})
    app = create_app(settings)
    w = YARDSTICK_WORKLOAD
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://yardstick") as c:
            tables = await tables_for(c, w, tables)
            t = tables[0]

            async def move(_) -> None:
                r = await c.post(
                    f"/v1/campaigns/{t.id}/actions",
                    json=move_body(w, w.cycle(t.character)[0]),
                    headers={"Authorization": f"Bearer {t.gm}"},
                )
                if r.status_code != 200:
                    raise SystemExit(f"yardstick move refused: {r.text[:500]}")

            async def counters() -> tuple[int, int]:
                async with app.state.services.read() as s:
                    row = (
                        await s.execute(
                            text("SELECT last_seq, table_version FROM campaigns WHERE id = :id"), {"id": t.id}
                        )
                    ).one()
                    return int(row[0]), int(row[1])

            moves = await yardstick.capture(app, move, counters)
    return yardstick.build(moves, {"cid": t.id, "th": hash_token(t.gm), "chid": t.character})


def measure_yardstick(run_: Run, tmp: str, args) -> None:
    """pgbench, -c {tables} -j 2, over {tables} campaigns and on one, in a database of its own."""
    if not yardstick.have_pgbench():
        run_.notes.append(f"no yardstick: {yardstick.PGBENCH_INSTALL}")
        print(f"pgbench not found: {yardstick.PGBENCH_INSTALL}")
        return
    backend = Backend("servers", tmp)
    try:
        script = asyncio.run(yardstick_script(backend.env(), args.tables))
        print(
            f"  yardstick: a Step Dice test move's {script.statements} statements in one transaction: "
            + "; ".join(script.summary),
            flush=True,
        )
        for campaigns in (args.tables, 1):
            y = yardstick.run(
                script, backend.pg_url, campaigns=campaigns, clients=args.tables, threads=2, seconds=args.seconds
            )
            name = f"a move's SQL, {campaigns} campaigns" if campaigns > 1 else "a move's SQL, one campaign"
            run_.yardstick[campaigns > 1] = y
            run_.rows.append(Row("pgbench", name, Result(y.tps, y.p50_ms, y.p99_ms, y.transactions, y.failed)))
            print(f"  pgbench   {name:<40} {y.tps:>8.0f}/s p99 {y.p99_ms:>7.1f} ms", flush=True)
        run_.yardstick_script = script.text
    finally:
        backend.drop()


# Measured again with `rulekeeper serve --workers 2` (PostgreSQL + Redis), beside the one-worker figures.
WORKER_SCENARIOS = ["REST stepdice moves, {n} tables", "GET state, {n} tables"]
WORKER_ROUNDS = 3  # each alternated with the one-worker server (bench.py: scaling)


# ---- one backend -----------------------------------------------------------------------------------------------


def measure_backend(run_: Run, kind: str, tmp: str, args, use_wrk: bool) -> None:
    """Every scenario on this checkout's server and, with --baseline, on the baseline's right after it."""
    servers = [("current", ROOT)] + ([("baseline", Path(args.baseline).resolve())] if args.baseline else [])
    started = []
    envs = []
    try:
        for label, root in servers:
            backend = Backend(kind, tempfile.mkdtemp(dir=tmp))
            envs.append(backend.env())
            proc, base = start_service(envs[-1], root)
            started.append((label, backend, proc, base))
        prepared = [asyncio.run(prepare(base, backend, args)) for _, backend, _, base in started]
        names = [name for name, _ in prepared[0][0]]
        for i, name in enumerate(names):
            for (label, backend, proc, base), (scenarios, _) in zip(started, prepared):
                result, cpu = timed(proc, base, scenarios[i][1], args, use_wrk)
                (run_.rows if label == "current" else run_.baseline).append(Row(backend.title, name, result, cpu))
                show(label, backend.title, name, result, cpu)
        logs = [
            list(event_log_scenarios(base, backend, extra, args))
            for (_, backend, _, base), (_, extra) in zip(started, prepared)
        ]
        for i in range(len(logs[0])):
            # Every server's log was inserted before the first is measured, the baseline's last: its pages were the
            # ones in the caches, and the checkout measured first read colder (0.70x and 0.85x on 2026-11-29 for a
            # change that left these reads alone). Each server reads its log unmeasured first, then each is measured.
            for (_, _, _, base), scenarios in zip(started, logs):
                run(base, scenarios[i][1], args.tables, min(1.0, args.seconds), use_wrk=use_wrk)
            for (label, backend, proc, base), scenarios in zip(started, logs):
                name, cycles = scenarios[i]
                result, cpu = timed(proc, base, cycles, args, use_wrk)
                (run_.rows if label == "current" else run_.baseline).append(Row(backend.title, name, result, cpu))
                show(label, backend.title, name, result, cpu)
        if kind != "embedded":
            run_.notes += asyncio.run(redis_bytes(started[0][3], started[0][1]))
            for _, _, proc, _ in started[1:]:
                stop(proc)  # the baseline's server: its pool beside three others' would pass PostgreSQL's 100
            scaling(run_, started, envs[0], dict(prepared[0][0]), args, use_wrk)
    finally:
        for _, _, proc, _ in started:
            stop(proc)
        for _, backend, _, _ in started:
            backend.drop()


def scaling(run_: Run, started: list, env: dict[str, str], scenarios: dict, args, use_wrk: bool) -> None:
    """The same tables served by two worker processes, beside the one-worker server still running: each scenario
    on one, then on the other, `WORKER_ROUNDS` times, and the median of each. Measured once each, minutes apart (the
    one-worker figure with the scenarios before, the two-worker one at the end), the ratio followed the machine's
    load more than the servers: 0.80x to 1.88x in runs of the same code on one day, and 0.94x to 1.88x in pairs of
    short runs alternated by hand."""
    _, backend, single, single_base = started[0]
    proc, base = start_service(env, ROOT, workers=2)
    started.append(("workers", backend, proc, base))
    # The one-worker server met these tables warm (their set-up, the scenarios before); a fresh worker's first
    # requests fill its caches and its connections' prepared statements. A second of each, not measured.
    for name in WORKER_SCENARIOS:
        run(base, scenarios[name.format(n=args.tables)], args.tables, 1.0, use_wrk=use_wrk)
    for name in WORKER_SCENARIOS:
        full = name.format(n=args.tables)
        rounds: dict[int, list[tuple[Result, float | None]]] = {1: [], 2: []}
        for _ in range(WORKER_ROUNDS):
            rounds[1].append(timed(single, single_base, scenarios[full], args, use_wrk))
            rounds[2].append(timed(proc, base, scenarios[full], args, use_wrk))
        one, two = (median_of(rounds[w]) for w in (1, 2))
        run_.scaling[full] = (one[0].rps, two[0].rps)
        run_.rows.append(Row(backend.title, f"{full}, 2 workers", *two))
        pairs = ", ".join(f"{b.rps / a.rps:.2f}x" for (a, _), (b, _) in zip(rounds[1], rounds[2]))
        show("current", backend.title, f"{full}, 2 workers", *two)
        print(
            f"  {'':<8} {'':<9} (one worker {one[0].rps:.0f}/s, the median of {WORKER_ROUNDS} alternated; "
            f"each round two to one: {pairs})",
            flush=True,
        )


def median_of(measured: list[tuple[Result, float | None]]) -> tuple[Result, float | None]:
    """The measurement with the median rate (its p99 and CPU with it)."""
    return sorted(measured, key=lambda m: m[0].rps)[len(measured) // 2]


def show(label: str, backend: str, name: str, r: Result, cpu: float | None) -> None:
    print(
        f"  {label:<8} {backend:<9} {name:<40} {r.rps:>8.0f}/s p99 {r.p99_ms:>7.1f} ms"
        + (f" cpu {cpu:.2f} ms/req" if cpu is not None else "")
        + (f"  ({r.failed} failed)" if r.failed else ""),
        flush=True,
    )


async def prepare(base: str, backend: Backend, args) -> tuple[list[tuple[str, list[list[Req]]]], dict]:
    n = args.tables
    scenarios: list[tuple[str, list[list[Req]]]] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as c:
        step = replace(WORKLOADS[0], dice_mode="server", dice=None)  # the service rolls the free rolls
        rollers = await tables_for(c, step, n, check=False)
        contended = (await tables_for(c, step, 1, check=False))[0]
        scenarios += [
            (f"REST roll 3d10, {n} tables", [[roll_req(t, False)] for t in rollers]),
            (f"GraphQL roll 3d10, {n} tables", [[roll_req(t, True)] for t in rollers]),
            ("REST roll 3d10, one table", [[roll_req(contended, False)]]),
            ("GraphQL roll 3d10, one table", [[roll_req(contended, True)]]),
        ]
        for w in WORKLOADS:
            for graphql in (False, True):
                tables = await tables_for(c, w, n)
                api = "GraphQL" if graphql else "REST"
                scenarios.append(
                    (
                        f"{api} {w.system} moves, {n} tables",
                        [[act_req(w, t, a, graphql) for a in w.cycle(t.character)] for t in tables],
                    )
                )
            if w is WORKLOADS[0]:
                # As the web table sends its moves, and any client that retries safely: each with a key of its own.
                for graphql in (False, True):
                    tables = await tables_for(c, w, n)
                    api = "GraphQL" if graphql else "REST"
                    scenarios.append(
                        (
                            f"{api} {w.system} keyed moves, {n} tables",
                            [[act_req(w, t, a, graphql).with_key() for a in w.cycle(t.character)] for t in tables],
                        )
                    )
            if w.single_move:
                for graphql in (False, True):
                    api = "GraphQL" if graphql else "REST"
                    t = (await tables_for(c, w, 1))[0]
                    scenarios.append(
                        (f"{api} {w.system} move, one table", [[act_req(w, t, w.cycle(t.character)[0], graphql)]])
                    )
        scenarios += [
            (f"GET state, {n} tables", [[Req.json("GET", f"/v1/campaigns/{t.id}/state", token=t.gm)] for t in rollers]),
            # What the web table sends for its table (service/web/static/graphql): every field of it, the seat and
            # the characters, each at its GraphQL type.
            (f"GraphQL web table read, {n} tables", [[web_table_req(t)] for t in rollers]),
            (
                f"GET events (last 100), {n} tables",
                [[Req.json("GET", f"/v1/campaigns/{t.id}/events?after=0&limit=100", token=t.gm)] for t in rollers],
            ),
        ]
        web = web_table_req(rollers[0])
        r = await c.post(web.path, content=web.body, headers=web.headers)
        if r.status_code != 200 or "errors" in r.json():
            raise SystemExit(f"the web table's query was refused: {r.text[:500]}")
        logs = {size: await tables_for(c, step, 1, check=False) for size in args.log_sizes}
    return scenarios, {"logs": {size: ts[0] for size, ts in logs.items()}}


def event_log_scenarios(base: str, backend: Backend, extra: dict, args):
    for size, t in extra["logs"].items():
        t0 = time.perf_counter()
        backend.bulk_events(t.id, size)
        print(f"  {backend.title:<9} (inserted {size:,} events in {time.perf_counter() - t0:.1f} s)", flush=True)
        reads = [
            Req.json("GET", f"/v1/campaigns/{t.id}/events?after={after}&limit=100", token=t.gm)
            for after in (0, size // 2, size - 100)
        ]
        yield f"GET events, log of {size:.0e} events".replace("+0", ""), [reads[i:] + reads[:i] for i in range(3)]


async def redis_bytes(base: str, backend: Backend) -> list[str]:
    """What one table in the middle of a fight holds in Redis: the whole value, by MEMORY USAGE."""
    import redis.asyncio as aioredis

    notes = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as c:
        step = await new_table(c, WORKLOADS[0])
        fight = [
            {"type": "create_encounter"},
            {"type": "add_character", "character_id": step.character, "position": {"x": 0, "y": 0}},
        ]
        fight += [
            {
                "type": "add_enemy",
                "enemy_id": f"e{i}",
                "name": f"Goblin {i}",
                "kind": "minion",
                "position": {"x": 1 + i, "y": 0},
            }
            for i in range(4)
        ]
        fight += [{"type": "start_encounter"}, {"type": "begin_turn", "character_id": step.character}]
        deck = await new_table(c, WORKLOADS[1])
        r = await c.post(
            f"/v1/campaigns/{deck.id}/characters",
            headers={"Authorization": f"Bearer {deck.gm}"},
            json={"sheet": {**WORKLOADS[1].sheet, "name": "Goon", "kind": "extra", "side": "opposition"}},
        )
        goon = r.json()["id"]
        cases = [
            ("stepdice encounter (1 PC, 4 enemies)", step, fight),
            (
                "action_deck encounter (2 participants, dealt)",
                deck,
                [
                    {"type": "open_session", "players": []},
                    {"type": "start_encounter", "participants": [deck.character, goon]},
                    {"type": "deal"},
                ],
            ),
        ]
        client = aioredis.Redis.from_url(backend.redis_url)
        try:
            for label, t, moves in cases:
                for action in moves:
                    r = await c.post(
                        f"/v1/campaigns/{t.id}/actions",
                        json={"action": action},
                        headers={"Authorization": f"Bearer {t.gm}"},
                    )
                    if r.status_code != 200:
                        notes.append(f"Redis bytes, {label}: setup move {action['type']} refused ({r.status_code})")
                        break
                else:
                    key = f"rk:campaign:{t.id}:table"
                    usage = await client.memory_usage(key)
                    value = await client.hstrlen(key, "d")
                    notes.append(f"Redis bytes per in-flight {label}: {usage} (MEMORY USAGE), JSON value {value}")
        finally:
            await client.aclose()
    return notes


# ---- in process ------------------------------------------------------------------------------------------------


def rate(fn, seconds: float) -> float:
    n, t0 = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < seconds:
        for _ in range(20):
            fn()
        n += 20
    return n / elapsed


def rates(ours, theirs, seconds: float, rounds: int = 5) -> tuple[float, float]:
    """Both rates, measured in alternating slices: on a shared machine the load drifts, and two back-to-back
    one-second runs can differ by half from that alone. Each gets `seconds` in all."""
    a = b = 0.0
    for _ in range(rounds):
        a += rate(ours, seconds / rounds)
        b += rate(theirs, seconds / rounds)
    return a / rounds, b / rounds


@dataclass
class EngineRow:
    system: str
    moves: int  # moves in the cycle
    cycles: float  # whole cycles per second (every move through SYSTEM.apply)
    cycle_d20: float  # d20 rolls per second of the dice one cycle throws
    expr: str  # those dice, as d20 rolls them
    resolutions: float  # the cycle's resolving moves (the ones that throw dice) per second, alone
    resolve_moves: str  # which moves those are
    resolve_d20: float  # d20 rolls per second of the dice those moves throw (the same dice as the cycle's)


def engines(seconds: float) -> list[EngineRow]:
    """Per system, two figures beside `d20` rolling the same dice:

    - the whole cycle of benchmarks/workload.py, every move through `SYSTEM.apply` (what the service does per
      request: validate, copy the state, resolve, build events and who acts next);
    - the cycle's resolving moves alone (those that throw dice: a test, an attack, a pool roll), each applied
      to the state just before it: one rule resolution against one roll of its dice. The cycle's other moves
      (opening a test, accepting it, resetting) throw nothing and are left out here."""
    import d20

    from service.app import create_app
    from service.dice.server import ServerDice
    from service.game.log import moves as movelog
    from service.rules.base import Actor
    from service.rules.registry import SYSTEMS
    from service.settings import Settings
    from service.store.records.models import Campaign

    gm = Actor(role="gm", player_id=None, character_ids=frozenset())

    async def states() -> dict[str, tuple[dict, Table]]:
        with tempfile.TemporaryDirectory() as tmp:
            app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{tmp}/engines.db"))
            async with app.router.lifespan_context(app):
                async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bench") as c:
                    out = {}
                    for w in WORKLOADS:
                        t = await new_table(c, w)
                        async with app.state.services.read() as s:
                            campaign = await s.get(Campaign, t.id)
                            out[w.system] = (await movelog.state_at(s, campaign, campaign.table_version), t)
                    return out

    def expression(sides: list[int]) -> str:
        return "+".join(f"{sides.count(s)}d{s}" for s in sorted(set(sides))) or "0"

    rows = []
    for w, (system_id, (state0, t)) in zip(WORKLOADS, asyncio.run(states()).items()):
        system = SYSTEMS[system_id]
        adapter = movelog.action_adapter(system_id)
        actions = [adapter.validate_python(a) for a in w.cycle(t.character)]

        def cycle() -> None:
            state = state0
            for action in actions:
                state, _ = system.apply(state, action, gm, ServerDice())

        # Through the cycle a few times, to find the moves that throw dice, the state each starts from, and the
        # dice a cycle usually throws (an exploding die now and then adds one: d20 rolls the usual set).
        resolving: list[tuple[dict, object]] = []
        thrown: Counter[str] = Counter()
        for n in range(25):
            sides: list[int] = []
            state = state0
            for action in actions:
                dice = ServerDice()
                after, _ = system.apply(state, action, gm, dice)
                if dice.rolled:
                    if n == 0:
                        resolving.append((state, action))
                    sides += [d.sides for d in dice.rolled]
                state = after
            thrown[expression(sides)] += 1

        def resolve() -> None:
            for before, action in resolving:
                system.apply(before, action, gm, ServerDice())

        expr = thrown.most_common(1)[0][0]
        cycles, cycle_ref = rates(cycle, lambda: d20.roll(expr), seconds)
        resolutions, resolve_ref = rates(resolve, lambda: d20.roll(expr), seconds)
        rows.append(
            EngineRow(
                system_id,
                len(actions),
                cycles,
                cycle_ref,
                expr,
                resolutions,
                ",".join(a.type for _, a in resolving),
                resolve_ref,
            )
        )
    return rows


def roller(seconds: float) -> list[tuple[str, float, float]]:
    """The free-expression roller as the service calls it (parse, checked against the budget, then evaluated
    with server dice) beside `d20.roll` (parse and evaluate; neither renders text here)."""
    import d20

    from service.dice.expression import evaluate_expression, parse_expression
    from service.dice.server import ServerDice

    rows = []
    for expr in EXPRESSIONS:
        ours, ref = rates(
            lambda: evaluate_expression(expr, parse_expression(expr), ServerDice()), lambda: d20.roll(expr), seconds
        )
        rows.append((expr, ours, ref))
    return rows


def in_process(args) -> tuple[list[EngineRow], list[tuple[str, float, float]]]:
    seconds = 0.05 if args.quick else args.inprocess_seconds
    return engines(seconds), roller(seconds)


def baseline_in_process(args) -> tuple[list[EngineRow], list[tuple[str, float, float]]]:
    """This script's in-process figures for the code of the --baseline checkout, in a child process that
    imports that checkout's `service` package first."""
    import json

    out = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--only",
            "inprocess",
            "--code",
            str(Path(args.baseline).resolve()),
            "--json",
            "--inprocess-seconds",
            str(args.inprocess_seconds),
            *(["--quick"] if args.quick else []),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return [EngineRow(**row) for row in data["engines"]], [tuple(r) for r in data["roller"]]


# ---- report ----------------------------------------------------------------------------------------------------


def report(run_: Run, engine_rows, roller_rows, args) -> None:
    print()
    show_pace("at the start", run_.pace_at_start, args.pace_additions)
    end = pace(args.pace_additions)
    show_pace(f"at the end ({end / run_.pace_at_start:.2f}x the start)", end, args.pace_additions)
    print(f"ceiling (bare Starlette JSON POST, same uvicorn): {run_.ceiling:,.0f}/s")
    if run_.yardstick:
        print(
            "yardstick: pgbench -c {n} -j 2 running the SQL of one Step Dice test move, as the service executes "
            "it (benchmarks/yardstick.py), over {n} campaigns and on one; each write's ratio is to the yardstick "
            "with as many campaigns".format(n=args.tables)
        )
    print(
        f"\n{'backend':<10}{'scenario':<46}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'x pgbench':>11}{'x ceiling':>11}"
        f"{'failed':>8}{'CPU ms/req':>12}"
    )
    for row in run_.rows:
        r = row.result
        cpu = f"{row.cpu_ms:>12.2f}" if row.cpu_ms is not None else f"{'-':>12}"
        ys = yardstick_for(run_, row)
        beside = f"{r.rps / ys.tps:>10.3f}x" if ys else f"{'-':>11}"
        print(
            f"{row.backend:<10}{row.scenario:<46}{r.rps:>9.0f}{r.p50_ms:>9.1f}{r.p99_ms:>9.1f}{beside}"
            f"{r.rps / run_.ceiling:>10.3f}x{r.failed:>8}{cpu}"
        )
    if run_.baseline:
        print(f"\nbaseline ({args.baseline}) beside this checkout, each scenario back to back:")
        print(
            f"{'backend':<10}{'scenario':<42}{'req/s before':>13}{'after':>8}{'ratio':>8}{'p99 before':>12}"
            f"{'after':>8}{'CPU ms before':>15}{'after':>7}"
        )
        for before in run_.baseline:
            after = next(r for r in run_.rows if r.backend == before.backend and r.scenario == before.scenario)
            b, a = before.result, after.result
            cpu = (
                f"{before.cpu_ms:>15.2f}{after.cpu_ms:>7.2f}"
                if before.cpu_ms is not None and after.cpu_ms is not None
                else ""
            )
            if not b.requests or not a.requests:
                # A server that answered nothing for a whole scenario has stalled: say so, no ratio.
                print(
                    f"{before.backend:<10}{before.scenario:<42}{b.rps:>13.0f}{a.rps:>8.0f}   "
                    f"{'baseline' if not b.requests else 'this checkout'} answered nothing"
                )
                continue
            print(
                f"{before.backend:<10}{before.scenario:<42}{b.rps:>13.0f}{a.rps:>8.0f}{a.rps / b.rps:>7.2f}x"
                f"{b.p99_ms:>12.1f}{a.p99_ms:>8.1f}{cpu}"
            )
    report_in_process(engine_rows, roller_rows)
    for note in run_.notes:
        print(note)
    targets(run_, engine_rows, args, roller_rows)


def is_write(scenario: str) -> bool:
    return " roll " in scenario or " move" in scenario


def yardstick_for(run_: Run, row: Row) -> yardstick.Yardstick | None:
    """The pgbench figure a write is read against: over as many campaigns, or on one for one table."""
    if row.backend == "pgbench" or not is_write(row.scenario):
        return None
    return run_.yardstick.get("one table" not in row.scenario)


def report_in_process(engine_rows: list[EngineRow], roller_rows, label: str = "") -> None:
    print(
        f"\nengines{label}, whole cycle: every move of benchmarks/workload.py's cycle through SYSTEM.apply, "
        "beside d20 rolling the dice the cycle throws"
    )
    print(
        f"{'engine':<14}{'moves':>6}{'moves/s':>10}{'cycles/s':>10}{'d20 same dice/s':>17}{'ratio':>8}"
        "   dice of one cycle (as d20 rolls them)"
    )
    for e in engine_rows:
        print(
            f"{e.system:<14}{e.moves:>6}{e.cycles * e.moves:>10.0f}{e.cycles:>10.0f}{e.cycle_d20:>17.0f}"
            f"{e.cycles / e.cycle_d20:>7.2f}x   {e.expr}"
        )
    print(
        f"\nengines{label}, dice resolution: the cycle's moves that throw dice, alone, each from the state before "
        "it (one resolution beside one d20 roll of its dice)"
    )
    print(f"{'engine':<14}{'resolving move':<16}{'resolutions/s':>14}{'d20 same dice/s':>17}{'ratio':>8}   dice")
    for e in engine_rows:
        print(
            f"{e.system:<14}{e.resolve_moves:<16}{e.resolutions:>14.0f}{e.resolve_d20:>17.0f}"
            f"{e.resolutions / e.resolve_d20:>7.2f}x   {e.expr}"
        )
    print(f"\nfree-expression roller{label} (parse + budget checks + evaluate, server dice) beside d20.roll")
    print(f"{'expression':<14}{'ours/s':>10}{'d20/s':>10}{'ratio':>8}")
    for expr, ours, ref in roller_rows:
        print(f"{expr:<14}{ours:>10.0f}{ref:>10.0f}{ours / ref:>7.2f}x")


def line(ok: bool | None, text: str) -> None:
    print(f"  [{'n/a ' if ok is None else ('met ' if ok else 'MISS')}] {text}")


def in_process_targets(engine_rows: list[EngineRow], roller_rows) -> None:
    for e in engine_rows:
        line(
            e.cycles / e.cycle_d20 >= 2,
            f"{e.system} engine, whole cycle: {e.cycles / e.cycle_d20:.2f}x d20 on the same dice (>= 2)",
        )
        line(
            e.resolutions / e.resolve_d20 >= 2,
            f"{e.system} engine, dice resolution ({e.resolve_moves}): "
            f"{e.resolutions / e.resolve_d20:.2f}x d20 on the same dice (>= 2)",
        )
    for expr, ours, ref in roller_rows:
        line(ours >= ref, f"roller {expr}: {ours / ref:.2f}x d20 (faster than d20)")


def targets(run_: Run, engine_rows, args, roller_rows=()) -> None:
    targets_now(run_, args)
    print("\nearlier targets (issue 12), this run:")

    c = run_.ceiling
    for backend in ("pg+redis", "embedded"):
        if not any(r.backend == backend for r in run_.rows):
            continue
        writes = [
            (r.scenario, r.result)
            for r in run_.rows
            if r.backend == backend and r.scenario.endswith(" tables") and r.scenario.startswith("REST")
        ]
        for name, r in writes:
            if backend == "pg+redis":
                line(
                    r.rps / c >= 0.25 and r.p99_ms < 50,
                    f"{backend} {name}: {r.rps / c:.3f} of the ceiling (>= 0.25), p99 {r.p99_ms:.0f} ms (< 50)",
                )
            else:
                line(r.rps / c >= 0.15, f"{backend} {name}: {r.rps / c:.3f} of the ceiling (>= 0.15)")
        for r in run_.rows:
            if r.backend == backend and "one table" in r.scenario:
                line(r.result.p99_ms < 150, f"{backend} {r.scenario}: p99 {r.result.p99_ms:.0f} ms (< 150)")
        for r in run_.rows:
            if r.backend == backend and r.scenario.startswith("GraphQL"):
                rest = run_.get(backend, r.scenario.replace("GraphQL", "REST", 1))
                if rest:
                    line(
                        r.result.rps / rest.rps >= 0.6,
                        f"{backend} {r.scenario}: {r.result.rps / rest.rps:.2f} of REST (>= 0.6)",
                    )
        sizes = [r for r in run_.rows if r.backend == backend and r.scenario.startswith("GET events, log of")]
        if len(sizes) == 2:
            small, big = sizes[0].result, sizes[1].result
            line(
                big.rps / small.rps >= 0.8 and big.p99_ms <= 1.5 * small.p99_ms + 5,
                f"{backend} event log, {sizes[0].scenario.split(' of ')[1]} -> {sizes[1].scenario.split(' of ')[1]}: "
                f"{big.rps / small.rps:.2f} of the throughput, p99 {small.p99_ms:.1f} -> {big.p99_ms:.1f} ms (flat)",
            )
    in_process_targets(engine_rows, roller_rows)


def targets_now(run_: Run, args) -> None:
    """Issue 20's targets: writes as a fraction of their own SQL under pgbench, CPU per move, reads from the
    live store, two workers beside one, the embedded store beside PostgreSQL + Redis."""
    print("\ntargets (issue 20), this run:")
    many, one = run_.yardstick.get(True), run_.yardstick.get(False)
    pg = [r for r in run_.rows if r.backend == "pg+redis"]
    if not pg:
        line(None, "PostgreSQL + Redis not measured (--backends servers): its targets are not checked")
    for r in pg:
        if not is_write(r.scenario) or "workers" in r.scenario:
            continue
        cpu = f"CPU {r.cpu_ms:.2f} ms/move (<= 0.6)" if r.cpu_ms is not None else "CPU not measured"
        cpu_ok = r.cpu_ms is not None and r.cpu_ms <= 0.6
        if "one table" in r.scenario:
            if one is None:
                line(None, f"pg+redis {r.scenario}: no pgbench yardstick; {cpu}")
                continue
            line(
                r.result.rps >= 0.5 * one.tps and r.result.p99_ms <= 2 * one.p99_ms and cpu_ok,
                f"pg+redis {r.scenario}: {r.result.rps / one.tps:.2f} of pgbench on one campaign (>= 0.5), p99 "
                f"{r.result.p99_ms:.0f} ms vs pgbench's {one.p99_ms:.0f} (<= 2x), {cpu}",
            )
        elif many is None:
            line(None, f"pg+redis {r.scenario}: no pgbench yardstick; {cpu}")
        else:
            line(
                r.result.rps >= 0.5 * many.tps and r.result.p99_ms < 50 and cpu_ok,
                f"pg+redis {r.scenario}: {r.result.rps / many.tps:.2f} of pgbench over {args.tables} campaigns "
                f"(>= 0.5), p99 {r.result.p99_ms:.0f} ms (< 50), {cpu}",
            )
    for backend in ("pg+redis", "embedded"):
        state = run_.get(backend, f"GET state, {args.tables} tables")
        if state:
            line(state.rps >= 5000, f"{backend} GET state, one worker: {state.rps:,.0f}/s (>= 5,000)")
    for name in WORKER_SCENARIOS:
        full = name.format(n=args.tables)
        if full in run_.scaling:
            single, double = run_.scaling[full]
            line(
                double >= 1.6 * single,
                f"pg+redis {full}: 2 workers {double / single:.2f}x one worker (>= 1.6; medians of "
                f"{WORKER_ROUNDS} alternated)",
            )
    for r in run_.rows:
        if r.backend == "embedded" and is_write(r.scenario) and "one table" not in r.scenario:
            other = run_.get("pg+redis", r.scenario)
            if other:
                line(
                    r.result.rps >= 0.5 * other.rps,
                    f"embedded {r.scenario}: {r.result.rps / other.rps:.2f} of PostgreSQL + Redis (>= 0.5)",
                )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--quick",
        action="store_true",
        help="a smoke run: 2 tables, short runs, small logs, embedded; wrk (if any) drives only the ceiling",
    )
    ap.add_argument("--seconds", type=float, default=4.0, help="per scenario")
    ap.add_argument("--tables", type=int, default=32, help="tables at once = connections")
    ap.add_argument("--backends", default="embedded,servers")
    ap.add_argument("--no-wrk", action="store_true", help="use the in-process client even when wrk is installed")
    ap.add_argument(
        "--baseline",
        metavar="CHECKOUT",
        help="a checkout of an earlier commit (git archive REV | tar -x "
        "-C DIR) whose server runs every scenario right after this one's, for before/after in one run",
    )
    ap.add_argument(
        "--only",
        choices=["inprocess"],
        help="inprocess: only the engines and the roller beside d20 "
        "(no servers); with --baseline, the baseline checkout's code is measured right after this one's",
    )
    ap.add_argument("--inprocess-seconds", type=float, default=1.0, help="per in-process measurement")
    ap.add_argument("--code", metavar="CHECKOUT", help=argparse.SUPPRESS)  # import `service` from there
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # in-process rows as JSON (for --code)
    args = ap.parse_args(argv)
    args.log_sizes = [10**4, 10**6]
    args.pace_additions = PACE_ADDITIONS
    if args.code:
        sys.path.insert(0, args.code)
    if args.only == "inprocess":
        return only_in_process(args)
    if args.quick:
        args.seconds, args.tables, args.log_sizes = 0.25, 2, [10**2, 10**3]
        args.pace_additions = PACE_ADDITIONS // 100
        if "--backends" not in (argv or sys.argv):
            args.backends = "embedded"
    use_wrk = have_wrk() and not args.no_wrk
    # wrk's shortest run is a whole second: a smoke run drives only the ceiling with it, which keeps the wrk path
    # working, and its scenarios with the in-process client, a quarter of a second each.
    scenario_wrk = use_wrk and not args.quick
    print(
        f"load: {'wrk' if use_wrk else 'in-process asyncio client'}"
        f"{' (the ceiling; the scenarios: the in-process asyncio client)' if use_wrk != scenario_wrk else ''}, "
        f"{args.tables} connections, {args.seconds:g} s per scenario, one uvicorn worker"
    )
    if not have_wrk():
        print(f"wrk not found: {WRK_INSTALL}")
    run_ = Run(pace_at_start=pace(args.pace_additions))
    show_pace("at the start", run_.pace_at_start, args.pace_additions)
    for plain in (False, True):
        proc, base = start_ceiling(plain)
        try:
            ceiling, cpu = timed(proc, base, [[Req.json("POST", "/", {"expression": "3d10"})]], args, use_wrk)
        finally:
            stop(proc)
        name = "ceiling, asyncio + h11 (plain uvicorn)" if plain else "ceiling: bare Starlette POST"
        run_.ceiling = run_.ceiling or ceiling.rps
        run_.rows.append(Row("-", name, ceiling, cpu))
        print(f"  {name} {ceiling.rps:,.0f}/s p99 {ceiling.p99_ms:.1f} ms", flush=True)
    if "servers" in args.backends.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            measure_yardstick(run_, tmp, args)
    for kind in args.backends.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            measure_backend(run_, kind, tmp, args, scenario_wrk)
    report(run_, *in_process(args), args)
    return 0


def only_in_process(args) -> int:
    import json
    from dataclasses import asdict

    engine_rows, roller_rows = in_process(args)
    if args.json:
        print(json.dumps({"engines": [asdict(e) for e in engine_rows], "roller": roller_rows}))
        return 0
    report_in_process(engine_rows, roller_rows, " (this checkout)" if args.baseline else "")
    if args.baseline:
        before_engines, before_roller = baseline_in_process(args)
        report_in_process(before_engines, before_roller, f" (baseline {args.baseline})")
        print("\nbefore -> after (each ratio to d20 from its own process, measured back to back):")
        for b, a in zip(before_engines, engine_rows):
            print(
                f"  {a.system:<12} whole cycle {b.cycles / b.cycle_d20:.3f}x -> {a.cycles / a.cycle_d20:.3f}x d20 "
                f"({a.cycles / b.cycles:.1f}x cycles/s); dice resolution {b.resolutions / b.resolve_d20:.3f}x -> "
                f"{a.resolutions / a.resolve_d20:.3f}x d20"
            )
        for (expr, b_ours, b_ref), (_, a_ours, a_ref) in zip(before_roller, roller_rows):
            print(f"  roller {expr:<10} {b_ours / b_ref:.2f}x -> {a_ours / a_ref:.2f}x d20")
    print("\ntargets (issue 12), in process, this run:")
    in_process_targets(engine_rows, roller_rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
