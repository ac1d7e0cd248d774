"""A ladder's roles by the names the table gives them, in the reader's language: a
player's page says which role each dot of the chart was played in."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import display


@pytest.mark.parametrize(
    ("language", "mister_x", "detectives"),
    [("ja", "ミスターX", "探偵側"), ("ru", "Мистер Икс", "Детективы")],
)
def test_a_ladders_mister_x_roles_are_named_as_the_table_names_them(language, mister_x, detectives):
    """The ladder keeps Mister X's side by the rating's label ("Mister X"), the team by
    its seat id: both are said in the reader's language."""
    with translation.override(language):
        assert display.rating_role("mister-x", "Mister X") == mister_x
        assert display.rating_role("mister-x", "detectives") == detectives
