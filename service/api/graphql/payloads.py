"""The few GraphQL results REST has no model for: payload wrappers and the Relay connection of events.

Declared as pydantic models like the REST responses, so service/api/graphql/typed.py generates them the same
way; everything inside them is a REST response model.
"""

from pydantic import BaseModel, Field

from service.api import replies as r


class CharacterPayload(BaseModel):
    character: r.Character


class WebhookSecretPayload(BaseModel):
    webhook: r.Webhook
    secret: str = Field(description="The signing secret (`whsec_…`); shown only at registration and rotation.")


class PageInfo(BaseModel):
    """Relay's page info: where the page starts and ends, and whether there is more."""

    has_next_page: bool
    has_previous_page: bool
    start_cursor: str | None
    end_cursor: str = Field(
        description="Pass as `after` to read on. Set on an empty page too: it moves past events "
        "hidden from you, so resuming from it neither repeats nor skips one."
    )


class EventEdge(BaseModel):
    cursor: str = Field(description="Opaque; pass as `after` to read the events after this one.")
    node: r.LogEvent


class EventConnection(BaseModel):
    """The event log as a Relay connection, in sequence order."""

    edges: list[EventEdge]
    page_info: PageInfo


def event_connection(page: dict, after: int) -> dict:
    edges = [{"cursor": cursor(e["seq"]), "node": e} for e in page["items"]]
    return {
        "edges": edges,
        "page_info": {
            "has_next_page": page["has_more"],
            "has_previous_page": after > 0,
            "start_cursor": edges[0]["cursor"] if edges else None,
            "end_cursor": cursor(page["next_after"]),
        },
    }


def cursor(seq: int) -> str:
    return f"seq:{seq}"


def seq_of(value: str | None) -> int | None:
    """The sequence number a cursor stands for; None when it is not one of ours."""
    if value is None:
        return 0
    prefix, _, number = value.partition(":")
    if prefix != "seq" or not number.isdigit() or len(number) > 10:
        return None
    return int(number)
