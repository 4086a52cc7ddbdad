"""Packaging hook: the migrations live in the repository's top-level alembic/ directory (where Alembic's
tools expect them) and ship inside the wheel as the `service.migrations` package, so an installed
`rulekeeper migrate` needs no checkout. Everything else is declared in pyproject.toml.

The folders of data only (the catalogues, the web table's page) are found as namespace packages: as plain
folders setuptools warns, once per folder at every install, that it would ignore them, though their files ship
as package data either way (the wheel's contents are the same)."""

from setuptools import find_namespace_packages, setup

setup(
    packages=find_namespace_packages(include=["service", "service.*"])
    + ["service.migrations", "service.migrations.versions"],
    package_dir={"service.migrations": "alembic"},
)
