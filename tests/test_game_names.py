"""The engine owns every fact about a game: no code outside ``engine/`` names a game or
a seat, side or team, so none can branch on one (issue #19).

The names are the engine's own (every game's id, its seats at every player count, its
sides, teams and rating roles), looked for as whole string literals in the Python and
JavaScript of the project: ``"mrx"``, ``'mister-x'``, ``f"det{i}"``, ``startswith("det")``.
Comments, docstrings and help texts that mention a game in a sentence are text, not
code, and are not looked at.

Allowed: the engine; tests and benchmarks (they play named games on purpose);
migrations (frozen history); and each game's own board drawing
(``static/js/replay/boards/<Game.renderer>.js``), which draws that game's views as a
template would.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parent.parent
SKIPPED_DIRS = {".venv", "node_modules", ".git", "var", "__pycache__", "staticfiles"}
ALLOWED_PREFIXES = ("engine/", "tests/", "bench/")


def game_names() -> tuple[set[str], set[str]]:
    """(names, stems): every name the engine gives a game or a seat, side, team or
    rating role; and the stems of numbered seats (``det`` of ``det1``) of 2+ letters."""
    names: set[str] = set()
    for game in engine.all_games().values():
        names.add(game.id)
        options = game.normalize_options({})
        for count in game.player_counts(options):
            seats = game.seat_ids(options, count)
            names.update(seats)
            names.update(game.side_of(seat) for seat in seats)
            names.update(game.viewers(options, seats))
        if game.rating is not None and game.rating.roles is not None:
            names.update(game.rating.roles)
    stems = {m.group(1) for name in names if (m := re.fullmatch(r"([a-z]{2,})\d+", name))}
    return names, stems


def allowed(path: str) -> bool:
    if path.startswith(ALLOWED_PREFIXES) or "/migrations/" in path:
        return True
    renderers = {game.renderer for game in engine.all_games().values()}
    return path in {f"static/js/replay/boards/{name}.js" for name in renderers}


def source_files() -> list[Path]:
    files = []
    for path in ROOT.rglob("*"):
        if path.suffix not in (".py", ".js") or not path.is_file():
            continue
        if SKIPPED_DIRS & set(path.relative_to(ROOT).parts):
            continue
        files.append(path)
    return sorted(files)


def python_literals(text: str) -> list[tuple[int, str]]:
    """(line, content) of every string literal that is not a docstring (a string standing
    alone as a statement)."""
    found = []
    previous = tokenize.NEWLINE
    depth = 0
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
        elif token.type == tokenize.STRING:
            statement = depth == 0 and previous in (
                tokenize.NEWLINE,
                tokenize.INDENT,
                tokenize.DEDENT,
            )
            if not statement:
                body = re.sub(r"^[a-zA-Z]*", "", token.string)
                quote = 3 if body[:3] in ('"""', "'''") else 1
                found.append((token.start[0], body[quote:-quote]))
        if token.type not in (tokenize.COMMENT, tokenize.NL):
            previous = token.type
    return found


JS_LITERAL = re.compile(r"""(["'`])((?:\\.|(?!\1).)*)\1""")


def js_literals(text: str) -> list[tuple[int, str]]:
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        code = re.sub(r"^\s*(//|\*|/\*).*", "", line)
        found.extend((number, m.group(2)) for m in JS_LITERAL.finditer(code))
    return found


def offences(path: Path, names: set[str], stems: set[str]) -> list[str]:
    text = path.read_text(encoding="utf-8")
    literals = python_literals(text) if path.suffix == ".py" else js_literals(text)
    out = []
    for line, content in literals:
        stem = re.fullmatch(r"([a-z]+)(\{[^}]*\}|\$\{[^}]*\})?", content)
        if content in names or (stem and stem.group(1) in stems):
            out.append(f"{path.relative_to(ROOT)}:{line}: {content!r}")
    return out


def test_the_scanner_finds_a_game_or_seat_name_in_code():
    names, stems = game_names()
    assert {"mister-x", "mrx", "det1", "detectives", "cryptid", "scientist", "p1"} <= names
    assert "det" in stems
    code = (
        'def f(seat, x, i):\n    """mrx in a docstring"""\n'
        '    return seat == "mrx" or seat.startswith("det") or x == f"det{i}" or {\n'
        '        "mister-x": 1}\n'
    )
    assert [content for _, content in python_literals(code)] == ["mrx", "det", "det{i}", "mister-x"]
    js = 'const M = { "mister-x": 1 };\n// "mrx" in a comment\nif (a.seat === `det${n}`) {}\n'
    assert [content for _, content in js_literals(js)] == ["mister-x", "det${n}"]


def test_no_code_outside_the_engine_names_a_game_or_a_seat():
    names, stems = game_names()
    found = []
    for path in source_files():
        relative = path.relative_to(ROOT).as_posix()
        if not allowed(relative):
            found += offences(path, names, stems)
    assert found == [], "ask the engine (engine.core.game.Game) instead:\n" + "\n".join(found)
