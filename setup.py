"""Packaging hook: the migrations live in the repository's top-level alembic/ directory (where Alembic's
tools expect them) and ship inside the wheel as the `service.migrations` package, so an installed
`rulekeeper migrate` needs no checkout. Everything else is declared in pyproject.toml."""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["service", "service.*"]) + ["service.migrations", "service.migrations.versions"],
    package_dir={"service.migrations": "alembic"},
)
