"""The plain rows reads build outside any session hold every column of their table: a character as moves read it
(CharacterRow), a campaign as a read of the table first looks at it (CampaignRow), and an event as a move appends
it or a page of the log reads it (EventRow: every column but the key the database numbers)."""

from __future__ import annotations

from dataclasses import fields

from service.game.log.events import EVENT_COLUMNS, EventRow
from service.store.records.models import (
    CAMPAIGN_COLUMNS,
    CHARACTER_COLUMNS,
    Campaign,
    CampaignRow,
    Character,
    CharacterRow,
    EventRecord,
)


def test_a_character_row_has_exactly_the_tables_columns():
    assert [f.name for f in fields(CharacterRow)] == list(CHARACTER_COLUMNS)
    assert set(CHARACTER_COLUMNS) == {c.key for c in Character.__table__.columns}


def test_a_campaign_row_has_exactly_the_tables_columns():
    assert [f.name for f in fields(CampaignRow)] == list(CAMPAIGN_COLUMNS)
    assert set(CAMPAIGN_COLUMNS) == {c.key for c in Campaign.__table__.columns}


def test_an_event_row_has_every_column_of_the_events_table_but_its_numbered_key():
    assert [f.name for f in fields(EventRow)] == list(EVENT_COLUMNS)
    assert set(EVENT_COLUMNS) == {c.key for c in EventRecord.__table__.columns} - {"id"}
