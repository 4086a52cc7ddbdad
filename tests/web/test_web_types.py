"""The web table is typed against the GraphQL types graphql-codegen generates from schema/ and the page's own
operations (issue 18: typed against the generated GraphQL types, the type check in the suite): the committed
web/types/graphql.ts is what codegen makes of them now, and `tsc --noEmit --checkJs` passes over the page's modules.

The tooling is web/'s package-lock.json, installed by `npm ci` in web/ (.ci/run does it). Without node or the
installed tooling these tests skip, and fail under CI=true."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from servers import in_ci

WEB = Path(__file__).resolve().parents[2] / "web"


def need_tooling() -> str:
    node = shutil.which("node")
    missing = (
        "node is not installed (apt-get install nodejs npm)"
        if node is None
        else "web/node_modules is missing (run `npm ci` in web/)"
        if not (WEB / "node_modules" / ".bin" / "tsc").exists()
        else None
    )
    if missing:
        if in_ci():
            pytest.fail(f"{missing}; CI=true requires it", pytrace=False)
        pytest.skip(missing)
    assert node is not None
    return node


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=WEB, capture_output=True, text=True, timeout=300, check=False)


def test_the_committed_graphql_types_are_what_codegen_makes_of_the_schema_and_the_page_s_operations():
    node = need_tooling()
    done = run(node, "codegen-check.mjs")
    assert done.returncode == 0, done.stderr
    name, _, content = done.stdout.partition("\n")
    assert name == "types/graphql.ts"
    assert (WEB / name).read_text() == content, (
        "web/types/graphql.ts drifted from schema/ or the page's operations: run `npm run codegen` in web/"
    )


def test_the_page_s_modules_pass_the_type_check():
    node = need_tooling()
    done = run(node, "node_modules/typescript/bin/tsc", "--noEmit", "--checkJs", "-p", "tsconfig.json")
    assert done.returncode == 0, done.stdout + done.stderr
