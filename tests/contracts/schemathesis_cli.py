"""Running the schemathesis CLI against a live server, for tests/contracts/test_schemathesis_cli.py (every check,
every phase, as a GM, a player and without credentials) and tests/contracts/test_schemathesis.py (each rule
system's bodies, and every other operation, as the GM).

The CLI generates its cases when it runs, in its own process: the pytest plugin built them while the module was
collected (the coverage phase's ~15,000 cases, half a minute), again in every xdist worker and in every developer's
`pytest` run.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from service.api.rest.openapi import build

HERE = Path(__file__).resolve().parent / "schemathesis"
# Hypothesis, which generates the CLI's cases, keeps the Unicode tables it derives (which characters UTF-8 encodes:
# 1.4 s of CPU over every code point) in its storage directory, by default `.hypothesis` in the working directory.
# Each run works in a directory of its own, so each derived them again; the checkout's `.hypothesis` (ignored by
# git, where the in-process tests keep theirs) lets every run after the first read them.
STORAGE = Path(__file__).resolve().parents[2] / ".hypothesis"
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
DEEP = "FUZZ_EXAMPLES" in os.environ
# CI runs a quick pass; FUZZ_EXAMPLES=500 digs deeper by hand.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "20"))
BEARER = """
[auth.openapi.bearer]
bearer = "${RK_TOKEN}"
"""


@functools.cache
def narrowed(system: str) -> dict[str, Any]:
    """The document narrowed to one rule system, built once per test process (about a second of CPU, nearly all
    pydantic JSON Schema; each run asked for its own twice). Callers read it and must not change it."""
    return build([system])


def new_campaign(base: str, system: str, dice_mode: str = "server") -> tuple[str, str]:
    """A campaign of `system`: its id and its GM's token."""
    r = httpx.post(f"{base}/v1/campaigns", json={"name": "contract", "system": system, "dice_mode": dice_mode})
    assert r.status_code == 201, r.text
    return r.json()["campaign"]["id"], r.json()["gm_token"]


def run_schemathesis(
    base: str,
    campaign: str,
    token: str | None,
    tmp_path: Path,
    *,
    document: dict | None,
    phases: str,
    checks: str = "all",
    extra_config: str = "",
    options: tuple[str, ...] = (),
) -> Counter:
    """Run the CLI against `document` (None: the server's own /openapi.json) with every campaign request
    addressed to `campaign`; fail on any failure; return how many campaign requests (status < 400 and not 401)
    each phase got answered, so a run that never got past authentication cannot pass for one that did."""
    config = (HERE / "schemathesis.toml").read_text() + extra_config + (BEARER if token else "")
    (tmp_path / "schemathesis.toml").write_text(config)
    shutil.copy(HERE / "hooks.py", tmp_path / "hooks.py")
    if document is None:
        location = [f"{base}/openapi.json"]
    else:
        (tmp_path / "openapi.json").write_text(json.dumps(document))
        location = ["openapi.json", "--url", base]
    env = {
        "HYPOTHESIS_STORAGE_DIRECTORY": str(STORAGE),
        **os.environ,
        "RK_CAMPAIGN": campaign,
        "RK_TOKEN": token or "",
        "RK_SERVED": str(tmp_path / "served.tsv"),
    }
    cmd = [
        str(SCHEMATHESIS),
        "--config-file",
        "schemathesis.toml",
        "run",
        *location,
        "--checks",
        checks,
        "--phases",
        phases,
        "--max-examples",
        str(EXAMPLES),
        "--workers",
        "1",
        "--no-color",
        "--generation-database",
        "none",
        "--suppress-health-check",
        "all",
        *options,
    ]
    done = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"schemathesis found failures ({' '.join(cmd)}):\n{done.stdout}\n{done.stderr}"
    return served(tmp_path / "served.tsv")


def served(tally: Path) -> Counter:
    """Per phase, the generated requests answered (`<phase> sent`; a check's own extra requests are not counted)
    and those to a campaign's operations answered with success (`<phase>`), from the tally the run's after_call
    hook wrote (schemathesis/hooks.py)."""
    out: Counter = Counter()
    for line in tally.read_text().splitlines() if tally.exists() else ():
        phase, status, path = line.split("\t", 2)
        out[phase + " sent"] += 1
        if "{campaign_id}" in path and 200 <= int(status) < 300:
            out[phase] += 1
    return out
