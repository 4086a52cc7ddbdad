"""REST for turn deadlines: the board every member of the campaign reads, and the GM's settings, pause,
resume and extension. Declared here and added to the operation table (service/api/rest/operations.py)."""

from pydantic import BaseModel

from service.api.replies import TurnDeadline, TurnDeadlineBoard
from service.api.rest.request import Call
from service.game.deadlines import admin as deadline_admin
from service.game.deadlines.settings import TurnDeadlines

Reply = tuple[int, object, dict[str, str]]


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


INPUTS: dict[str, type[BaseModel]] = {
    "setTurnDeadlines": TurnDeadlines,
    "extendTurnDeadline": deadline_admin.DeadlineExtension,
}


def operations(Operation, C: str, READ: tuple, WRITE: tuple) -> list:
    return [
        Operation(
            "getTurnDeadlines",
            "GET",
            f"{C}/deadlines",
            get_deadlines,
            "The campaign's turn deadline settings and every deadline now kept",
            TurnDeadlineBoard,
            tag="deadlines",
            errors=READ,
        ),
        Operation(
            "setTurnDeadlines",
            "PUT",
            f"{C}/deadlines",
            set_deadlines,
            "Set the time limits for turns and pending choices (GM); running deadlines start again under them",
            TurnDeadlineBoard,
            tag="deadlines",
            errors=WRITE,
            idempotent_key=True,
        ),
        Operation(
            "pauseTurnDeadlines",
            "POST",
            f"{C}/deadlines/pause",
            pause_deadlines,
            "Pause every deadline of the campaign (GM); each keeps the time it had left",
            TurnDeadlineBoard,
            tag="deadlines",
            errors=WRITE,
            idempotent_key=True,
        ),
        Operation(
            "resumeTurnDeadlines",
            "POST",
            f"{C}/deadlines/resume",
            resume_deadlines,
            "Resume the paused deadlines (GM)",
            TurnDeadlineBoard,
            tag="deadlines",
            errors=WRITE,
            idempotent_key=True,
        ),
        Operation(
            "extendTurnDeadline",
            "POST",
            f"{C}/deadlines/{{deadline_id}}/extend",
            extend_deadline,
            "Give one wait more time (GM)",
            TurnDeadline,
            tag="deadlines",
            errors=WRITE,
            idempotent_key=True,
        ),
    ]
