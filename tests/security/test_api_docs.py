"""The API as a second door (issue #17): its documentation page is served by the site
under the site's Content-Security-Policy, /api/ lists every resource, and an /api/ path
that matches nothing is a JSON 404 whether DEBUG is on or off."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


def test_swagger_ui_is_the_sites_own_under_its_policy():
    page = Client().get("/api/docs/")
    assert page.status_code == 200
    policy = page["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    html = page.content.decode()
    assert "cdn.jsdelivr.net" not in html and "<style" not in html
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert "<script>" not in html  # every script is a file, the start-up one too
    script = Client().get("/api/docs/?script=")
    assert script.status_code == 200 and script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()


def test_the_api_root_lists_every_resource_of_the_schema():
    client = Client()
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    root = client.get("/api/", HTTP_ACCEPT="application/json").json()
    for path, operations in schema["paths"].items():
        assert path in root["resources"], path
        listed = root["resources"][path]
        assert {m.lower() for m in listed["methods"]} >= set(operations) - {"parameters"}, path
        assert (listed["url"] is None) == ("{" in path)
    assert urlsplit(root["resources"]["/api/drafts/"]["url"]).path == "/api/drafts/"
    assert urlsplit(root["docs"]).path == "/api/docs/"


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize(
    "url",
    [
        "/api/nothing-here",
        "/api/nothing/here/",
        "/api/matches/abc/",
        "/api/drafts/1/nope/",
        "/api/" + "x" * 300,
    ],
)
def test_an_unknown_api_path_is_a_json_404_in_every_mode(url, debug):
    with override_settings(DEBUG=debug):
        for method in ("get", "post", "delete"):  # a POST without a CSRF token too
            response = getattr(Client(enforce_csrf_checks=True), method)(url)
            assert response.status_code == 404, (method, url)
            assert response["Content-Type"] == "application/json", (method, url)
            assert response.json()["error"] == "not_found"


def test_a_path_that_exists_with_a_slash_is_redirected_there():
    response = Client().get("/api/drafts?club=riverside")
    assert response.status_code == 301 and response["Location"] == "/api/drafts/?club=riverside"
    assert Client().post("/api/drafts").status_code == 404  # a body is never redirected


@pytest.mark.browser
def test_swagger_ui_renders_with_no_violation_and_nothing_from_elsewhere(
    csp_page: Any, live_server
):
    """The ``csp_page`` fixture fails the test on any console error (a refused script or
    style is one); every request must go to the site itself."""
    page = csp_page
    elsewhere: list[str] = []
    violations: list[str] = []
    page.on(
        "request",
        lambda request: (
            elsewhere.append(request.url)
            if not request.url.startswith(live_server.url) and not request.url.startswith("data:")
            else None
        ),
    )
    page.on("console", lambda msg: violations.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".swagger-ui .opblock-tag", timeout=30_000)
    assert page.locator(".swagger-ui .opblock").count() > 40  # every operation listed
    assert "Lantern API" in page.inner_text(".swagger-ui .info")
    # Trying an operation out works under the policy too.
    page.click("#operations-recorder-drafts_games button.opblock-summary-control")
    page.click("#operations-recorder-drafts_games .try-out__btn")
    page.click("#operations-recorder-drafts_games .execute")
    page.wait_for_selector(
        "#operations-recorder-drafts_games .live-responses-table .response-col_status"
    )
    assert "200" in page.inner_text("#operations-recorder-drafts_games .live-responses-table")
    page.wait_for_load_state("networkidle")
    assert not elsewhere, elsewhere
    assert not violations, violations


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_browsable_api_passes_the_policy(csp_page: Any, live_server, django_user_model):
    """DRF's HTML pages are under the site's policy too: only its templates' own style
    attributes are let in, by their hashes (config.api.parsers)."""
    page = csp_page
    user = django_user_model.objects.create_user("reader", password="a long pass phrase")
    violations: list[str] = []
    page.on("console", lambda msg: violations.append(msg.text) if msg.type == "error" else None)
    for path in ("/api/", "/api/drafts/games/", "/api/tournaments/", "/api/auth/login/"):
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"], path
        page.wait_for_load_state("networkidle")
    page.fill("#id_username", user.username)
    page.fill("#id_password", "a long pass phrase")
    page.click("#submit-id-submit")
    page.goto(f"{live_server.url}/api/tournaments/")
    assert page.locator("form").count() >= 1  # the signed-in page, with its forms
    page.click(".dropdown-toggle")  # Bootstrap's script runs under the policy
    assert not violations, violations


def directives(header: str) -> dict[str, list[str]]:
    return {
        name: sources
        for name, *sources in (part.split() for part in header.split(";") if part.strip())
    }


def test_redoc_alone_gets_the_relaxed_policy_and_every_other_page_keeps_the_strict_one(club):
    strict = directives(Client().get("/").headers["Content-Security-Policy"])
    page = Client().get("/api/redoc/")
    assert page.status_code == 200
    relaxed = directives(page["Content-Security-Policy"])
    # What the bundle needs, nothing more: its styles and its search worker.
    assert relaxed["style-src"] == ["'self'", "'unsafe-inline'"]
    assert relaxed["worker-src"] == ["'self'", "blob:"]
    assert {k: v for k, v in relaxed.items() if k not in ("style-src", "worker-src")} == {
        k: v for k, v in strict.items() if k != "style-src"
    }
    assert relaxed["script-src"] == ["'self'"] and relaxed["img-src"] == ["'self'", "data:"]
    html = page.content.decode()
    assert "/static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js" in html
    assert "<script>" not in html and "<style" not in html and "fonts.googleapis" not in html
    assert 'data-spec-url="/api/schema/"' in html
    for path in ("/", "/api/docs/", f"/clubs/{club.slug}/", "/rules/", "/accounts/login/"):
        header = Client().get(path).headers["Content-Security-Policy"]
        assert directives(header) == strict, path
        assert "unsafe-inline" not in header and "blob:" not in header, path


def test_the_api_docs_link_to_redoc():
    home = Client().get("/").content.decode()
    assert 'href="/api/docs/"' in home and 'href="/api/redoc/"' in home
    root = Client().get("/api/", HTTP_ACCEPT="application/json").json()
    assert urlsplit(root["redoc"]).path == "/api/redoc/"


@pytest.mark.browser
def test_redoc_renders_from_the_site_and_asks_nothing_of_another(chromium: Any, live_server):
    """Under the page's own policy, every request goes to the site itself and nothing is
    refused: the bundle's Redocly logo from their CDN is dropped before it is asked for
    (static/js/api/redoc.js)."""
    elsewhere: list[str] = []
    errors: list[str] = []
    context = chromium.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    elsewhere: list[str] = []
    errors: list[str] = []
    page.on(
        "request",
        lambda request: (
            elsewhere.append(request.url)
            if not request.url.startswith((live_server.url, "data:", "blob:"))
            else None
        ),
    )
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{live_server.url}/api/redoc/")
    page.wait_for_selector("#redoc-container .menu-content", timeout=30_000)
    page.wait_for_selector("text=Lantern API")
    assert page.locator("#redoc-container [data-section-id^='operation/']").count() > 40
    page.fill("#redoc-container input[placeholder='Search...']", "drafts")  # the blob: worker
    page.wait_for_selector("#redoc-container [data-role='search:results']")
    page.wait_for_load_state("networkidle")
    context.close()
    assert elsewhere == [], elsewhere
    assert errors == [], errors
