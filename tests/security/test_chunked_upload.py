"""An upload sent chunked (``Transfer-Encoding: chunked``, no Content-Length), as a
client streaming a file of unknown length sends it, over a real socket to the live test
server: refused with 411 saying to send the length, not read as an empty body."""

from __future__ import annotations

import http.client
import json
import socket
from urllib.parse import urlsplit

import pytest
from rest_framework.authtoken.models import Token

from clubs.models import Club, Membership
from games.models import Match, Upload
from tests.games.logs import bot_log, compact

pytestmark = pytest.mark.django_db(transaction=True)


def send_chunked(base_url: str, path: str, body: bytes, headers: dict[str, str]):
    """POST ``body`` in 1 KB chunks, with no Content-Length, written to the socket at once:
    the server answers as soon as it has read the headers, and a client still sending
    chunks then would meet a closed socket (a broken pipe), which is not under test."""
    where = urlsplit(base_url)
    chunks = [body[i : i + 1024] for i in range(0, len(body), 1024)]
    request = "".join(
        [
            f"POST {path} HTTP/1.1\r\n",
            f"Host: {where.netloc}\r\n",
            "Transfer-Encoding: chunked\r\n",
            "Connection: close\r\n",
            *(f"{name}: {value}\r\n" for name, value in headers.items()),
            "\r\n",
        ]
    ).encode()
    request += b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for chunk in chunks) + b"0\r\n\r\n"
    with socket.create_connection((where.hostname, where.port), timeout=30) as connection:
        connection.sendall(request)
        response = http.client.HTTPResponse(connection)
        response.begin()
        return response.status, response.getheader("Content-Type"), response.read()


@pytest.fixture
def organiser_token(django_user_model) -> tuple[Club, str]:
    club = Club.objects.create(name="Riverside", slug="riverside", is_public=True)
    user = django_user_model.objects.create_user(username="olga")
    Membership.objects.create(user=user, club=club, role="organiser")
    return club, Token.objects.create(user=user).key


def test_a_chunked_log_upload_is_answered_411_saying_to_send_its_length(
    live_server, organiser_token
):
    club, token = organiser_token
    log = compact(bot_log("cryptid-urban-legends", 3, ["ann", "ben"])).encode()
    status, content_type, body = send_chunked(
        live_server.url,
        f"/api/clubs/{club.slug}/matches/",
        log,
        {"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    assert status == 411, body
    assert content_type == "application/json"
    answer = json.loads(body)
    assert answer["error"] == "length_required"
    assert "Content-Length" in answer["message"] and "chunk" in answer["message"]
    assert not Upload.objects.exists() and not Match.objects.exists()


def test_a_chunked_form_post_to_a_page_is_answered_411_in_plain_words(live_server):
    status, content_type, body = send_chunked(
        live_server.url,
        "/accounts/login/",
        b"username=a&password=b",
        {"Content-Type": "application/x-www-form-urlencoded", "Accept-Language": "ru"},
    )
    assert status == 411
    assert content_type.startswith("text/plain")
    assert "Content-Length" in body.decode() and "частями" in body.decode()


def test_the_same_upload_with_its_length_is_stored(live_server, organiser_token):
    """The 411 is about the framing alone: the same bytes with a Content-Length are read."""
    club, token = organiser_token
    log = compact(bot_log("cryptid-urban-legends", 3, ["ann", "ben"])).encode()
    where = urlsplit(live_server.url)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
    connection.request(
        "POST",
        f"/api/clubs/{club.slug}/matches/",
        body=log,
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    response = connection.getresponse()
    assert response.status == 201, response.read()
    connection.close()
    assert Match.objects.count() == 1
