"""A player who switches the page's language keeps it (issue 18: the event log in the reader's language, switchable;
a player's stored language applies): the switch also saves it as the player's own language through the public
API (PUT /v1/campaigns/{id}/players/{player_id}/language), and the same join link opened on another device, whose
browser asks for English, opens in it."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import httpx
from playwright.sync_api import expect
from tablekit import create_campaign, create_character, invite, page_url
from test_web_table_stepdice import WARRIOR


def test_a_player_s_language_switch_is_saved_and_followed_on_another_device(served, new_page):
    gm, player = new_page(), new_page()
    create_campaign(gm, page_url(served), system="stepdice", name="Skirmish", fields={"Language": "en"})
    link = invite(gm, "Ala")
    player.goto(link)
    create_character(player, WARRIOR)
    expect(player.locator("h2", has_text="Event log")).to_be_visible()
    player.get_by_label("Page language").select_option("pl")
    expect(player.locator("h2", has_text="Dziennik zdarzeń")).to_be_visible()
    expect(player.locator(".log")).to_contain_text("Zaproszono gracza Ala")

    seat = parse_qs(urlsplit(link).fragment)
    me = httpx.get(
        f"{served}/v1/campaigns/{seat['campaign'][0]}",
        headers={"Authorization": f"Bearer {seat['token'][0]}", "Accept-Language": "en"},
    ).json()
    assert [p["language"] for p in me["players"] if p["id"] == me["you"]["player_id"]] == ["pl"]

    phone = new_page(locale="en-US")
    phone.goto(link)
    expect(phone.locator("h2", has_text="Dziennik zdarzeń")).to_be_visible()
    expect(phone.get_by_label("Język strony")).to_have_value("pl")
    # The GM's page kept its own language: the player's choice is the player's.
    gm.reload()
    expect(gm.locator("h2", has_text="Event log")).to_be_visible()
    assert not player.errors and not phone.errors and not gm.errors, player.errors + phone.errors + gm.errors
