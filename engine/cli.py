"""``python -m engine``: validate logs, let bots play, print the schema, show a state or a
game's moves as sentences. English by default; ``--lang ja`` (any language the engine has
catalogs for, :func:`engine.core.messages.locales`) says refusals and moves in that language."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.ai.play import play
from engine.core.envelope import parse_json
from engine.core.errors import IllegalAction, rule_path
from engine.core.game import Table
from engine.core.messages import DEFAULT_LOCALE, locales, msg, render
from engine.core.registry import get_game
from engine.core.replay import Replay, replay
from engine.core.schema import log_schema
from engine.games.misterx.board import BoardError, board_summary, load_board_file


def _load(path: str) -> Replay:
    try:
        text = Path(path).read_bytes() if path != "-" else sys.stdin.buffer.read()
    except OSError as exc:
        raise IllegalAction(
            "LOG-JSON", msg("core.refuse.cannot_read_file", strerror=str(exc.strerror))
        ) from None
    return replay(parse_json(text))


def _rejected(exc: IllegalAction, lang: str = DEFAULT_LOCALE) -> str:
    """``rejected: action 8 (cryptid draw): CUL-3.7: ... (rule:
    /rules/cryptid-urban-legends/#CUL-3.7)``:
    the rejection in ``lang``, and where Lantern's site shows the rule's text (in that
    language: ``?lang=ja``, as the site's rules reference takes it)."""
    url = rule_path(exc.rule)
    if url and lang != DEFAULT_LOCALE:
        path, anchor = url.split("#", 1)
        url = f"{path}?lang={lang}#{anchor}"
    why = exc.describe(lang)
    return render(
        msg("core.cli.rejected", why=msg("core.cli.rule", why=why, url=url) if url else why), lang
    )


def _said_of(path: str, said: str, lang: str) -> str:
    return render(msg("core.cli.file", file=path, said=said), lang)


def cmd_validate(args: argparse.Namespace) -> int:
    rejected = 0
    for path in args.files:
        try:
            r = _load(path)
        except IllegalAction as exc:
            rejected += 1
            if args.json:
                said = {"message_id": exc.message_id, "params": exc.sentence["params"]}
                if args.lang != DEFAULT_LOCALE:
                    said["text"] = exc.text(args.lang)
                print(
                    json.dumps(
                        {
                            "file": path,
                            "ok": False,
                            **exc.as_dict(),
                            **said,
                            "rule_url": rule_path(exc.rule),
                        },
                        ensure_ascii=False,
                        default=str,
                    )
                )
            else:
                print(_said_of(path, _rejected(exc, args.lang), args.lang))
            continue
        if args.json:
            print(json.dumps({"file": path, "ok": True, "status": r.status, "result": r.result}))
        else:
            summary = (
                msg(
                    "core.cli.finished",
                    result=r.game.describe_result(r.result, Table(r.players, r.options)),
                )
                if r.result
                else msg("core.cli.unfinished")
            )
            ok = msg("core.cli.ok", summary=summary, count=len(r.actions))
            print(_said_of(path, render(ok, args.lang), args.lang))
    return 1 if rejected else 0


def cmd_play(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    if game is None:
        print(
            render(
                msg("core.cli.unknown_game", game=repr(args.game)),
                getattr(args, "lang", DEFAULT_LOCALE),
            ),
            file=sys.stderr,
        )
        return 2
    bots = args.bots.split(",")
    if args.players and len(bots) == 1:
        bots = bots * args.players
    options: dict[str, Any] = json.loads(args.options) if args.options else {}
    try:
        log = play(args.game, args.seed, bots, options=options, max_actions=args.max_actions)
    except ValueError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    text = json.dumps(log, indent=1 if args.pretty else None)
    if args.out:
        Path(args.out).write_text(text + "\n")
    else:
        print(text)
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    print(json.dumps(log_schema(), indent=2))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    try:
        r = _load(args.file)
    except IllegalAction as exc:
        if exc.partial is None:
            print(_rejected(exc, args.lang), file=sys.stderr)
            return 1
        print(
            f"{_rejected(exc, args.lang)}\n{render(msg('core.cli.partial'), args.lang)}",
            file=sys.stderr,
        )
        r = exc.partial
    ply = len(r.actions) if args.ply is None else args.ply
    print(r.game.render_text(r.state_at(ply), args.lang))
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    """Every move of a log as a sentence in ``--lang``, then its result: the log as the
    site's replay says it (the whole log is read, so every hidden fact is shown)."""
    try:
        r = _load(args.file)
    except IllegalAction as exc:
        print(_rejected(exc, args.lang), file=sys.stderr)
        if exc.partial is None:
            return 1
        r = exc.partial
    for frame in r.frames(None):
        if frame["message"] is not None:
            print(f"{frame['ply']}. {render(frame['message'], args.lang)}")
    if r.result:
        print(render(r.game.describe_result(r.result, Table(r.players, r.options)), args.lang))
    return 0


def cmd_board(args: argparse.Namespace) -> int:
    """``board check FILE`` / ``board show FILE``: a Mister X board file (or ``europe/1``)."""
    try:
        board = load_board_file(args.file)
    except BoardError as exc:
        print(f"{args.file}: rejected: {exc.rule}: {exc.message} (rule: {rule_path(exc.rule)})")
        return 1
    if args.board_command == "check":
        print(
            f"{args.file}: ok: board {board.key} ({board.name}), {len(board.cities)} cities, "
            f"{len(board.connections)} connections"
        )
    else:
        print(board_summary(board))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    # ``--lang`` is taken before or after the command (``--lang ja validate f`` or
    # ``validate --lang ja f``); SUPPRESS keeps a subcommand from resetting the first.
    lang = argparse.ArgumentParser(add_help=False)
    lang.add_argument(
        "--lang",
        choices=locales(),
        default=argparse.SUPPRESS,
        help="the language of refusals and sentences (default: en)",
    )
    parser.add_argument(
        "--lang",
        choices=locales(),
        default=DEFAULT_LOCALE,
        help="the language of refusals and sentences (default: en)",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("validate", parents=[lang], help="replay logs; exit 1 when any is rejected")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("play", help="let bots play one game and print its log")
    p.add_argument("--game", required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--bots", required=True, help="one bot name per seat, comma-separated")
    p.add_argument("--players", type=int, help="number of seats, for games where it varies")
    p.add_argument("--options", help="the log's options, as JSON")
    p.add_argument("--max-actions", type=int, default=2000)
    p.add_argument("--out", help="write the log here instead of standard output")
    p.add_argument("--pretty", action="store_true")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("schema", help="print the JSON Schema of lantern-log/1")
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("show", parents=[lang], help="print a log's state as text")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--ply", type=int, help="after this many actions (default: the end)")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser(
        "moves", parents=[lang], help="print a log's moves as sentences, then its result"
    )
    p.add_argument("file", metavar="FILE")
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser("board", help="check or summarise a Mister X board file")
    p.add_argument("board_command", choices=["check", "show"])
    p.add_argument(
        "file", metavar="FILE", help="a board JSON file, or a shipped board such as europe/1"
    )
    p.set_defaults(func=cmd_board)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)
