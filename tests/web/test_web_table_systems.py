"""The other four systems at the web table, a GM and a player in two browser contexts, the page served from another
origin than the API, dice entered at the table: each plays one worked example of its spec (shared/rules) through
the page, and the player's page

- follows the GM's moves as they are made (no reload),
- draws the system's board (what the example changes is read off it, as a player reads it),
- never holds the example's GM-only strings (a GM's note, the GM's hidden scene elements, the GM's bennies),
- reads in Polish once switched to it.

Screenshots of each table, phone (375 px) and desktop, are kept under test-artifacts/web/."""

from __future__ import annotations

from playwright.sync_api import Page, expect
from tablekit import (
    assert_fits_a_phone_and_every_control_is_labelled,
    create_campaign,
    create_character,
    invite,
    move,
    page_url,
)

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 812}


def sit_down(gm: Page, player: Page, url: str, system: str, sheet: dict, fields: dict | None = None) -> None:
    create_campaign(gm, url, system=system, name=f"{system} night", fields={"Dice Mode": "table", **(fields or {})})
    player.goto(invite(gm, "Ola"))
    player.locator(".state").wait_for()
    create_character(player, sheet)
    expect(gm.locator("[data-testid=characters] .card")).to_have_count(1)


def board(page: Page, testid: str):
    return page.get_by_test_id(testid)


def screenshots(system: str, gm: Page, player: Page, artifacts) -> None:
    """The table in play kept as pictures: the player's on a phone and on a desktop, the GM's on a desktop; a
    phone's width respected and every control named on both pages."""
    for page in (gm, player):
        assert_fits_a_phone_and_every_control_is_labelled(page)
    player.screenshot(path=artifacts / f"{system}-phone.png", full_page=True)
    player.set_viewport_size(DESKTOP)
    player.screenshot(path=artifacts / f"{system}-desktop.png", full_page=True)
    gm.set_viewport_size(DESKTOP)
    gm.screenshot(path=artifacts / f"{system}-desktop-gm.png", full_page=True)
    player.set_viewport_size(PHONE)
    gm.set_viewport_size(PHONE)


def finish(gm: Page, player: Page, *, secrets: list[str], polish: list[str]) -> None:
    """What every system's example ends with: the GM-only strings only on the GM's page, no script error, and the
    player's page in Polish once the player picks it."""
    player.wait_for_timeout(300)  # as long again for anything the player's feed might still be sent
    for secret in secrets:
        assert secret in gm.content(), secret
        assert secret not in player.content(), secret
    player.get_by_label("Page language").select_option("pl")
    expect(player.locator("h2", has_text="Dziennik zdarzeń")).to_be_visible()
    for words in polish:
        expect(player.locator("main")).to_contain_text(words)
    assert not gm.errors and not player.errors, gm.errors + player.errors


# ---- Trikus: TK-E3, Michał persuades the merchant (a single opposed test; shared/rules/trikus.md) ----

MICHAL = {
    "Name": "Michał",
    "Tier": "master",
    "Light Sides": [{"Text": "loyal to his friends"}],
    "Dark Sides": [{"Text": "greedy"}, {"Text": "proud"}, {"Text": "short-tempered"}],
}
TK_SECRET = "the merchant reports to the Senator"


def test_TK_E3_michal_persuades_the_merchant_at_the_web_table(served, page_origin, new_page, artifacts):
    gm, player = new_page(), new_page()
    sit_down(gm, player, page_url(page_origin, api=served), "trikus", MICHAL)
    move(gm, "gm_note", {"Text": TK_SECRET}, offered=False)
    move(
        gm,
        "open_test",
        {
            "Character Ids": ["Michał"],
            "Gm Pool": 2,
            "Stakes Success": "the merchant frees Zuzia",
            "Stakes Failure": "Zuzia stays captive for a long time",
        },
        offered=False,
    )
    move(player, "join", {"Line Index": 0})  # offered to the player once the GM's invitation reached the page
    move(gm, "start")
    expect(board(player, "pool")).to_contain_text("GM dice 2")
    move(gm, "throw", {"Character Id": "—"})  # the GM's W1 die: hidden until the wave completes
    move(player, "throw", dice="5, 7")  # W1 revealed together: GM 5, Michał 7
    expect(board(player, "pool")).to_contain_text("Thrown:")
    screenshots("trikus", gm, player, artifacts)
    move(gm, "throw", {"Character Id": "—"}, dice="7")  # a tie is enough for the GM (L122)
    move(player, "throw", dice="1")
    move(player, "throw", dice="9")  # the GM is out of dice, Michał in control: success
    michal = player.locator("[data-testid=characters] .card", has_text="Michał")
    expect(michal).to_contain_text("Morale dice 1")  # morale 0 → 1
    expect(board(player, "resets")).to_contain_text("Party resets 1")  # Michał exhausted the party: a reset
    expect(michal.locator(".line").first).to_contain_text("free")  # and his line came back
    finish(gm, player, secrets=[TK_SECRET], polish=["Linie", "Kości morale 1"])


# ---- Danger Pool: DP-E1, Cyclops Jones pushes through the bar (shared/rules/danger_pool.md) ----

CYCLOPS = {
    "Name": "Cyclops",
    "Abilities (JSON)": '{"Wetwork": 3}',
    "Legends": "Lead Nightmare of Old Baghdad",
    "Equipment": "ivory-trimmed Colt 1911",
}
DP_SECRET = "the barman keeps a shotgun under the bar"


def test_DP_E1_cyclops_pushes_through_the_bar_at_the_web_table(served, page_origin, new_page, artifacts):
    gm, player = new_page(), new_page()
    sit_down(
        gm,
        player,
        page_url(page_origin, api=served),
        "danger_pool",
        CYCLOPS,
        {"Options": {"Danger pool at the start": 4}},
    )
    move(
        gm,
        "create_action_scene",
        {
            "Goal": "push through the bar",
            "Leader Id": "Cyclops",
            "Team": ["Cyclops"],
            "Progress Track Length": 8,
            "Elements": [{"Text": DP_SECRET}],
        },
        offered=False,
    )
    move(gm, "start_scene")
    # The GM's scene reached the player's page as it was made: its pool and its track, not its hidden element.
    expect(board(player, "danger-dice")).to_contain_text("Danger pool 4")
    expect(board(player, "progress")).to_contain_text("Progress 0/8")
    expect(board(gm, "hidden-elements")).to_contain_text(DP_SECRET)
    # Wetwork 3 + a legend + the Colt: 5 dice, rolled 10 10 6 6 5; the danger's 4 roll 9 8 7 2.
    move(
        player,
        "declare_action",
        {
            "Kind": "push",
            "Approach": "shoots his way through the bar",
            "Ability": "Wetwork",
            "Legends": ["Lead Nightmare of Old Baghdad"],
            "Equipment": "ivory-trimmed Colt 1911",
        },
        dice="10, 10, 6, 6, 5, 9, 8, 7, 2",
    )
    expect(board(player, "last-roll")).to_contain_text("Rolled")
    move(gm, "confirm_roll")  # the GM's element could reroll the danger dice (§5.2): the GM lets the roll stand
    expect(board(player, "last-roll")).to_contain_text("win")
    expect(board(player, "progress")).to_contain_text("Progress 2/8")  # two dice above the danger's 9
    expect(board(player, "danger-dice")).to_contain_text("Danger pool 4")  # no player 1s: the danger stays
    expect(player.locator("[data-testid=characters] .card")).to_contain_text("Stamina 3/3")  # no danger 10s
    assert board(player, "hidden-elements").count() == 0
    move(gm, "gm_note", {"Text": "the alarm goes off next round"}, offered=False)
    screenshots("danger_pool", gm, player, artifacts)
    finish(gm, player, secrets=[DP_SECRET, "the alarm goes off next round"], polish=["Pula zagrożenia 4", "Postęp 2/8"])


# ---- Iskra: IS-E1, the chasm fall and Focus Points, vector A (shared/rules/iskra.md) ----

ALA = {
    "Name": "Ala",
    "Species": "elf",
    "Strength": 2,
    "Dexterity": 2,
    "Intelligence": 2,
    "Charisma": 2,
    "Predispositions": [{"Label": "Sneaking"}],
    "Weaknesses": [{"Label": "Public speaking"}],
    "Abilities": [{"Ability Id": "light_step"}, {"Ability Id": "efficiency"}],
}
IS_SECRET = "an Ether vein runs under the chasm"


def test_IS_E1_two_focus_points_save_ala_from_the_chasm_at_the_web_table(served, page_origin, new_page, artifacts):
    gm, player = new_page(), new_page()
    sit_down(gm, player, page_url(page_origin, api=served), "iskra", ALA)
    move(gm, "approve_character", {"Character Id": "Ala"}, offered=False)
    move(gm, "gm_note", {"Text": IS_SECRET, "Visible To Players": False}, offered=False)
    ala = player.locator("[data-testid=characters] .card", has_text="Ala")
    # The example starts from health 3 (illustrative): two Wounds from a hazard first.
    move(gm, "deal_damage", {"Character Id": "Ala", "Wounds": 2, "Source": "hazard"}, offered=False)
    move(player, "accept_damage")
    expect(ala).to_contain_text("Health 3/5")
    expect(ala).to_contain_text("XP 2")
    move(
        gm,
        "deal_damage",
        {"Character Id": "Ala", "Wounds": 5, "Source": "fall", "Description": "falls into a chasm"},
        offered=False,
    )
    expect(board(player, "pending")).to_contain_text("5")  # the fall's 5 Wounds wait for the player
    move(player, "reduce_damage", {"Amount": 2, "Description": "grabs a root sticking out of the wall"})
    move(gm, "approve_focus")
    move(player, "accept_damage")
    expect(ala).to_contain_text("Health 0/5")  # 5 − 2 = 3 Wounds: health 3 → 0, alive
    expect(ala).to_contain_text("Death's Door")
    expect(ala).to_contain_text("alive")
    expect(ala).to_contain_text("Focus points 3/5")  # 5 → 3
    expect(ala).to_contain_text("XP 5")  # +3
    screenshots("iskra", gm, player, artifacts)
    finish(gm, player, secrets=[IS_SECRET], polish=["Zdrowie 0/5", "Punkty skupienia 3/5"])


# ---- Action Deck: AD-E17, a benny card draw, then AD-E21's session close (shared/rules/action_deck.md) ----

ANN = {
    "Name": "Ann",
    "Attributes (JSON)": '{"agility": "d6", "smarts": "d6", "spirit": "d6", "strength": "d6", "vigor": "d6"}',
    "Skills (JSON)": '{"fighting": "d8", "notice": "d6"}',
}


def test_AD_E17_ann_spends_a_benny_on_a_card_at_the_web_table(served, page_origin, new_page, artifacts):
    gm, player = new_page(), new_page()
    sit_down(gm, player, page_url(page_origin, api=served), "action_deck", ANN)
    move(gm, "open_session", {"Players": [{"Player Id": "Ola", "Character Ids": ["Ann"]}]})
    expect(board(player, "bennies")).to_contain_text("Ola: 3")
    move(gm, "start_encounter", {"Participants": ["Ann"]})
    move(gm, "deal", {"Cards": "3C"})
    expect(board(player, "initiative")).to_contain_text("3♣ Ann")
    # Ann holds 3♣, spends a benny: draws J♥ and keeps it; 3♣ goes to the discard pile.
    move(player, "draw_extra_card", {"Card": "JH"})
    move(player, "keep_card", {"Card": "JH"})
    expect(board(player, "initiative")).to_contain_text("J♥ Ann")
    expect(board(player, "deal")).to_contain_text("Discarded: 3♣")
    expect(board(player, "bennies")).to_contain_text("Ola: 2")
    move(gm, "call_next")
    expect(board(player, "initiative").locator("li.current")).to_contain_text("Ann")
    screenshots("action_deck", gm, player, artifacts)
    expect(board(gm, "gm-bennies")).to_contain_text("GM pool 1")
    assert board(player, "gm-bennies").count() == 0
    # AD-E21: at the session's close every benny goes, the player's 2 unspent and the GM's pool.
    move(gm, "end_encounter", offered=False)  # the GM may end the fight at any moment: not awaited, offered
    move(gm, "close_session")
    expect(board(player, "bennies")).to_contain_text("Ola: 0")
    expect(gm.locator(".log")).to_contain_text("The GM's bennies were discarded")
    finish(gm, player, secrets=["The GM's bennies were discarded", "GM pool"], polish=["Fuksy", "Ola: 0"])


# Each system's worked example's character and one move that changes the table, for the tests that need a table in
# play without the example's story (tests/web/test_web_graphql_table.py).
SYSTEMS = {
    "trikus": {"sheet": MICHAL, "by": "gm", "move": ("gm_note", {"Text": "the storm is coming"})},
    "danger_pool": {"sheet": CYCLOPS, "by": "gm", "move": ("gm_note", {"Text": "the bar is quiet"})},
    "iskra": {"sheet": ALA, "by": "gm", "move": ("approve_character", {"Character Id": "Ala"})},
    "action_deck": {"sheet": ANN, "by": "player", "move": ("trait_test", {"Trait": "fighting"})},
}
