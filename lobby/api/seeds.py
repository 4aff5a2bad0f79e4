"""The server seed of the caller's next game or rematch offer, read before sending entropy
with it (lobby.seeds)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response

from lib.api.errors import ERRORS
from lib.api.views import ApiView
from lobby import seeds


class NextSeedOut(serializers.Serializer):
    seed_hash = serializers.CharField(
        help_text="SHA-256 hex of the server seed your next game (POST /games/) or rematch "
        "offer will play by: read it, then send your entropy, and check the game's seed_hash "
        "is this one")
    committed_at = serializers.DateTimeField()


class NextSeedView(ApiView):
    """GET: the seed drawn ahead for the caller's next game or rematch offer (drawn the
    first time, the same until a game takes it): only its hash, the seed is revealed when
    that game is over."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: NextSeedOut, **ERRORS})
    def get(self, request):
        ahead = seeds.next_for(request.user)
        return Response({"seed_hash": ahead.seed_hash,
                         "committed_at": ahead.committed_at.isoformat()})
