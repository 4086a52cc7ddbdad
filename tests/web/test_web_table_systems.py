"""The other four systems at the web table: the GM sets the campaign up from the system's option schema, the
player creates a character from the system's sheet schema (lists of rows, nested groups and free maps as the
form offers them), and one move is made through the page (a GM's note, which these systems keep from the
players: the player's page never holds it); the table is drawn for a phone."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect
from tablekit import (assert_fits_a_phone_and_every_control_is_labelled, create_campaign, create_character, invite, move,
                      page_url)

SYSTEMS = {
    "trikus": {
        "sheet": {"Name": "Wren", "Tier": "beginner", "Light Sides": [{"Text": "kind"}, {"Text": "brave"}, {"Text": "quick"}],
                  "Dark Sides": [{"Text": "jealous"}]},
        "by": "gm", "move": ("gm_note", {"Text": "the storm is coming"}), "gm_only": "the storm is coming",
    },
    "danger_pool": {
        "sheet": {"Name": "Cyclops", "Abilities (JSON)": '{"Wetwork": 3}', "Legends": "Lead Nightmare of Old Baghdad",
                  "Equipment": "ivory-trimmed Colt 1911"},
        "by": "gm", "move": ("gm_note", {"Text": "the bar is quiet"}), "gm_only": "the bar is quiet",
    },
    "iskra": {
        "sheet": {"Name": "Ala", "Species": "elf", "Strength": 2, "Dexterity": 2, "Intelligence": 2, "Charisma": 2,
                  "Predispositions": [{"Label": "Sneaking"}], "Weaknesses": [{"Label": "Public speaking"}],
                  "Abilities": [{"Ability Id": "light_step"}, {"Ability Id": "efficiency"}]},
        "by": "gm", "move": ("approve_character", {"Character Id": "Ala"}), "shows": "approved",
    },
    "action_deck": {
        "sheet": {"Name": "Hero", "Attributes (JSON)": '{"agility": "d6", "smarts": "d6", "spirit": "d6", '
                                                        '"strength": "d6", "vigor": "d6"}',
                  "Skills (JSON)": '{"fighting": "d8", "notice": "d6"}'},
        "by": "player", "move": ("trait_test", {"Trait": "fighting"}), "shows": "trait_test",
    },
}


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_campaign_a_character_and_a_move_at_the_web_table(system, served, new_page, artifacts):
    case = SYSTEMS[system]
    gm, player = new_page(), new_page()
    create_campaign(gm, page_url(served), system=system, name=f"{system} night")
    player.goto(invite(gm, "Ala"))
    player.locator(".state").wait_for()
    assert_fits_a_phone_and_every_control_is_labelled(player)  # the character's form is open
    create_character(player, case["sheet"])
    expect(gm.locator(".card")).to_have_count(1)
    kind, values = case["move"]
    mover = gm if case["by"] == "gm" else player
    move(mover, kind, values, offered=False)
    if "gm_only" in case:
        # The system's GM notes are the GM's alone: the GM's page shows it, the player's never holds it.
        expect(gm.locator(".log")).to_contain_text(case["gm_only"])
        player.wait_for_timeout(500)  # as long again for anything the player's feed might have been sent
        assert case["gm_only"] not in player.content()
    else:
        expect(player.locator(".log")).to_contain_text(case["shows"])
    expect(player.locator(".card").first).to_be_visible()
    player.screenshot(path=artifacts / f"{system}-phone.png", full_page=True)
    for page in (gm, player):
        assert_fits_a_phone_and_every_control_is_labelled(page)
    assert not gm.errors and not player.errors, gm.errors + player.errors
