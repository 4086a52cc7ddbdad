"""The wheel is what the image installs (deploy/Dockerfile): it carries the migrations, and an installed
`rulekeeper migrate`, run far from any checkout, upgrades a database to head."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory

from service.store.records.db import alembic_config

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    # Built from a copy, as the image's builder stage does: no build/ left over from an earlier build can slip
    # into it, and nothing is written into the checkout.
    source = tmp_path_factory.mktemp("source") / "rulekeeper"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv*", "build", "dist", "*.egg-info", "__pycache__", ".hypothesis", "*.db*", "node_modules"
        ),
    )
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", str(source), "-w", str(out)],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    (built,) = out.glob("rulekeeper-*.whl")
    return built


def test_the_wheel_carries_every_migration_and_no_tests(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    shipped = {Path(n).name for n in names if n.startswith("service/migrations/versions/") and n.endswith(".py")}
    assert shipped == {p.name for p in (ROOT / "alembic" / "versions").glob("*.py")}
    assert "service/migrations/env.py" in names and "service/migrations/script.py.mako" in names
    assert not [n for n in names if n.startswith(("tests/", "alembic/", "deploy/"))]
    assert {f"service/locale/{lang}/LC_MESSAGES/rulekeeper.po" for lang in ("en", "pl", "ru")} <= set(names)
    # The web table is served from the installed package, every file as written.
    static = ROOT / "service" / "web" / "static"
    assert {f"service/web/static/{f.relative_to(static).as_posix()}" for f in static.rglob("*") if f.is_file()} <= set(
        names
    )


def test_an_installed_wheel_migrates_a_database_from_outside_any_checkout(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    # The wheel's own dependencies come from this test run's environment, after the wheel itself and without
    # its .pth files (the editable install of this checkout is one of them).
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "zz_dependencies.pth").write_text("\n".join(sorted(deps)) + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    db = tmp_path / "fresh.db"
    env["DATABASE_URL"] = f"sqlite:///{db}"

    where = subprocess.run(
        [str(python), "-c", "import service; print(service.__file__)"],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert where.startswith(str(venv)), where
    # The catalogues come with the wheel: an installed service answers in Polish.
    polish = subprocess.run(
        [
            str(python),
            "-c",
            "from service.i18n.message import _; from service.i18n.render import "
            "render; print(render(_('campaign not found'), 'pl'))",
        ],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert polish.strip() == "nie znaleziono kampanii"
    done = subprocess.run(
        [str(venv / "bin" / "rulekeeper"), "migrate"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "database at head" in done.stdout

    with sqlite3.connect(db) as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        (revision,) = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    assert {"campaigns", "events", "moves", "snapshots", "live_entries"} <= tables
    assert revision == ScriptDirectory.from_config(alembic_config()).get_current_head()
