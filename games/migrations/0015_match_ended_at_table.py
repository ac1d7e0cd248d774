from django.db import migrations, models


def from_live_uploads(apps, schema_editor):
    """A match a live table stored before this field: it was stored the moment its game
    ended, so its upload time is when it ended."""
    Match = apps.get_model("games", "Match")
    Upload = apps.get_model("games", "Upload")
    live = Upload.objects.filter(source="live", match__isnull=False).values("match_id")
    for match in Match.objects.filter(pk__in=live).only("pk", "uploaded_at"):
        Match.objects.filter(pk=match.pk).update(ended_at_table=match.uploaded_at)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_upload_source_live"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="ended_at_table",
            field=models.DateTimeField(
                blank=True,
                help_text="When the game ended at a live table (empty: uploaded or recorded). "
                "Who did not sit at it sees its hidden facts the club's delay after "
                "(Club.watchers_see_all_after; games.policy).",
                null=True,
            ),
        ),
        migrations.RunPython(from_live_uploads, migrations.RunPython.noop),
    ]
