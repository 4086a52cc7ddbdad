"""A message keeps its template and parameters until the API renders it; as a `str` it is English."""

from __future__ import annotations

import copy
import pickle

from service.i18n.context import using
from service.i18n.message import Message, _
from service.i18n.render import render


def test_a_message_is_its_english_text():
    m = _("no clock {clock_id!r}", clock_id="c1")
    assert m == "no clock 'c1'" and isinstance(m, str) and "c1" in m
    assert m.msgid == "no clock {clock_id!r}" and m.params == {"clock_id": "c1"}


def test_it_renders_in_the_asked_language_and_in_the_requests():
    m = _("no player {player_id} in this campaign", player_id="p1")
    assert render(m, "pl") == "w tej kampanii nie ma gracza p1"
    assert render(m, "ru") == "в этой кампании нет игрока p1"
    with using("ru"):
        assert render(m) == "в этой кампании нет игрока p1"
    assert render(m) == str(m)


def test_a_message_inside_a_message_is_rendered_too():
    inner = _("campaign not found")
    outer = _("{detail} (the export holds every die, the sealed ones too)", detail=inner)
    assert render(outer, "pl") == "nie znaleziono kampanii (eksport zawiera każdą kość, także zapieczętowane)"


def test_plain_text_that_is_a_message_id_is_translated_and_other_text_is_kept():
    assert render("campaign not found", "ru") == "кампания не найдена"
    assert render("some words the catalogue lacks", "ru") == "some words the catalogue lacks"


def test_a_message_survives_pickling_and_copying():
    m = _("only {count} move(s) can be undone", count=2)
    for again in (pickle.loads(pickle.dumps(m)), copy.deepcopy(m)):
        assert isinstance(again, Message) and again == m and again.params == {"count": 2}


def test_a_library_worded_message_keeps_its_english_and_translates():
    m = Message.worded("Input should be a valid string, got 3", "Input should be a valid string")
    assert str(m) == "Input should be a valid string, got 3"
    assert render(m, "pl") == "Wartość powinna być tekstem"
