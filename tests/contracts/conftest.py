"""Fuzzing modules left out of collection when `-m` deselects their tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from _pytest.mark.expression import Expression  # the -m grammar itself, so the decision is pytest's own

# Modules whose every test is marked `fuzz` and which are costly to collect: schemathesis builds each
# operation's test, with its coverage cases, at collection.
FUZZ_ONLY = {"test_schemathesis.py"}


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path.name not in FUZZ_ONLY:
        return None
    markexpr = config.getoption("markexpr")
    if not markexpr:
        return None
    # A test marked `fuzz` alone: would -m select it?
    return None if Expression.compile(markexpr).evaluate(lambda name, **_: name == "fuzz") else True
