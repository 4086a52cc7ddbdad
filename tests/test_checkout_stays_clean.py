"""A clean clone stays clean after a test run: the caches the suite writes (schemathesis, hypothesis, pytest)
are neither tracked nor reported as new files."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CACHES = (".schemathesis", ".hypothesis", ".pytest_cache")

pytestmark = pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout"
)


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False).stdout


@pytest.mark.parametrize("cache", CACHES)
def test_cache_directories_the_suite_writes_are_not_tracked(cache):
    assert git("ls-files", "--", cache) == ""


@pytest.mark.parametrize("cache", CACHES)
def test_cache_directories_the_suite_writes_are_ignored(cache):
    # check-ignore prints the path when a rule ignores it; --no-index asks the rules, not what is tracked.
    assert git("check-ignore", "--no-index", f"{cache}/default/cache.json").strip() == f"{cache}/default/cache.json"
