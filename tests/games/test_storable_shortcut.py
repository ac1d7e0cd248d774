"""The storability check reads the canonical text of a document instead of walking every
string of it (games.services.storable._storable_canonical_text). It must refuse exactly what the
walk (_storable_problem) refuses, with the walk's message, and accept the rest."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import canonical_json
from games import services
from games.models import log_content_hash
from games.services import MAX_LOG_DEPTH, LogRejected
from tests.games.logs import bot_log

#: Text that looks like each problem, or like what the quick reading trips over, from
#: inside a string: brackets, quotes, backslashes, the words NaN and Infinity, "\u0000"
#: spelt out, lone and paired surrogates, NUL itself.
tricky_text = st.one_of(
    st.text(max_size=8),
    st.sampled_from(
        [
            "",
            "[",
            "]]]]",
            "{[",
            "}",
            '"',
            '\\"',
            "\\",
            "a\\",
            "\\u0000",
            "\x00",
            "\ud800",
            "a\udfffb",
            "\U0001f600",
            "NaN",
            "Infinity",
            "-Infinity",
            "[[[[[[[[[[",
            '"]}',
            "é",
            "\u2028",
        ]
    ),
)
numbers = st.one_of(
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([2**64, 1e308, -0.0, math.nan, math.inf]),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, tricky_text)
values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(tricky_text, children, max_size=4)
    ),
    max_leaves=30,
)


def nested(depth: int, inner: Any = 1) -> Any:
    """``inner`` at the bottom of ``depth`` arrays and objects, alternating."""
    for level in range(depth):
        inner = [inner] if level % 2 else {"k": inner}
    return inner


deep_documents = st.builds(
    lambda depth, inner, where: {"meta": {where: nested(depth, inner)}},
    st.integers(MAX_LOG_DEPTH - 4, MAX_LOG_DEPTH + 2),
    scalars,
    tricky_text,
)


def verdict_of_the_walk(document: dict[str, Any]) -> tuple[str, Any]:
    problem = services.storable._storable_problem(document)
    if problem:
        return "refused", problem.text()
    return "stored", log_content_hash(document)


def verdict_of_the_shortcut(document: dict[str, Any]) -> tuple[str, Any]:
    try:
        canonical = services.storable._storable_canonical_text(document)
    except LogRejected as exc:
        assert (exc.code, exc.rule) == ("malformed", "LOG-JSON")
        return "refused", exc.message
    return "stored", services.storable.canonical_text_hash(canonical)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(document=st.one_of(st.dictionaries(tricky_text, values, max_size=6), deep_documents))
def test_the_shortcut_refuses_what_the_walk_refuses_with_its_message(document):
    assert verdict_of_the_shortcut(document) == verdict_of_the_walk(document)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(document=st.one_of(st.dictionaries(tricky_text, values, max_size=6), deep_documents))
def test_uploaded_as_text_the_same_documents_are_refused_with_the_same_message(document):
    """Through parse_log, as an upload's body arrives (lone surrogates and NaN survive
    json.dumps as escapes and words)."""
    try:
        parsed = services.storable.parse_log(json.dumps(document).encode())
    except LogRejected as exc:
        assert ("refused", exc.message) == verdict_of_the_walk(json.loads(json.dumps(document)))
    else:
        assert ("stored", parsed.content_hash) == verdict_of_the_walk(parsed.document)


def test_nesting_to_the_limit_is_stored_and_one_level_more_is_refused():
    """The document itself is the first level: {"meta": nested(n)} nests n + 1 deep."""
    services.storable.parse_log(json.dumps({"meta": nested(MAX_LOG_DEPTH - 1)}).encode())
    with pytest.raises(LogRejected, match=f"more than {MAX_LOG_DEPTH} deep"):
        services.storable.parse_log(json.dumps({"meta": nested(MAX_LOG_DEPTH)}).encode())


@pytest.mark.parametrize(
    "game, players",
    [
        ("cryptid-urban-legends", ["alice", "bob"]),
        ("mister-x", ["alice", "bob", "carol"]),
        ("cloak-and-dagger", ["alice", "bob"]),
    ],
)
def test_a_real_log_is_proved_storable_without_walking_it(game, players, monkeypatch):
    log = bot_log(game, 7, players)
    walked = []
    monkeypatch.setattr(services.storable, "_storable_problem", lambda doc: walked.append(doc))
    parsed = services.storable.parse_log(json.dumps(log).encode())
    assert walked == []
    assert parsed.content_hash == log_content_hash(log)
    assert parsed.document == log


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"meta": {"note": "a\\u0000b"}}', "NUL character"),
        ('{"meta": {"a\\u0000": 1}}', "NUL character"),
        ('{"meta": {"note": "\\ud800"}}', "unpaired surrogate"),
        ('{"meta": {"note": NaN}}', "nan is not a JSON number"),
        ('{"meta": {"note": [-Infinity]}}', "-inf is not a JSON number"),
        ('{"meta": {"note": 1e400}}', "inf is not a JSON number"),
    ],
)
def test_each_problem_is_refused_with_the_walks_message(text, message):
    with pytest.raises(LogRejected, match=message):
        services.storable.parse_log(text.encode())


def test_a_false_alarm_is_walked_and_stored():
    """Words and brackets inside strings that look like problems are only text."""
    document = {"meta": {"note": 'NaN Infinity \\u0000 ]]]] [[[[ \\"', "n": 1.5}}
    assert canonical_json(document).count("\\\\u0000") == 1
    parsed = services.storable.parse_log(json.dumps(document).encode())
    assert parsed.document == document
