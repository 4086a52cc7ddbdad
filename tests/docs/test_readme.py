"""The README's shell examples run, as written, against a live server; its commands and settings are real."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def bash_blocks() -> list[str]:
    return re.findall(r"```bash\n(.*?)```", README, flags=re.S)


def test_readme_opens_with_the_two_commands():
    blocks = bash_blocks()
    assert "rulekeeper serve" in blocks[0] and "pip install -c constraints.txt -e ." in blocks[0]
    assert "pytest" in blocks[1] and "-c constraints.txt -e '.[test]'" in blocks[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "pip install --quiet -c constraints.txt -e '.[test]'" in ci and "python -m pytest" in ci


def test_readme_documents_every_setting():
    settings_src = (ROOT / "service" / "settings.py").read_text() + (ROOT / "service" / "dice" / "verify_cli.py").read_text()
    for var in set(re.findall(r'"((?:RULEKEEPER|DATABASE|REDIS)_[A-Z_]+)"', settings_src)):
        assert f"`{var}`" in README, var


def test_readme_names_every_rule_system_option_and_action():
    from service.rules.registry import SYSTEMS

    for system in SYSTEMS.values():
        assert f"(`{system.id}`)" in README, system.id
        for name in list(system.Options().model_dump()) + list(system.action_types):
            assert f"`{name}`" in README, f"{system.id}: {name}"


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_worked_session_and_verification_run_against_a_live_server(live_server):
    session = [b for b in bash_blocks() if "field()" in b][0]
    rest = [b for b in bash_blocks() if ("/graphql" in b or "VCAMPAIGN" in b) and "field()" not in b]
    script = "set -euo pipefail\n" + session + "\n".join(rest)
    env = {**os.environ, "RK": live_server}
    out = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.split("\n")
    assert "victory" in lines and "campaign_created" in lines
    assert "dice checked: 4" in out.stdout and "OK, every die verifies" in out.stdout, out.stdout
