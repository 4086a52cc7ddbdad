"""Rolling upgrades: the migration Job runs while the previous release still serves (docs/operator.md, Deploying), and
a replica stays ready on a database a newer release migrated. That holds only while migrations add: a
migration that drops or changes what the previous release uses must say so, so that the upgrade notes
tell operators to stop the old replicas first."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

VERSIONS = Path(__file__).resolve().parents[2] / "alembic" / "versions"
# Written before this rule, and each applied in its own release.
BEFORE_THE_RULE = {"0001", "0002", "0003"}
BREAKING = ("drop_table", "drop_column", "alter_column", "drop_constraint", "rename_table", "execute")
MARKER = "# breaks the previous release:"


def revision_of(tree: ast.Module) -> str:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "revision" for t in node.targets):
            return node.value.value
    raise AssertionError("no revision")


def _required_without_default(column: ast.expr) -> bool:
    keywords = {k.arg: k.value for k in getattr(column, "keywords", [])}
    nullable = keywords.get("nullable")
    required = isinstance(nullable, ast.Constant) and nullable.value is False
    return required and "server_default" not in keywords


@pytest.mark.parametrize("path", sorted(VERSIONS.glob("*.py")), ids=lambda p: p.name)
def test_a_migration_adds_or_says_it_breaks_the_previous_release(path):
    source = path.read_text()
    tree = ast.parse(source)
    if revision_of(tree) in BEFORE_THE_RULE:
        return
    (upgrade,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "upgrade"]
    calls = [n for n in ast.walk(upgrade) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)]
    breaking = sorted({c.func.attr for c in calls} & set(BREAKING))
    # A required column without a server default: the previous release's inserts would fail.
    breaking += [
        f"add_column({ast.unparse(c.args[-1])[:60]})"
        for c in calls
        if c.func.attr == "add_column" and c.args and _required_without_default(c.args[-1])
    ]
    assert not breaking or MARKER in source, (
        f"{path.name} upgrade() calls {breaking}: old replicas may fail on the migrated database. Make it additive, "
        f"or write '{MARKER} <why>' in it and in the release notes (stop the old replicas before the Job)."
    )
