"""The field types and move base every system's contract shares (each system's `fields.py` adds its own)."""

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from service.rules.strings import trimmed

Id = trimmed(64)
Text = trimmed(2000)
Label = trimmed(120)

# Who may send a move (see driver.authorise): the GM only; the GM or the player controlling the character the
# move names; anyone, with the handler deciding (Trikus: a throw without a character is the GM's).
Sender = Literal["gm", "owner", "any"]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Move(Model):
    """Base of every action; `sender` (a class attribute, not part of the schema) says who may send it."""

    sender: ClassVar[Sender] = "gm"
