"""The rules reference on the site: /rules/ and one page per document, every rule an
anchor, rejections linking to the rule they cite."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client

from clubs.models import Club, Membership, Player
from games.models import Upload
from reference import documents
from tests.examples import load_example

pytestmark = pytest.mark.django_db


def page_text(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_the_index_lists_the_games_the_log_format_and_the_ratings(client):
    text = page_text(client, "/rules/")
    for slug, title in [
        ("cryptid-urban-legends", "Cryptid: Urban Legends"),
        ("mister-x", "Mister X"),
        ("cloak-and-dagger", "Cloak &amp; Dagger"),
        ("log-format", "lantern-log/1"),
        ("ratings", "Ratings"),
    ]:
        assert re.search(
            rf'<a class="doc-name" href="/rules/{slug}/">[^<]*{re.escape(title)}', text
        ), slug
    # every page of the site links to the reference
    assert '<a href="/rules/">Rules</a>' in page_text(client, "/")


@pytest.mark.parametrize("slug", [d.slug for d in documents.documents()])
def test_every_rule_of_a_document_is_an_anchor_on_its_page(client, slug):
    text = page_text(client, f"/rules/{slug}/")
    rules = documents.document(slug).rules
    assert rules
    for rule_id, rule in rules.items():
        # the element that holds the rule has its id, and the id links to itself
        found = re.search(
            rf'<(li|h2|h3) id="{re.escape(rule_id)}" class="rule">\s*(?:<p>)?<a '
            rf'href="#{re.escape(rule_id)}"'
            rf' class="rule-id"[^>]*>{re.escape(rule_id)}</a>(.*?)</\1>',
            text,
            re.S,
        )
        assert found, rule_id
        words = html.unescape(re.sub(r"<[^>]+>", "", found.group(2))).split()
        assert words[:4] == rule.text.replace(rule_id, "", 1).split()[:4], rule_id
    assert len(set(re.findall(r' id="([^"]+)"', text))) == len(re.findall(r' id="([^"]+)"', text))


def test_a_rule_page_holds_the_rule_a_rejection_cites(client):
    text = page_text(client, "/rules/cryptid-urban-legends/")
    li = re.search(r'<li id="CUL-3.7" class="rule">(.*?)</li>', text, re.S).group(1)
    assert "<strong>Draw</strong>" in li and "1 when the hand holds 3" in li


def test_ids_named_in_the_text_link_to_their_rule_in_any_document(client):
    text = page_text(client, "/rules/log-format/")
    # the log format names CUL-1.2 (a Cryptid rule) and MX-4: links to the games' pages
    assert '<a href="/rules/cryptid-urban-legends/#CUL-1.2" class="rule-ref"' in text
    assert '<a href="/rules/mister-x/#MX-4" class="rule-ref"' in text
    # and a link written to another document's file goes to that document's page
    assert 'href="/rules/cryptid-urban-legends/"' in text
    cryptid = page_text(client, "/rules/cryptid-urban-legends/")
    assert 'href="/rules/log-format/#cryptid-urban-legends-actions"' in cryptid
    assert 'id="cryptid-urban-legends-actions"' in text


def test_no_such_document_is_404(client):
    assert client.get("/rules/chess/").status_code == 404
    assert client.get("/rules/cryptid-urban-legends.ja/").status_code == 404


def test_a_translation_is_chosen_by_its_language_with_the_same_anchors(
    client, tmp_path, monkeypatch
):
    for info in documents.documents():
        (tmp_path / f"{info.slug}.md").write_bytes(
            (documents.DOCS_DIR / f"{info.slug}.md").read_bytes()
        )
    english = "# Cloak\n\n## CD-1 Components\n\n- CD-1.1 Twenty envelopes.\n"
    (tmp_path / "cloak-and-dagger.md").write_text(english, encoding="utf-8")
    (tmp_path / "cloak-and-dagger.ja.md").write_text(
        "# クローク\n\n## CD-1 内容物\n\n- CD-1.1 封筒20枚。<script>alert(1)</script>\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(documents, "DOCS_DIR", tmp_path)
    documents.document.cache_clear()
    documents.all_rules.cache_clear()
    try:
        assert documents.languages("cloak-and-dagger") == ["en", "ja"]
        assert documents.source_path("cloak-and-dagger", "ru").name == "cloak-and-dagger.md"
        japanese = documents.document("cloak-and-dagger", "ja")
        assert (
            list(japanese.rules)
            == list(documents.document("cloak-and-dagger").rules)
            == ["CD-1", "CD-1.1"]
        )
        text = page_text(client, "/rules/cloak-and-dagger/?lang=ja")
        assert 'lang="ja"' in text and 'id="CD-1.1"' in text and "封筒20枚" in text
        # the page offers the other languages it is written in
        assert (
            '<a href="?lang=en" hreflang="en" lang="en">English</a> · <strong>日本語</strong>'
            in text
        )
        assert 'href="?lang=' not in page_text(client, "/rules/mister-x/")
        assert "<script>alert(1)</script>" not in text  # raw HTML in a document is shown as text
        assert 'lang="en"' in page_text(client, "/rules/cloak-and-dagger/?lang=xx")
    finally:
        documents.document.cache_clear()
        documents.all_rules.cache_clear()


def test_a_rejected_upload_links_its_rule_to_the_rule_text(client, django_user_model):
    club = Club.objects.create(name="Riverside", slug="riverside")
    user = django_user_model.objects.create_user("mia")
    Membership.objects.create(user=user, club=club, role="member")
    for handle in ("alice", "bob"):
        Player.objects.create(club=club, handle=handle)
    client.force_login(user)
    client.post(
        "/clubs/riverside/upload/", {"log": json.dumps(load_example("cryptid-illegal-draw.json"))}
    )
    upload = Upload.objects.get()
    for url in (f"/uploads/{upload.pk}/", "/clubs/riverside/uploads/"):
        text = page_text(client, url)
        links = re.findall(
            r'<a class="rule-link" href="([^"]+)" title="CUL-3.7 Draw: take 2 movement '
            r'cards[^"]*…">'
            r"<code>CUL-3.7</code></a>",
            text,
        )
        assert links and set(links) == {"/rules/cryptid-urban-legends/#CUL-3.7"}, url
    target = page_text(client, "/rules/cryptid-urban-legends/")
    assert '<li id="CUL-3.7" class="rule">' in target


def test_a_rule_id_inside_a_message_is_a_link_too():
    from reference.templatetags.rules import link_rule_ids, rule_link

    assert link_rule_ids("the ticket counts add up to 119, not 120 (MX-1.3) <b>") == (
        'the ticket counts add up to 119, not 120 (<a class="rule-link" '
        'href="/rules/mister-x/#MX-1.3" '
        'title="MX-1.3 There are 120 tickets in a bag. Each shows a transport (car, train or '
        "plane) and one "
        'special icon: on Mister X&#x27;s tickets (blue background) double…">'
        "<code>MX-1.3</code></a>) &lt;b&gt;"
    )
    assert link_rule_ids("CUL-9.9 is no rule") == "CUL-9.9 is no rule"
    assert rule_link("CUL-9.9") == "<code>CUL-9.9</code>" and rule_link(None) == ""
