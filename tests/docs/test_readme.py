"""The documentation's shell examples run, as written, against a live server; its commands and settings are real:
the README opens with the two commands, the operator's page names every setting, the rule systems' page every option
and move, and the client page's worked session runs."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import pytest
from doc_pages import FRONTEND, OPERATOR, README, ROOT, RULE_SYSTEMS, blocks


def test_readme_opens_with_the_two_commands():
    first, second = blocks("bash", README)[:2]
    assert "rulekeeper serve" in first and "pip install -c constraints.txt -e ." in first
    assert "pytest" in second and "-c constraints.txt -e '.[test]'" in second
    ci = (ROOT / ".ci" / "run").read_text()
    assert "pip install --quiet -c constraints.txt -e '.[test]'" in ci and "python -m pytest" in ci


def test_the_operators_page_documents_every_setting():
    settings_src = (ROOT / "service" / "settings.py").read_text() + (
        ROOT / "service" / "dice" / "verify_cli.py"
    ).read_text()
    for var in set(re.findall(r'"((?:RULEKEEPER|DATABASE|REDIS)_[A-Z_]+)"', settings_src)):
        assert f"`{var}`" in OPERATOR.read_text(), var


def test_the_rule_systems_page_names_every_rule_system_option_and_action():
    from service.rules.registry import SYSTEMS

    page = RULE_SYSTEMS.read_text()
    for system in SYSTEMS.values():
        assert f"(`{system.id}`)" in page, system.id
        for name in list(system.Options().model_dump()) + list(system.action_types):
            assert f"`{name}`" in page, f"{system.id}: {name}"


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_worked_session_and_verification_run_against_a_live_server(live_server):
    session = [b for b in blocks("bash", FRONTEND) if "field()" in b][0]
    rest = [b for b in blocks("bash", FRONTEND) if ("/graphql" in b or "VCAMPAIGN" in b) and "field()" not in b]
    script = "set -euo pipefail\n" + session + "\n".join(rest)
    env = {**os.environ, "RK": live_server}
    out = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.split("\n")
    assert "victory" in lines and "campaign_created" in lines
    assert "dice checked: 4" in out.stdout and "OK, every die verifies" in out.stdout, out.stdout


def test_the_configuration_is_one_table_with_one_row_per_setting():
    """A row with a cell too many or too few, or a line that is not a row, breaks the table where it stands."""
    section = OPERATOR.read_text().split("\n## Configuration\n", 1)[1].split("\n#", 1)[0]
    lines = section.strip().split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]])
    assert rows[0] == ["variable", "default", "meaning"] and set(rows[1]) <= {"---"}
    assert all(line.startswith("|") is False for line in lines[start + len(rows) :]), "a second table or a stray row"
    assert all(len(row) == 3 for row in rows), [row[0] for row in rows if len(row) != 3]
    names = [row[0] for row in rows[2:]]
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})
