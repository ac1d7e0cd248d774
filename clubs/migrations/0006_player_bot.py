"""Player.bot: which of a club's players are the recorder's bots, so pages call
``bot-search`` "strong bot", and a bot is linked to no account. The recorder's bot
players already seated, in a stored match's log or in a draft, are marked from those
seat entries: a handle the recorder gave (``bot-<level>``, ``bot-<level>-2`` …) that no
account is linked to."""

from django.db import migrations, models


def mark_bots(apps, schema_editor):
    Player = apps.get_model("clubs", "Player")
    MatchLog = apps.get_model("games", "MatchLog")
    Draft = apps.get_model("recorder", "Draft")
    bots: set[tuple[int, str, str]] = set()
    logs = MatchLog.objects.filter(match__with_bots=True).values_list("match__club_id", "document")
    drafts = Draft.objects.values_list("club_id", "seats")
    for rows, seats_of in ((logs, lambda document: document.get("seats")), (drafts, lambda seats: seats)):
        for club_id, held in rows.iterator():
            for entry in seats_of(held) or []:
                bot = entry.get("bot") if isinstance(entry, dict) else None
                handle = entry.get("player") if isinstance(entry, dict) else None
                if (isinstance(bot, str) and 0 < len(bot) <= 16 and isinstance(handle, str)
                        and (handle == f"bot-{bot}" or handle.startswith(f"bot-{bot}-"))):
                    bots.add((club_id, handle, bot))
    for club_id, handle, bot in sorted(bots):
        Player.objects.filter(club_id=club_id, handle=handle, bot="", user__isnull=True).update(bot=bot)


class Migration(migrations.Migration):

    dependencies = [
        ("clubs", "0005_audit_summary_sentence"),
        ("games", "0011_import_error_sentence"),
        ("recorder", "0005_draft_write_answer_drawn_again"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="bot",
            field=models.CharField(
                blank=True,
                default="",
                help_text="The engine level of the bot that plays as this handle (search), set when a "
                "bot seat created it; blank for a person.",
                max_length=16,
            ),
        ),
        migrations.RunPython(mark_bots, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(
                condition=models.Q(("bot", "")) | models.Q(("user__isnull", True)),
                name="player_bot_has_no_account",
            ),
        ),
    ]
