"""Importing the app (service/asgi.py) settles what the import made before the collector resumes
(service/heap.py settle_import): frozen, out of every generation the collector walks, with nothing left young."""

from __future__ import annotations

import subprocess
import sys

# A process of its own: this one has its own heap settled after collection (tests/conftest.py), and importing
# service.asgi here would configure the worker's logging.
PROBE = "import gc, service.asgi; print(gc.isenabled(), gc.get_freeze_count(), gc.get_count()[0])"


def test_importing_the_app_freezes_what_it_made_and_resumes_the_collector():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, check=True)
    enabled, frozen, young = out.stdout.split()
    assert enabled == "True"
    assert int(frozen) > 200_000  # the modules, the models, the GraphQL schema
    assert int(young) < 1_000  # not the import's objects, which the first young collection would walk
