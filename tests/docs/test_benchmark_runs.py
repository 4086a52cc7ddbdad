"""The benchmark script keeps working (a tiny bounded run; its figures are not asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_script(*args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """A benchmark script run from the checkout as its README says, which must exit 0."""
    out = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, out.stderr[-3000:]
    return out


def test_api_benchmark_runs_and_prints_its_table():
    out = run_script("benchmarks/api_bench.py", "--requests", "10", "--concurrency", "2", timeout=180)
    assert "POST actions (gm_note)" in out.stdout and "vs floor" in out.stdout


def test_rebuild_benchmark_runs_and_prints_its_table():
    out = run_script("benchmarks/rebuild_bench.py", "--reads", "2", timeout=180)
    assert "moves past snapshot" in out.stdout and "rebuilt p50 ms" in out.stdout


def test_subscribers_benchmark_runs_and_prints_its_table():
    out = run_script(
        "benchmarks/subscribers_bench.py", "--subscribers", "3", "--seconds", "0.5", "--moves", "2", timeout=120
    )
    assert "idle CPU % of a core" in out.stdout and "embedded" in out.stdout


def test_one_run_benchmark_runs_and_prints_figures_ratios_and_targets():
    """--quick: two tables, a quarter of a second per scenario, the embedded defaults; wrk when installed, else the
    in-process client (the script then says how to install wrk)."""
    out = run_script("benchmarks/bench.py", "--quick", timeout=300)
    for heading in (
        "ceiling (bare Starlette JSON POST, same uvicorn)",
        "x ceiling",
        "REST roll 3d10, one table",
        "GraphQL stepdice moves, 2 tables",
        "GET events, log of 1e3 events",
        "d20 same dice/s",
        "targets (issue 12), this run:",
        "machine at the start: a Python loop of 100,000 additions took",
        "machine at the end (",
    ):
        assert heading in out.stdout, heading


def test_in_process_benchmark_runs_alone_and_prints_both_engine_figures_and_the_roller():
    out = run_script("benchmarks/bench.py", "--only", "inprocess", "--quick", timeout=300)
    for heading in (
        "whole cycle: every move",
        "dice resolution: the cycle's moves that throw dice",
        "resolutions/s",
        "free-expression roller",
        "10d10e10",
        "targets (issue 12), in process",
    ):
        assert heading in out.stdout, heading
    assert "ceiling" not in out.stdout  # no servers were started


def test_middleware_benchmark_runs_and_prints_both_figures():
    out = run_script("benchmarks/middleware_bench.py", "--requests", "50", "--repeats", "1", timeout=120)
    for row in ("a read (~6,000 B JSON, logged, gzipped)", "/healthz"):
        line = next(line for line in out.stdout.splitlines() if line.strip().startswith(row))
        assert "whole app" in line and "router alone" in line and "layers" in line, line


def test_instruction_count_benchmark_runs_and_prints_a_count_for_each_scenario():
    """Under callgrind, two requests per scenario after one, on the embedded defaults."""
    out = run_script(
        "benchmarks/instructions.py", "--requests", "2", "--warm-up", "1", "--backends", "embedded", timeout=300
    )
    for scenario in ("GET state", "Step Dice move", "keyed move", "GraphQL web table read"):
        line = next(line for line in out.stdout.splitlines() if line.strip().startswith(scenario))
        assert float(line.split()[-1]) > 0, line
