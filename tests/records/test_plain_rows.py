"""The plain rows reads build outside any session hold every column of their table: a character as moves read it
(CharacterRow), and a campaign as a read of the table first looks at it (CampaignRow)."""

from __future__ import annotations

from dataclasses import fields

from service.store.records.models import (
    CAMPAIGN_COLUMNS,
    CHARACTER_COLUMNS,
    Campaign,
    CampaignRow,
    Character,
    CharacterRow,
)


def test_a_character_row_has_exactly_the_tables_columns():
    assert [f.name for f in fields(CharacterRow)] == list(CHARACTER_COLUMNS)
    assert set(CHARACTER_COLUMNS) == {c.key for c in Character.__table__.columns}


def test_a_campaign_row_has_exactly_the_tables_columns():
    assert [f.name for f in fields(CampaignRow)] == list(CAMPAIGN_COLUMNS)
    assert set(CAMPAIGN_COLUMNS) == {c.key for c in Campaign.__table__.columns}
