"""Ladder API: ladders, standings, a player's history, recompute jobs (read-only)."""

from __future__ import annotations

from django.utils.functional import cached_property
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.response import Response

from games import read_cache
from games.api.serializers import FieldsOnceMixin, datetime_text
from ladder import selectors
from ladder.models import Ladder, Rating, RatingChange, RecomputeJob


class LadderSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    rating_options = serializers.SerializerMethodField(
        help_text="EL-1.1 options with every default filled in."
    )

    class Meta:
        model = Ladder
        fields = [
            "id",
            "club",
            "game",
            "kind",
            "rating_options",
            "role_tallies",
            "rated_matches",
            "last_rated_at",
        ]

    def get_rating_options(self, ladder: Ladder) -> dict:
        return ladder.rating_options.to_json()


class RatingSerializer(FieldsOnceMixin, serializers.ModelSerializer):
    rank = serializers.IntegerField(read_only=True)
    player = serializers.IntegerField(source="player_id", read_only=True)
    handle = serializers.CharField(source="player.handle", read_only=True)
    display = serializers.CharField(read_only=True, help_text='Rounded; "1532?" when provisional.')

    class Meta:
        model = Rating
        fields = [
            "rank",
            "player",
            "handle",
            "rating",
            "display",
            "provisional",
            "games",
            "wins",
            "losses",
            "roles",
            "last_played_at",
        ]

    def to_representation(self, rating: Rating) -> dict:
        """The fields above, written out: standings are asked for far more often than
        they change. tests/ladder/test_pages_api.py holds this equal to the generic walk."""
        return {
            "rank": rating.rank,
            "player": rating.player_id,
            "handle": rating.player.handle,
            "rating": rating.rating,
            "display": rating.display,
            "provisional": rating.provisional,
            "games": rating.games,
            "wins": rating.wins,
            "losses": rating.losses,
            "roles": rating.roles,
            "last_played_at": datetime_text(rating.last_played_at),
        }


class RatingChangeSerializer(serializers.ModelSerializer):
    delta = serializers.FloatField(read_only=True)

    class Meta:
        model = RatingChange
        fields = [
            "match",
            "sequence",
            "played_at",
            "role",
            "before",
            "after",
            "delta",
            "expected",
            "score",
            "k",
            "weight",
            "advantage",
            "opponent_rating",
            "won",
        ]


class RecomputeJobSerializer(serializers.ModelSerializer):
    percent = serializers.IntegerField(read_only=True)

    class Meta:
        model = RecomputeJob
        fields = [
            "id",
            "reason",
            "status",
            "phase",
            "progress",
            "total",
            "percent",
            "error",
            "created_at",
            "started_at",
            "finished_at",
        ]


def _ladder(request, ladder_id: int) -> Ladder:
    return selectors.ladder_by_id(request.user, ladder_id)


class LadderList(generics.ListAPIView):
    """The ladders of the clubs you can see."""

    serializer_class = LadderSerializer

    def get_queryset(self):
        return selectors.visible_ladders(self.request.user).order_by("club__slug", "game")


class Standings(generics.ListAPIView):
    """A ladder's standings, highest rating first (EL-1.3: ratings are floats; ``display``
    is rounded, with "?" while provisional)."""

    serializer_class = RatingSerializer

    @cached_property
    def ladder(self) -> Ladder:
        return _ladder(self.request, self.kwargs["ladder_id"])

    def list(self, request, *args, **kwargs):
        # Cached until the club changes or the ladder rates again (games.read_cache).
        ladder = self.ladder
        answer = read_cache.cached_answer(
            ladder.club_id,
            request,
            lambda: super(Standings, self).list(request, *args, **kwargs).data,
            shows=(read_cache.PLAYERS,),
            part=f"ladder:{ladder.pk}:{ladder.version}",
        )
        return Response(answer)

    def get_queryset(self):
        return selectors.ratings_by_rank(self.ladder)

    def paginate_queryset(self, queryset):
        page = super().paginate_queryset(queryset)
        rows = page if page is not None else list(queryset)
        offset = (self.paginator.page.start_index() - 1) if page is not None else 0
        for n, rating in enumerate(rows, 1):
            rating.rank = offset + n
        return page


class History(generics.ListAPIView):
    """A player's rating changes in a ladder, newest first: every EL-7.1 field, enough to
    redo ``after = before + k * weight * (score - expected)``."""

    serializer_class = RatingChangeSerializer

    def get_queryset(self):
        ladder = _ladder(self.request, self.kwargs["ladder_id"])
        return selectors.rating_changes(ladder, self.kwargs["player_id"])


@extend_schema(description="Recompute jobs of a ladder, newest first: status and progress.")
class Jobs(generics.ListAPIView):
    serializer_class = RecomputeJobSerializer

    def get_queryset(self):
        ladder = _ladder(self.request, self.kwargs["ladder_id"])
        return selectors.recompute_jobs(ladder)
