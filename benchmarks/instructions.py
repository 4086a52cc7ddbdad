"""Instructions per request, counted by callgrind: a figure that holds still on a shared machine.

Requests/s and CPU time per request move by 10-30% from one run to the next on a busy 2-core VM, so a 5% change
in what a request costs cannot be told from noise with them. Callgrind counts the instructions the process runs,
which the machine's load does not change: the same code gives the same count within about 2% (random ids, the
garbage collector's timing).

For each backend (PostgreSQL + Redis, the embedded defaults) one process, run under
`valgrind --tool=callgrind`, builds the app in process, makes a Step Dice table with a character and a scene, warms
every path up, and then counts, with instrumentation switched on only around each loop:

- `GET state`: the table from the live store, a cache hit (the same request as bench.py's GET state scenario);
- `Step Dice move`: bench.py's Step Dice `test`, table dice, over REST;
- `keyed move`: the same move with an Idempotency-Key of its own each time;
- `GraphQL web table read`: the table's query as the web table sends it after every move (bench.py's scenario of
  that name: every field of the table at its GraphQL type, the seat and the characters);

each `--requests` times through an in-process client (httpx's ASGI transport: what it spends is counted too, the
same for every commit). Rate limits are on for the token and the address, at a budget no loop reaches, so the
buckets are charged as in a deployment. With `--baseline DIR` (a checkout of an earlier commit: `git archive REV |
tar -x -C DIR`) the same process runs on that checkout's code right after this one's, and each row gets the ratio.

    apt-get install valgrind
    .venv/bin/python benchmarks/instructions.py [--requests 100] [--backends servers,embedded] [--baseline DIR]

A run of 100 requests per scenario and backend takes about two minutes per checkout. PostgreSQL + Redis come from
TEST_DATABASE_URL and TEST_REDIS_URL as for bench.py (a database of its own is created and dropped)."""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCENARIOS = ("GET state", "Step Dice move", "keyed move", "GraphQL web table read")


def _counting(pid: int, on: bool) -> None:
    subprocess.run(
        ["callgrind_control", "--instr=" + ("on" if on else "off"), str(pid)], check=True, capture_output=True
    )


def _dump(pid: int, label: str) -> None:
    subprocess.run(["callgrind_control", "--dump=" + label, str(pid)], check=True, capture_output=True)


async def _child(backend: str, requests: int, warm_up: int) -> None:
    """Inside valgrind, in the checkout being measured: play each scenario, counted, and dump after each."""
    sys.path.insert(0, os.getcwd())  # the measured checkout's `service`, not the installed one
    sys.path.insert(1, str(HERE))
    import httpx
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    from service.app import create_app
    from service.settings import Rate, Settings
    from workload import WORKLOADS, new_table, web_table_read

    limits = {"rate_per_token": Rate(1_000_000, 1_000_000), "rate_per_address": Rate(1_000_000, 1_000_000)}
    admin = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
    admin = re.sub(r"^postgresql(\+\w+)?://", "postgresql+asyncpg://", admin)
    name = f"rk_instr_{uuid.uuid4().hex[:8]}"
    tmp = tempfile.mkdtemp()
    if backend == "servers":
        engine = create_async_engine(admin, isolation_level="AUTOCOMMIT")
        async with engine.connect() as conn:
            await conn.execute(text(f'CREATE DATABASE "{name}"'))
        settings = Settings(
            database_url=admin.rsplit("/", 1)[0] + f"/{name}",
            redis_url=os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0"),
            webhooks_secrets_key="the instruction benchmark's key for sealing webhook secrets",
            **limits,
        )
    else:
        settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp}/rulekeeper.db", **limits)
    w = WORKLOADS[0]
    pid = os.getpid()
    try:
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            try:  # as a served app settles its heap once started (service/heap.py; not in older checkouts)
                from service.heap import settle
            except ImportError:
                pass
            else:
                settle()
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://rulekeeper.test") as c:
                table = await new_table(c, w)
                cid, auth, character = table.id, {"Authorization": f"Bearer {table.gm}"}, table.character
                (action,) = w.cycle(character)
                move = {"action": action, "dice": (w.dice or {}).get(action["type"])}
                keys = iter(range(10**9))
                web_read = web_table_read(cid)

                async def once(scenario: str) -> httpx.Response:
                    if scenario == "GET state":
                        return await c.get(f"/v1/campaigns/{cid}/state", headers=auth)
                    if scenario == "GraphQL web table read":
                        return await c.post("/graphql", json=web_read, headers=auth)
                    headers = {**auth, "Idempotency-Key": f"key-{next(keys)}"} if scenario == "keyed move" else auth
                    return await c.post(f"/v1/campaigns/{cid}/actions", json=move, headers=headers)

                for scenario in SCENARIOS:
                    for _ in range(warm_up):
                        (await once(scenario)).raise_for_status()
                    _counting(pid, True)
                    for _ in range(requests):
                        r = await once(scenario)
                    _counting(pid, False)
                    r.raise_for_status()
                    if scenario.startswith("GraphQL") and "errors" in r.json():
                        raise SystemExit(f"{scenario} was refused: {r.text[:500]}")
                    _dump(pid, scenario)
    finally:
        if backend == "servers":
            async with engine.connect() as conn:
                await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            await engine.dispose()
        shutil.rmtree(tmp, ignore_errors=True)


def measure(root: Path, backend: str, requests: int, warm_up: int) -> dict[str, float]:
    """Millions of instructions per request, by scenario, for the checkout at `root` on `backend`."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={out}/callgrind.out",
            sys.executable,
            str(Path(__file__).resolve()),
            "--child",
            backend,
            "--requests",
            str(requests),
            "--warm-up",
            str(warm_up),
        ]
        # A fixed hash seed takes one source of variation away: how dicts and sets of strings collide.
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"the measured process failed ({root}, {backend}):\n{done.stderr[-3000:]}")
        counts: dict[str, float] = {}
        for dump in Path(out).glob("callgrind.out.*"):
            body = dump.read_text(errors="replace")
            # callgrind_control --dump=<label> writes "desc: Trigger: dump <label>".
            label = re.search(r"^desc: Trigger: dump (.+)$", body, re.M)
            total = re.search(r"^totals: (\d+)", body, re.M)
            if label and total:
                counts[label.group(1).strip()] = int(total.group(1)) / requests / 1e6
        missing = [s for s in SCENARIOS if s not in counts]
        if missing:
            raise SystemExit(f"no count for {missing} ({root}, {backend}); dumps: {sorted(counts)}")
        return counts


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--requests", type=int, default=100, help="counted requests per scenario")
    p.add_argument("--warm-up", type=int, default=30, help="uncounted requests per scenario before them")
    p.add_argument("--backends", default="servers,embedded")
    p.add_argument("--baseline", type=Path, help="a checkout of an earlier commit, measured right after this one")
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        asyncio.run(_child(args.child, args.requests, args.warm_up))
        return 0
    if not (shutil.which("valgrind") and shutil.which("callgrind_control")):
        print("valgrind is not installed: `apt-get install valgrind` (Debian/Ubuntu)", file=sys.stderr)
        return 2
    roots = [("this checkout", HERE.parent)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
    print(
        f"millions of instructions per request (callgrind), {args.requests} requests per scenario after {args.warm_up}"
    )
    for backend in args.backends.split(","):
        title = "pg+redis" if backend == "servers" else backend
        figures = {label: measure(root, backend, args.requests, args.warm_up) for label, root in roots}
        header = f"{'':>28} {'this checkout':>14}" + (f" {'baseline':>10} {'ratio':>7}" if args.baseline else "")
        print(f"\n{title}\n{header}")
        for scenario in SCENARIOS:
            now = figures["this checkout"][scenario]
            row = f"{scenario:>28} {now:>14.3f}"
            if args.baseline:
                before = figures["baseline"][scenario]
                row += f" {before:>10.3f} {now / before:>6.3f}x"
            print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
