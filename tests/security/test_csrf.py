"""CSRF on every form: every server-rendered page of every URL pattern is rendered as
anonymous, as a club organiser and as staff; every ``<form method="post">`` on them must
carry a ``csrfmiddlewaretoken``, and every form's POST, and a POST to every URL
pattern, without the token is refused (403) and changes nothing."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urljoin

import pytest
from django.apps import apps
from django.test import Client

from tests.security.urlwalk import fill, routes

pytestmark = pytest.mark.django_db


class FormParser(HTMLParser):
    """The forms of a page: method, action and the names and values of their fields."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self._open: dict | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        if tag == "form":
            self._open = {
                "method": attributes.get("method", "get").lower(),
                "action": attributes.get("action", ""),
                "fields": {},
            }
            self.forms.append(self._open)
        elif (
            tag in ("input", "textarea", "select", "button")
            and self._open is not None
            and attributes.get("name")
        ):
            self._open["fields"][attributes["name"]] = attributes.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._open = None


def post_forms(html: str) -> list[dict]:
    parser = FormParser()
    parser.feed(html)
    return [form for form in parser.forms if form["method"] == "post"]


def _row_counts() -> dict[str, int]:
    """Rows of every model but sessions (each force_login makes one)."""
    return {
        model._meta.label: model.objects.count()
        for model in apps.get_models()
        if model._meta.label != "sessions.Session"
    }


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user(username="sam", is_staff=True, is_superuser=True)


def test_every_post_form_has_a_csrf_token_and_is_refused_without_it(public_club, people, staff):
    viewers = {"anonymous": None, "organiser": people["organiser"], "staff": staff}
    missing_token, forms = [], []
    for route in routes():
        url = fill(route, public_club)
        for who, user in viewers.items():
            client = Client()
            if user is not None:
                client.force_login(user)
            response = client.get(url)
            if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
                continue
            for form in post_forms(response.content.decode()):
                action = urljoin(url, form["action"] or url)
                forms.append((who, url, action, form["fields"]))
                if "csrfmiddlewaretoken" not in form["fields"]:
                    missing_token.append(f"{url} as {who}: <form method=post action={action!r}>")
    assert not missing_token, "forms without a CSRF token:\n" + "\n".join(missing_token)
    pages = {url for _who, url, _action, _fields in forms}
    # Upload, import, manage (invites, roles, renames, merges, voids), sign-up, log-in,
    # password forms, profile tokens, tournaments, the dashboard...: found, not assumed.
    assert len(pages) >= 15, sorted(pages)

    before = _row_counts()
    accepted = []
    for who, url, action, fields in forms:
        strict = Client(enforce_csrf_checks=True)
        if who != "anonymous":
            strict.force_login(viewers[who])
        data = {name: value for name, value in fields.items() if name != "csrfmiddlewaretoken"}
        response = strict.post(action, data)
        if response.status_code != 403:
            accepted.append(f"{action} (form on {url}) as {who}: {response.status_code}")
    assert not accepted, "POSTs without a CSRF token not refused:\n" + "\n".join(accepted)
    assert _row_counts() == before


def test_a_post_to_any_url_without_the_token_is_refused(public_club, people):
    """Also the URLs no page links a form to (API endpoints with a session, POST-only
    views): a signed-in browser tricked into posting there must be refused."""
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(people["organiser"])
    before = _row_counts()
    accepted = []
    for route in routes():
        url = fill(route, public_club)
        response = strict.post(url, {"name": "x", "reason": "x", "handle": "x"})
        if route.name == "api-not-found":  # no route: nothing to refuse, a JSON 404 for any client
            assert response.status_code == 404 and response.json()["error"] == "not_found"
            continue
        if response.status_code != 403:
            accepted.append(f"POST {url} ({route.name}): {response.status_code}")
    assert not accepted, "\n".join(accepted)
    assert _row_counts() == before
