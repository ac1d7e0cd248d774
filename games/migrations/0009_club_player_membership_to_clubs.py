"""Club, Player and Membership leave the games app's state (their tables stay, now owned by
clubs; see clubs/0002). State only: nothing in the database changes."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0002_club_player_membership_from_games'),
        ('games', '0008_import_attempts_heartbeat'),
        ('ladder', '0007_club_and_player_live_in_clubs'),
        ('recorder', '0003_club_lives_in_clubs'),
        ('tournaments', '0003_club_and_player_live_in_clubs'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.RemoveField(
                    model_name='player',
                    name='club',
                ),
                migrations.RemoveField(
                    model_name='membership',
                    name='club',
                ),
                migrations.AlterField(
                    model_name='match',
                    name='club',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='matches', to='clubs.club'),
                ),
                migrations.AlterField(
                    model_name='upload',
                    name='club',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='uploads', to='clubs.club'),
                ),
                migrations.AlterField(
                    model_name='import',
                    name='club',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='imports', to='clubs.club'),
                ),
                migrations.RemoveField(
                    model_name='membership',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='player',
                    name='user',
                ),
                migrations.AlterField(
                    model_name='matchseat',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='seats', to='clubs.player'),
                ),
                migrations.DeleteModel(
                    name='Club',
                ),
                migrations.DeleteModel(
                    name='Membership',
                ),
                migrations.DeleteModel(
                    name='Player',
                ),
            ],
        ),
    ]
