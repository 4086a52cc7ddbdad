"""A character as moves read it (CharacterRow) holds every column of the characters table, in both readers."""

from __future__ import annotations

from dataclasses import fields

from service.store.records.models import CHARACTER_COLUMNS, Character, CharacterRow


def test_a_character_row_has_exactly_the_tables_columns():
    assert [f.name for f in fields(CharacterRow)] == list(CHARACTER_COLUMNS)
    assert set(CHARACTER_COLUMNS) == {c.key for c in Character.__table__.columns}
