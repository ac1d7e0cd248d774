"""``python -m engine``: validate logs, let bots play, print the schema, show a state."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.core.envelope import parse_json
from engine.core.errors import IllegalAction, rule_path
from engine.core.messages import msg
from engine.core.play import play
from engine.core.registry import get_game
from engine.core.replay import Replay, replay
from engine.core.schema import log_schema


def _load(path: str) -> Replay:
    try:
        text = Path(path).read_bytes() if path != "-" else sys.stdin.buffer.read()
    except OSError as exc:
        raise IllegalAction("LOG-JSON", msg("core.refuse.cannot_read_file", strerror=str(exc.strerror))) from None
    return replay(parse_json(text))


def _with_rule_path(exc: IllegalAction) -> str:
    """``action 8 (cryptid draw): CUL-3.7: ... (rule: /rules/cryptid-urban-legends/#CUL-3.7)``:
    the rejection, and where Lantern's site shows the rule's text."""
    url = rule_path(exc.rule)
    return f"{exc}" + (f" (rule: {url})" if url else "")


def cmd_validate(args: argparse.Namespace) -> int:
    rejected = 0
    for path in args.files:
        try:
            r = _load(path)
        except IllegalAction as exc:
            rejected += 1
            if args.json:
                print(json.dumps({"file": path, "ok": False, **exc.as_dict(), "rule_url": rule_path(exc.rule)}))
            else:
                print(f"{path}: rejected: {_with_rule_path(exc)}")
            continue
        if args.json:
            print(json.dumps({"file": path, "ok": True, "status": r.status, "result": r.result}))
        else:
            summary = r.status
            if r.result:
                summary += f", {r.result['winner']} wins ({r.result['reason']})"
            print(f"{path}: ok: {summary}, {len(r.actions)} actions")
    return 1 if rejected else 0


def cmd_play(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    if game is None:
        print(f"unknown game {args.game!r}", file=sys.stderr)
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
            print(f"rejected: {_with_rule_path(exc)}", file=sys.stderr)
            return 1
        print(f"rejected: {_with_rule_path(exc)}\n(showing the valid part)", file=sys.stderr)
        r = exc.partial
    ply = len(r.actions) if args.ply is None else args.ply
    print(r.game.render_text(r.state_at(ply)))
    return 0


def cmd_board(args: argparse.Namespace) -> int:
    """``board check FILE`` / ``board show FILE``: a Mister X board file (or ``europe/1``)."""
    from engine.games.misterx.board import BoardError, board_summary, load_board_file

    try:
        board = load_board_file(args.file)
    except BoardError as exc:
        print(f"{args.file}: rejected: {exc.rule}: {exc.message} (rule: {rule_path(exc.rule)})")
        return 1
    if args.board_command == "check":
        print(f"{args.file}: ok: board {board.key} ({board.name}), {len(board.cities)} cities, "
              f"{len(board.connections)} connections")
    else:
        print(board_summary(board))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("validate", help="replay logs; exit 1 when any is rejected")
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

    p = sub.add_parser("show", help="print a log's state as text")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--ply", type=int, help="after this many actions (default: the end)")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("board", help="check or summarise a Mister X board file")
    p.add_argument("board_command", choices=["check", "show"])
    p.add_argument("file", metavar="FILE", help="a board JSON file, or a shipped board such as europe/1")
    p.set_defaults(func=cmd_board)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)
