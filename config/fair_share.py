"""What the budgets of the machine share (docs/fair-share.md): a person's budgeted
requests serialised in the database. Each app counts its own objects
(analysis.budgets, recorder.budgets); the refusal is config.errors.OverBudget (429 with
Retry-After, from the API and from a page alike)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model


def lock_person(user: Any) -> None:
    """Lock ``user``'s row until the transaction ends (call inside ``atomic``): two
    requests of one person that count against a budget are counted one after the other,
    so both cannot slip under its limit. Other people's requests do not wait."""
    list(
        get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True)
    )
