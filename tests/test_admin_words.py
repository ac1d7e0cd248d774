"""Issue 35 item 8: the admin names the site's apps and models in the reader's language."""

from __future__ import annotations

import pytest
from django.contrib import admin

pytestmark = pytest.mark.django_db

OURS = ("analysis", "clubs", "dashboard", "games", "ladder", "live", "recorder", "tournaments")


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "ja",
            [
                "Lantern 管理",
                "クラブとメンバー",
                "対局とアップロード",
                "参加申請",
                "一括インポート",
                "大会",
            ],
        ),
        (
            "ru",
            [
                "Клубы и участники",
                "Партии и загрузки",
                "Заявки на вступление",
                "Массовые импорты",
                "Турниры",
            ],
        ),
    ],
)
def test_the_admin_index_names_apps_and_models_in_the_readers_language(
    client, django_user_model, language, words
):
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.org", "x"))
    page = client.get("/admin/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for word in words:
        assert word in page, word
    assert "Join requests" not in page and "Clubs and members" not in page


def test_every_model_of_ours_in_the_admin_has_a_translatable_name():
    for model in admin.site._registry:
        if model._meta.app_label in OURS:
            for name in (model._meta.verbose_name, model._meta.verbose_name_plural):
                assert type(name).__name__ == "__proxy__", (
                    f"{model.__name__}: {name!r} is not marked"
                )
