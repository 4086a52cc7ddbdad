"""Every relative link in the documentation resolves: to a file or folder of the repository, and, where it names a
heading (`page.md#heading`, or `#heading` on the same page), to a heading of that page, slugged as GitHub does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from doc_pages import ROOT, pages

# Linked before it is written: a page another change adds. The test fails once the page exists, so that the entry is
# removed and its links are checked like every other.
NOT_YET_WRITTEN: set = set()

LINK = re.compile(r"\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)\)")


def _prose(text: str) -> str:
    """The page without its fenced code blocks: a link or heading inside one is an example, not a reference."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped (letters of any script kept), spaces to hyphens."""
    text = re.sub(r"[`*_]|<[^>]+>", "", heading).strip().lower()
    return "".join(c for c in text if c.isalnum() or c in " -_").replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for heading in re.findall(r"^#{1,6} (.+)$", _prose(page.read_text()), flags=re.M):
        base = slug(heading)
        out.add(base if base not in seen else f"{base}-{seen[base]}")
        seen[base] = seen.get(base, 0) + 1
    return out


def _file(page: Path, target: str) -> Path:
    path = target.partition("#")[0]
    return (page.parent / path).resolve() if path else page


def relative_links() -> list[tuple[Path, str]]:
    out = []
    for page in pages():
        for target in LINK.findall(_prose(page.read_text())):
            if not re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto: are not the repository's
                out.append((page, target))
    return out


LINKS = [(page, target) for page, target in relative_links() if _file(page, target) not in NOT_YET_WRITTEN]


def test_the_pages_link_to_one_another():
    linked = {(page.relative_to(ROOT).as_posix(), target.split("#")[0]) for page, target in relative_links()}
    for page in (
        "docs/frontend.md",
        "docs/operator.md",
        "docs/contributing.md",
        "docs/rule-systems.md",
        "benchmarks/README.md",
    ):
        assert ("README.md", page) in linked, f"the README does not point to {page}"


def test_pages_not_yet_written_are_linked_and_still_missing():
    for page in NOT_YET_WRITTEN:
        assert not page.exists(), f"{page.relative_to(ROOT)} exists now: take it out of NOT_YET_WRITTEN"
        assert any(_file(p, t) == page for p, t in relative_links()), f"nothing links to {page.relative_to(ROOT)}"


@pytest.mark.parametrize(("page", "target"), LINKS, ids=[f"{p.relative_to(ROOT)}:{t}" for p, t in LINKS])
def test_every_relative_link_resolves(page: Path, target: str):
    file, fragment = _file(page, target), target.partition("#")[2]
    assert file.exists(), f"{page.relative_to(ROOT)} links to {target}: no such file"
    assert file.is_relative_to(ROOT), f"{page.relative_to(ROOT)} links outside the repository: {target}"
    if fragment and file.suffix == ".md":
        assert fragment in anchors(file), f"{page.relative_to(ROOT)} links to {target}: no such heading"


def test_slugs_are_githubs():
    assert slug("Turn deadlines: the table's clock") == "turn-deadlines-the-tables-clock"
    assert slug("The `rulekeeper` command") == "the-rulekeeper-command"
    assert slug("A worked session (curl)") == "a-worked-session-curl"
    assert slug("Latest figures (measured 2026-11-25)") == "latest-figures-measured-2026-11-25"


# Paths the pages name that are not in the checkout by design: where setup.py puts alembic/ inside the wheel.
BUILT = {"service/migrations"}
TOP = ("service/", "tests/", "benchmarks/", "deploy/", "openapi/", "schema/", "alembic/", "docs/", ".ci/")


def named_paths() -> list[tuple[Path, str]]:
    """Repository paths a page names in code spans or bare in parentheses, placeholders (`<system>`) left out."""
    out = []
    for page in pages():
        prose = _prose(page.read_text())
        for token in re.findall(r"`([^`\s]+)`", prose) + re.findall(
            r"\(((?:service|tests|benchmarks)/[\w/.]+)\)", prose
        ):
            path = token.rstrip(".,:;").split("::")[0]
            if path.startswith(TOP) and not re.search(r"[<>{}*…]", path) and path not in BUILT:
                out.append((page, path))
    return out


def test_every_path_a_page_names_exists():
    missing = [f"{page.relative_to(ROOT)}: {path}" for page, path in named_paths() if not (ROOT / path).exists()]
    assert len(named_paths()) > 30
    assert not missing, missing
