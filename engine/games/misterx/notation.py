"""One short human line per Mister X action, full or redacted (``?`` = hidden)."""

from __future__ import annotations

from typing import Any


def _to(entry: dict[str, Any]) -> str:
    return str(entry["to"]) if "to" in entry else "?"


def _slot(entry: dict[str, Any]) -> str:
    return f" [{entry['slot']}]" if "slot" in entry else ""


def _tickets(tickets: Any) -> str:
    return ", ".join(tickets) if tickets else "nothing"


def notation(action: dict[str, Any]) -> str:
    seat, kind = action.get("seat"), action.get("type")
    if kind == "move" and seat == "mrx":
        return f"X {action.get('ticket')} -> {_to(action)}{_slot(action)}"
    if kind == "double":
        steps = ", ".join(
            f"{m.get('ticket')} -> {_to(m)}{_slot(m)}" for m in action.get("moves", [])
        )
        return f"X double (pays {_tickets(action.get('pay'))}): {steps}"
    if kind == "secret":
        face_down = action.get("ticket", "face down")
        pays = _tickets(action.get("pay"))
        return f"X secret (pays {pays}, lays {face_down}) -> {_to(action)}{_slot(action)}"
    if kind == "pass":
        return "X passes: rack back into the bag"
    if kind == "move":
        return f"{seat} {action.get('pawn')} {action.get('ticket')} -> {action.get('to')}"
    if kind == "stay":
        return f"{seat} {action.get('pawn')} cannot move"
    if kind == "investigate":
        paid = sum(len(v) for v in action.get("pay", {}).values())
        line = f"detectives investigate with {paid} tickets"
        if "reveal" in action:
            line += f": move {action['reveal']['slot']} was in {action['reveal']['city']}"
        return line
    if kind == "siren":
        paid = sum(len(v) for v in action.get("pay", {}).values())
        return f"detectives siren with {paid} tickets: {action.get('pawn')} -> {action.get('to')}"
    if kind == "discard":
        return f"{seat} returns {_tickets(action.get('tickets'))}"
    if kind == "refill":
        if "tickets" in action:
            return f"{seat} draws {_tickets(action['tickets'])}"
        return f"{seat} draws {action.get('count', '?')} ticket(s)"
    return f"{seat} {kind}"
