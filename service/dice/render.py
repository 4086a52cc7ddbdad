"""Presenting a result tree as one line of text, in d20's style.

    4d6kh3 (6, 3, ~~1~~, 5) = 14
    1d6e6 (6!, 6!, 2) = 14
    1d20ro1 (~~1~~, 17) = 17
    1d6mi3 (1 -> 3) = 3

Dropped parts are struck through with ~~ ~~ (once, not nested), an exploded face is marked !,
a face raised or lowered by mi/ma shows its history with ->. Unlike d20's Markdown renderer
the total is not in backticks and 1s and maxima are not bold: this text goes to every kind of
client, most of which do not render Markdown.
"""

from __future__ import annotations

from service.dice import rolled as r


def render(node: r.Rolled) -> str:
    return _render(node, in_dropped=False)


def _render(node: r.Rolled, in_dropped: bool) -> str:
    strike = not node.kept and not in_dropped
    inside = _inner(node, in_dropped or strike)
    if node.annotation:
        inside = f"{inside} {node.annotation}"
    return f"~~{inside}~~" if strike else inside


def _inner(node: r.Rolled, dropped: bool) -> str:
    def sub(child: r.Rolled) -> str:
        return _render(child, dropped)

    match node:
        case r.Expression():
            return f"{sub(node.roll)} = {int(node.total)}"
        case r.Literal():
            return node.text
        case r.Face():
            history = " -> ".join(str(v) for v in node.values)
            return f"{history}!" if node.exploded else history
        case r.Die():
            return ", ".join(sub(face) for face in node.faces)
        case r.Dice():
            ops = "".join(node.operations)
            return f"{node.num}d{node.sides}{ops} ({', '.join(sub(d) for d in node.dice)})"
        case r.Set():
            ops = "".join(node.operations)
            inner = ", ".join(sub(v) for v in node.values)
            return f"({inner},){ops}" if len(node.values) == 1 else f"({inner}){ops}"
        case r.Parenthetical():
            return f"({sub(node.value)}){''.join(node.operations)}"
        case r.UnOp():
            return f"{node.op}{sub(node.value)}"
        case r.BinOp():
            return f"{sub(node.left)} {node.op} {sub(node.right)}"
    raise TypeError(f"cannot render {type(node).__name__}")
