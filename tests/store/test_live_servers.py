"""The server fixtures skip an unreachable server locally but fail it under CI=true.

Runs the real conftest.py in a child pytest against ports nothing listens on.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path


PROBE = """
async def test_postgres(postgres_engine):
    pass

async def test_redis(redis_namespace):
    pass

async def test_postgres_again(postgres_engine):  # served from the "down" cache, no new timeout
    pass
"""


def _run(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    shutil.copy(Path(__file__).with_name("conftest.py"), tmp_path / "conftest.py")
    shutil.copy(Path(__file__).parents[1] / "servers.py", tmp_path / "servers.py")
    (tmp_path / "test_probe.py").write_text(PROBE)
    (tmp_path / "pytest.ini").write_text("[pytest]\nasyncio_mode = auto\n")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["TEST_DATABASE_URL"] = "postgresql://postgres@127.0.0.1:1/test"  # also checks driver fix-up
    env["TEST_REDIS_URL"] = "redis://127.0.0.1:1/0"
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(__file__).resolve().parents[2]), env.get("PYTHONPATH", "")]
    )  # the repo root
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_unreachable_servers_are_skipped_locally(tmp_path: Path) -> None:
    result = _run(tmp_path, ci=None)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 skipped" in result.stdout
    assert "postgres unreachable" in result.stdout and "redis unreachable" in result.stdout


def test_unreachable_servers_fail_under_ci(tmp_path: Path) -> None:
    result = _run(tmp_path, ci="true")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "3 errors" in result.stdout and "skipped" not in result.stdout
    assert "CI=true requires it" in result.stdout
