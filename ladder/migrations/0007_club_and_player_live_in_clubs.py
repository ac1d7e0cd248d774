"""Ladder, Rating and RatingChange point at clubs.Club / clubs.Player (state only: same tables)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0002_club_player_membership_from_games'),
        ('ladder', '0006_ladder_game_from_engine'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name='ladder',
                    name='club',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ladders', to='clubs.club'),
                ),
                migrations.AlterField(
                    model_name='rating',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='clubs.player'),
                ),
                migrations.AlterField(
                    model_name='ratingchange',
                    name='player',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='clubs.player'),
                ),
            ],
        ),
    ]
