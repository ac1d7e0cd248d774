from django.db import migrations

#: The value kinds of the explanations' earlier shape, and the message ids that say them
#: now (tournaments.pairing.explanations; written out, as a migration must not follow the
#: code it migrates).
JOINS = {"comma": "pairing.listing", "semicolon": "pairing.clauses", "plus": "pairing.terms"}


def as_message(said):
    """An explanation kept as ``{"role"}``, ``{"points"}``, ``{"list", "join"}`` and
    ``{"id", "plural", "params"}`` nodes, as the engine's messages: ``{"id", "params"}``
    throughout, a list joined by "and" a plain list; plain values as they are."""
    if not isinstance(said, dict):
        return said
    if "role" in said:
        if said.get("seats"):
            return {"id": "pairing.seat", "params": {"seat": said["role"], "seats": said["seats"]}}
        return {"id": "pairing.role", "params": {"role": said["role"]}}
    if "points" in said:
        return {"id": "pairing.score", "params": {"points": said["points"]}}
    if "list" in said:
        items = [as_message(item) for item in said["list"]]
        return (
            items
            if said["join"] == "and"
            else {"id": JOINS[said["join"]], "params": {"items": items}}
        )
    if "id" in said:  # a plural's second form is the catalog's, found by its first
        return {
            "id": said["id"],
            "params": {
                name: as_message(value) for name, value in (said.get("params") or {}).items()
            },
        }
    return said  # {"plain": text}: a pairing from before explanations were kept


def forwards(apps, schema_editor):
    Pairing = apps.get_model("tournaments", "Pairing")
    pairings = list(Pairing.objects.exclude(why={}).only("pk", "why"))  # an event's rounds: few
    for pairing in pairings:
        pairing.why = as_message(pairing.why)
    Pairing.objects.bulk_update(pairings, ["why"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0005_pairing_why"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
