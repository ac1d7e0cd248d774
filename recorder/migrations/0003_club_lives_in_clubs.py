"""Draft points at clubs.Club (state only: same table)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0002_club_player_membership_from_games'),
        ('recorder', '0002_draft_opened'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name='draft',
                    name='club',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='drafts', to='clubs.club'),
                ),
            ],
        ),
    ]
