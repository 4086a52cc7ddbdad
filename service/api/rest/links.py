"""OpenAPI links: how a response feeds the next request, stated in the document.

They tell a client (and a stateful fuzzer) where the identifiers it needs come from — the campaign id a
campaign's creation returns, the character id, the ETag to send back as If-Match — so a chain of calls
reaches the rules instead of stopping at 404. Tokens are not linked: OpenAPI ignores an `Authorization`
parameter, and the bearer of a call is the caller's, not a value of the previous response.
"""

from __future__ import annotations

from typing import Any

CAMPAIGN = {"path.campaign_id": "$request.path.campaign_id"}


def _to(target: str, description: str, parameters: dict[str, str]) -> tuple[str, dict[str, Any]]:
    return target, {"operationId": target, "description": description, "parameters": parameters}


# source operationId -> its success response's links, each to a distinct target operation
LINKS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "createCampaign": [
        _to(op, "The campaign just created.", {"path.campaign_id": "$response.body#/campaign/id"})
        for op in (
            "getCampaign",
            "invitePlayer",
            "listCharacters",
            "createCharacter",
            "validateCharacter",
            "getState",
            "postAction",
            "rollExpression",
            "listEvents",
            "listDiceSessions",
            "setClientSeed",
            "closeDiceSession",
        )
    ],
    "invitePlayer": [
        _to("getCampaign", "The campaign the player joined.", CAMPAIGN),
    ],
    "createCharacter": [
        _to("getCharacter", "The character just created.", {**CAMPAIGN, "path.character_id": "$response.body#/id"}),
        _to(
            "assignCharacter",
            "Give the character just created to a player.",
            {**CAMPAIGN, "path.character_id": "$response.body#/id"},
        ),
    ],
    "getCharacter": [
        _to(
            "assignCharacter",
            "Give this character to a player.",
            {**CAMPAIGN, "path.character_id": "$request.path.character_id"},
        ),
    ],
    "getState": [
        _to(
            "postAction",
            "Move on the table you just read: If-Match makes it a 412 if someone moved first.",
            {**CAMPAIGN, "header.If-Match": "$response.header.ETag"},
        ),
    ],
    "postAction": [
        _to(
            "postAction",
            "The next move, on the version this one produced.",
            {**CAMPAIGN, "header.If-Match": "$response.header.ETag"},
        ),
        _to("getState", "The table after this move.", CAMPAIGN),
        _to("listEvents", "What this move logged.", CAMPAIGN),
    ],
    "closeDiceSession": [
        _to(
            "verifyDiceSession",
            "Check every die of the session just closed.",
            {**CAMPAIGN, "path.number": "$response.body#/closed/number"},
        ),
    ],
}


def links_for(operation_id: str) -> dict[str, dict[str, Any]]:
    """The `links` object of an operation's success response."""
    return dict(LINKS.get(operation_id, []))
