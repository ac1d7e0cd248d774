"""Club, Player and Membership move from the games app to clubs.

State only: the models keep their tables (games_club, games_player, games_membership),
so no row is copied and no foreign key constraint changes. games/0009 drops them from
the games app's state once every app that points at them points here instead.
The content types are renamed too, so admin history and permissions follow the models.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = ("club", "player", "membership")


def _relabel(apps, schema_editor, old: str, new: str) -> None:
    """Point the content types of the moved models at their new app, so admin history and
    permissions stay attached to them. Skipped where the new label already exists."""
    content_type = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MOVED:
        if not content_type.objects.using(db).filter(app_label=new, model=model).exists():
            content_type.objects.using(db).filter(app_label=old, model=model).update(app_label=new)
    content_type.objects.clear_cache()


def content_types_follow(apps, schema_editor) -> None:
    _relabel(apps, schema_editor, "games", "clubs")


def content_types_go_back(apps, schema_editor) -> None:
    _relabel(apps, schema_editor, "clubs", "games")


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0001_initial'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('games', '0008_import_attempts_heartbeat'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='Club',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=120)),
                        ('slug', models.SlugField(max_length=64, unique=True)),
                        ('is_public', models.BooleanField(default=True, help_text='Public clubs are listed and readable by everyone.')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        'db_table': 'games_club',
                        'ordering': ['name'],
                        'constraints': [models.CheckConstraint(condition=models.Q(('slug', ''), _negated=True), name='club_slug_not_empty'), models.CheckConstraint(condition=models.Q(('name', ''), _negated=True), name='club_name_not_empty')],
                    },
                ),
                migrations.AlterField(
                    model_name='auditentry',
                    name='club',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='audit_entries', to='clubs.club'),
                ),
                migrations.AlterField(
                    model_name='invite',
                    name='club',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='invites', to='clubs.club'),
                ),
                migrations.AlterField(
                    model_name='joinrequest',
                    name='club',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='join_requests', to='clubs.club'),
                ),
                migrations.CreateModel(
                    name='Membership',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('role', models.CharField(choices=[('member', 'Member'), ('organiser', 'Organiser')], default='member', max_length=16)),
                        ('joined_at', models.DateTimeField(auto_now_add=True)),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to='clubs.club')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'games_membership',
                        'constraints': [models.UniqueConstraint(fields=('user', 'club'), name='membership_unique_user_club'), models.CheckConstraint(condition=models.Q(('role__in', ['member', 'organiser'])), name='membership_role_valid')],
                    },
                ),
                migrations.CreateModel(
                    name='Player',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('handle', models.CharField(max_length=64)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='players', to='clubs.club')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='players', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'games_player',
                        'ordering': ['club', 'handle'],
                        'constraints': [models.UniqueConstraint(fields=('club', 'handle'), name='player_handle_unique_in_club'), models.CheckConstraint(condition=models.Q(('handle', ''), _negated=True), name='player_handle_not_empty')],
                    },
                ),
            ],
        ),
        migrations.RunPython(content_types_follow, content_types_go_back),
    ]
