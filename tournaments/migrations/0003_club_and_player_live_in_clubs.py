"""Tournament and Entry point at clubs.Club / clubs.Player (state only: same tables)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0002_club_player_membership_from_games'),
        ('tournaments', '0002_strict_role_parity'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name='entry',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='clubs.player'),
                ),
                migrations.AlterField(
                    model_name='tournament',
                    name='club',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tournaments', to='clubs.club'),
                ),
            ],
        ),
    ]
