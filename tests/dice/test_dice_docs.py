"""The examples in the dice modules' docstrings run, so they cannot drift from the code."""

import doctest

import pytest

from service.dice import expression


@pytest.mark.parametrize("module", [expression])
def test_docstring_examples_run(module):
    result = doctest.testmod(module, raise_on_error=False)
    assert result.attempted > 0 and result.failed == 0
