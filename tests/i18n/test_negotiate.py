"""Accept-Language, then the player's language, then the campaign's, then English (docs/frontend.md, Languages)."""

from __future__ import annotations

import pytest

from service.i18n.negotiate import accepted, choose


@pytest.mark.parametrize(
    "header, expected",
    [
        ("pl", ["pl"]),
        ("pl-PL,pl;q=0.9,en-US;q=0.8,en;q=0.7", ["pl", "en"]),
        ("en;q=0.2, ru;q=0.9, pl;q=0.5", ["ru", "pl", "en"]),
        ("RU-ru", ["ru"]),
        ("de, fr;q=0.9, *;q=0.1", []),
        ("pl;q=0, en", ["en"]),
        ("pl;q=abc, ru", ["ru"]),
        ("pl;q=2, ru;q=0.5", ["ru"]),
        ("en, pl", ["en", "pl"]),  # equal q: the header's order
        ("", []),
    ],
)
def test_accept_language_ranks_the_supported_languages_by_q_value(header, expected):
    assert accepted(header) == expected


def test_the_header_comes_first_then_the_player_then_the_campaign_then_english():
    assert choose("ru", player="pl", campaign="en") == "ru"
    assert choose(None, player="pl", campaign="ru") == "pl"
    assert choose("de", player=None, campaign="ru") == "ru"
    assert choose("*", player=None, campaign=None) == "en"
    assert choose(None, player="xx", campaign="yy") == "en"


def test_a_huge_header_is_read_only_so_far():
    assert accepted("de;q=0.5," * 10_000 + "pl") == []
