"""Dice expressions for property tests, generated from d20's grammar (the one service/dice parses with):
numbers of any size and decimals, dice with every operator and selector, sets, annotations, every unary and
binary operator, deep nesting, and text near the grammar that it refuses."""

from __future__ import annotations

from hypothesis import strategies as st

BINARY = ["+", "-", "*", "/", "//", "%", "<", ">", "==", ">=", "<=", "!="]
DICE_OPERATORS = ["k", "p", "rr", "ro", "ra", "e", "mi", "ma"]
SET_OPERATORS = ["k", "p"]
SELECTORS = ["", "h", "l", "<", ">"]

# Small numbers most of the time (they roll), any size some of the time (they must be refused, never crash).
numbers = st.one_of(st.integers(0, 20), st.integers(0, 10**6), st.integers(0, 10**250)).map(str)
decimals = st.builds(lambda a, b: f"{a}.{b}", numbers, st.integers(0, 10**40).map(str))
literals = st.one_of(numbers, decimals)

selectors = st.builds(lambda kind, n: f"{kind}{n}", st.sampled_from(SELECTORS), numbers)
dice_ops = st.lists(st.builds(lambda op, sel: op + sel, st.sampled_from(DICE_OPERATORS), selectors), max_size=3)
set_ops = st.lists(st.builds(lambda op, sel: op + sel, st.sampled_from(SET_OPERATORS), selectors), max_size=2)
dice = st.builds(
    lambda n, size, ops: f"{n}d{size}{''.join(ops)}",
    st.one_of(st.just(""), numbers),
    st.one_of(numbers, st.just("%")),
    dice_ops,
)
annotations = st.one_of(st.just(""), st.sampled_from([" [fire]", "[x]", " [a] [b]"]))


def _grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.builds(
            lambda a, op, b, space: f"{a}{space}{op}{space}{b}",
            inner,
            st.sampled_from(BINARY),
            inner,
            st.sampled_from(["", " "]),
        ),
        st.builds(lambda op, a: f"{op}{a}", st.sampled_from(["-", "+"]), inner),
        st.builds(lambda a, ops: f"({a}){''.join(ops)}", inner, set_ops),
        st.builds(
            lambda items, ops, comma: f"({', '.join(items)}{comma}){''.join(ops)}",
            st.lists(inner, min_size=1, max_size=3),
            set_ops,
            st.sampled_from(["", ","]),
        ),
        st.builds(lambda a, note: a + note, inner, annotations),
    )


accepted_shapes = st.recursive(st.one_of(literals, dice), _grow, max_leaves=6)

# Nesting as deep as the length limit allows: parentheses, signs and sets inside one another.
NESTINGS = [("(", ")"), ("-", ""), ("+", ""), ("-(", ")"), ("((", ",)kh1)"), ("(1+", ")")]
deep = st.builds(
    lambda depth, nesting, core: nesting[0] * depth + core + nesting[1] * depth,
    st.integers(1, 120),
    st.sampled_from(NESTINGS),
    st.one_of(literals, dice),
)

# Near misses: grammar pieces in an order the grammar may refuse, and text nothing parses.
near_misses = st.one_of(
    st.lists(
        st.sampled_from(
            [
                "1",
                "d",
                "20",
                "(",
                ")",
                ",",
                "k",
                "h",
                "e",
                "rr",
                "mi",
                "+",
                "-",
                "*",
                "//",
                "%",
                "<",
                "==",
                "[",
                "]",
                " ",
                ".",
                "9" * 60,
                "%",
                "0",
            ]
        ),
        max_size=30,
    ).map("".join),
    st.text(max_size=40),
)

expressions = st.one_of(accepted_shapes, deep, near_misses)
