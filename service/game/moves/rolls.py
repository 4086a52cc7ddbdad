"""Free dice expressions rolled inside a campaign, logged like every other roll."""

from __future__ import annotations

from typing import Any

from service import metrics
from service.game.moves import counting
from service.dice.expression import evaluate_expression, parse_expression
from service.dice.types import DiceError
from service.game.log import events as log
from service.game import idempotency
from service.game.log import write as movewrite
from service.game.moves.access import open_for_writing
from service.game.context import Services
from service.game.moves.dicesource import BUG, consume_refused, dice_for, drawn, finish
from service.game.errors import GameError
from service.game.inputs import RollRequest
from service.rules.base import Event


@counting.counted(metrics.ROLLS)
async def roll(svc: Services, campaign_id: str, token: str | None, body: RollRequest) -> dict[str, Any]:
    refusal: BaseException | None = None
    async with svc.write(line=campaign_id) as s:
        opened = await open_for_writing(s, token, campaign_id, characters=False)
        principal, campaign = opened.principal, opened.campaign
        counting.system_is(campaign.system)
        try:
            tree = parse_expression(body.expression)  # everything knowable from the text, before any die
        except DiceError as exc:
            raise _problem(exc) from None
        dice, ds = await dice_for(s, campaign, body.dice)
        try:
            result = evaluate_expression(body.expression, tree, dice)
            dice_events = finish(dice, ds, purpose="expression")
        except Exception as exc:
            if not drawn(dice):
                if isinstance(exc, DiceError):
                    raise _problem(exc) from None
                raise
            # Only the faces can still fail a checked expression (explosions past the budget): log them.
            error = _problem(exc) if isinstance(exc, DiceError) else BUG
            consumed = await consume_refused(
                s, campaign, drawn(dice), ds, purpose="expression", error=error, principal=principal
            )
            refusal = consumed if isinstance(exc, DiceError) else exc
        else:
            outcome = {
                "expression": body.expression,
                "label": body.label,
                "total": result.total,
                "text": result.render(),
                "tree": result.to_dict(),
            }
            records = log.append(
                s, campaign, dice_events + [Event("expression_rolled", outcome)], principal.actor(), add=False
            )
            await movewrite.write(s, campaign, records)
            return await idempotency.complete(
                s,
                {
                    **outcome,
                    "dice": [d.to_dict() for d in result.dice],
                    "events": [v for v in (log.view(r, principal) for r in records) if v],
                },
            )
    raise refusal


def _problem(exc: DiceError) -> GameError:
    return GameError(422, exc.code, exc.detail, field=exc.field)
