"""REST for turn deadlines: the board every member of the campaign reads, and the GM's settings, pause,
resume and extension. Declared here and added to the operation table (service/api/rest/operations.py)."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from service.api.rest.request import Call
from service.game.deadlines import admin as deadline_admin
from service.game.deadlines.settings import TurnDeadlines

Reply = tuple[int, object, dict[str, str]]


class TurnDeadline(BaseModel):
    id: str
    character_id: str | None = Field(description="The character whose player the table waits for.")
    may: list[str] = Field(description="The moves that answer the wait (as in `awaiting`).")
    kind: Literal["turn", "choice"]
    status: Literal["running", "paused", "expired"] = Field(
        description="expired: it ran out; the rules' default was applied or the GM was handed the wait.")
    seconds: float = Field(description="The limit the wait started with.")
    until: str | None = Field(description="When it runs out (ISO 8601, UTC) while running.")
    seconds_left: float | None = Field(description="Seconds left (running or paused).")


class TurnDeadlineBoard(BaseModel):
    settings: TurnDeadlines
    paused: bool = Field(description="The GM paused every deadline of the campaign.")
    deadlines: list[TurnDeadline]


async def get_deadlines(c: Call) -> Reply:
    return 200, await deadline_admin.board(c.svc, c.path["campaign_id"], c.token), {}


async def set_deadlines(c: Call) -> Reply:
    return 200, await deadline_admin.set_settings(c.svc, c.path["campaign_id"], c.token, c.body), {}


async def pause_deadlines(c: Call) -> Reply:
    return 200, await deadline_admin.pause(c.svc, c.path["campaign_id"], c.token), {}


async def resume_deadlines(c: Call) -> Reply:
    return 200, await deadline_admin.resume(c.svc, c.path["campaign_id"], c.token), {}


async def extend_deadline(c: Call) -> Reply:
    return 200, await deadline_admin.extend(c.svc, c.path["campaign_id"], c.path["deadline_id"], c.token, c.body), {}


INPUTS = {"setTurnDeadlines": TurnDeadlines, "extendTurnDeadline": deadline_admin.DeadlineExtension}


def operations(Operation, C: str, READ: tuple, WRITE: tuple) -> list:
    return [
        Operation("getTurnDeadlines", "GET", f"{C}/deadlines", get_deadlines,
                  "The campaign's turn deadline settings and every deadline now kept", TurnDeadlineBoard,
                  tag="deadlines", errors=READ),
        Operation("setTurnDeadlines", "PUT", f"{C}/deadlines", set_deadlines,
                  "Set the time limits for turns and pending choices (GM); running deadlines start again under "
                  "them", TurnDeadlineBoard, tag="deadlines", errors=WRITE, idempotent_key=True),
        Operation("pauseTurnDeadlines", "POST", f"{C}/deadlines/pause", pause_deadlines,
                  "Pause every deadline of the campaign (GM); each keeps the time it had left", TurnDeadlineBoard,
                  tag="deadlines", errors=WRITE, idempotent_key=True),
        Operation("resumeTurnDeadlines", "POST", f"{C}/deadlines/resume", resume_deadlines,
                  "Resume the paused deadlines (GM)", TurnDeadlineBoard, tag="deadlines", errors=WRITE,
                  idempotent_key=True),
        Operation("extendTurnDeadline", "POST", f"{C}/deadlines/{{deadline_id}}/extend", extend_deadline,
                  "Give one wait more time (GM)", TurnDeadline, tag="deadlines", errors=WRITE, idempotent_key=True),
    ]
