"""A typed Python client generated from the checked-in OpenAPI document works, as a front end would use it.

openapi-python-client skips an operation (or a schema) it cannot type and says so in a warning; the document
must generate with none, and the client it gives must create a campaign, a character and make a move against
a real server.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from openapi_document import checked_in

BIN = Path(sys.executable).parent


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("client")
    # The checked-in document, given to the generator as JSON: it reads YAML with a pure-Python parser (ruamel's),
    # about a quarter of its run over this document, and JSON with the json module.
    document = out / "openapi.json"
    document.write_text(json.dumps(checked_in()))
    # The generator formats its output with ruff, which it finds on PATH.
    done = subprocess.run(
        [str(BIN / "openapi-python-client"), "generate", "--path", str(document), "--meta", "none"],
        cwd=out,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": f"{BIN}:/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out, done.stdout + done.stderr


def test_the_client_generates_without_a_warning(generated):
    _, output = generated
    assert "warning" not in output.lower(), output
    assert "skipping" not in output.lower(), output


def test_the_client_has_every_operation(generated):
    out, _ = generated
    doc = checked_in()
    wanted = {_snake(op["operationId"]) for item in doc["paths"].values() for op in item.values()}
    made = {p.stem for p in (out / "rulekeeper_client" / "api").glob("*/*.py") if p.stem != "__init__"}
    assert wanted - made == set()
    assert len(wanted) == len(made)


@pytest.fixture
def client_package(generated):
    out, _ = generated
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module("rulekeeper_client")
    finally:
        sys.path.remove(str(out))
        for name in [n for n in sys.modules if n == "rulekeeper_client" or n.startswith("rulekeeper_client.")]:
            del sys.modules[name]


def test_the_generated_client_plays_a_move_on_a_live_server(client_package, live_server):
    from rulekeeper_client import AuthenticatedClient
    from rulekeeper_client.api.campaigns import create_campaign
    from rulekeeper_client.api.characters import create_character
    from rulekeeper_client.api.play import get_state, post_step_dice_action
    from rulekeeper_client.models import (
        ActionResultStepDice,
        CampaignCreated,
        CampaignCreateStepDice,
        Character,
        CharacterCreate,
        LogEventEncounterCreated,
        Problem,
        StepDiceActionRequest,
        StepDiceCharacterInput,
        StepDiceCreateEncounter,
        StepDiceEncounterCreated,
        StepDiceState,
        TableStateStepDice,
    )
    from rulekeeper_client.models.campaign_create_step_dice_system import CampaignCreateStepDiceSystem

    anonymous = AuthenticatedClient(base_url=live_server, token="", prefix="")
    created = create_campaign.sync(
        client=anonymous,
        body=CampaignCreateStepDice.from_dict({"name": "Typed", "system": CampaignCreateStepDiceSystem.STEPDICE.value}),
    )
    assert isinstance(created, CampaignCreated), created
    gm = AuthenticatedClient(base_url=live_server, token=created.gm_token)
    campaign_id = created.campaign.id

    sheet = StepDiceCharacterInput.from_dict(
        {
            "name": "Szept",
            "role": "rogue",
            "talents": ["Scout", "Negotiator"],
            "equipment": {"weapon": "crossbow", "protection": None, "items": ["lockpicks", "rope", "lantern"]},
        }
    )
    character = create_character.sync(campaign_id, client=gm, body=CharacterCreate(sheet=sheet))
    assert isinstance(character, Character), character
    assert character.name == "Szept"

    move = StepDiceActionRequest(action=StepDiceCreateEncounter(type_="create_encounter", label="Gate"))
    result = post_step_dice_action.sync(campaign_id, client=gm, body=move)
    # The reply's variant follows `system`, an event's `data` its `type`: both typed without a cast.
    assert isinstance(result, ActionResultStepDice), result
    created_events = [e for e in result.events if isinstance(e, LogEventEncounterCreated)]
    assert created_events and isinstance(created_events[0].data, StepDiceEncounterCreated)

    state = get_state.sync(campaign_id, client=gm)
    assert isinstance(state, TableStateStepDice) and state.version == result.version
    assert isinstance(state.state, StepDiceState)

    # The per-system operation refuses a campaign of another system, with its own code.
    other = create_campaign.sync(
        client=anonymous, body=CampaignCreateStepDice.from_dict({"name": "Other", "system": "stepdice"})
    )
    from rulekeeper_client.api.play import post_trikus_action
    from rulekeeper_client.models import TrikusActionRequest, TrikusGmNote

    note = TrikusActionRequest(action=TrikusGmNote.from_dict({"type": "gm_note", "text": "hello"}))
    refused = post_trikus_action.sync(
        other.campaign.id, client=AuthenticatedClient(base_url=live_server, token=other.gm_token), body=note
    )
    assert isinstance(refused, Problem) and refused.code == "system_mismatch", refused
