import dataclasses
import sys
from pathlib import Path

import pytest

# apikit lives beside the API tests.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "api"))


@pytest.fixture
def settings(settings):
    """The app's own deadline loop stays out of the way: these tests run the scan themselves, on their clock."""
    return dataclasses.replace(settings, deadline_scan_seconds=3600.0)


@pytest.fixture(autouse=True)
def no_background_scans(request, monkeypatch):
    """The worker's loop would scan on its own at start-up, racing the test's scans; the loop has a test of its
    own (test_deadlines_durable.py)."""
    if "real_loop" not in request.fixturenames:
        from service.game.deadlines.worker import DeadlineWorker

        monkeypatch.setattr(DeadlineWorker, "start", lambda self: None)


@pytest.fixture
def real_loop():
    """Asked for by a test that runs the worker's own loop."""
