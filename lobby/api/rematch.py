"""The rematch through the API: read it, offer or accept it, decline it (lobby.rematch)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response

from games.api.serializers import entropy_field
from games.api.views import found
from lib.api.errors import ERRORS, error
from lib.api.views import ApiView, ReadAnyoneWriteSignedIn, body
from lobby import rematch


class RematchIn(serializers.Serializer):
    entropy = entropy_field()


class RematchSeat(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField()
    bot = serializers.CharField(allow_null=True)
    accepted = serializers.BooleanField()


class RematchYou(serializers.Serializer):
    accepted = serializers.BooleanField()


class RematchOut(serializers.Serializer):
    status = serializers.ChoiceField(choices=["open", "started", "declined"])
    offered_by = serializers.CharField()
    declined_by = serializers.CharField(allow_null=True)
    game = serializers.IntegerField(allow_null=True, help_text="The new game, once started.")
    seed_hash = serializers.CharField(
        allow_null=True, help_text="SHA-256 hex of the new game's server seed, drawn with the "
        "offer: every player's entropy reaches the server after it is committed (null for an "
        "offer made before seeds were drawn with it)")
    seats = RematchSeat(many=True)
    waiting_for = serializers.ListField(child=serializers.CharField())
    you = RematchYou(allow_null=True)


class RematchView(ApiView):
    """A finished game's rematch: GET reads it; POST offers it (201) or accepts it (200);
    the new game starts when every human seat has accepted."""
    permission_classes = [ReadAnyoneWriteSignedIn]

    @extend_schema(responses={200: RematchOut, **ERRORS})
    def get(self, request, game_id):
        game = found(request, game_id).game
        state = rematch.state_of(game, request.user)
        if state is None:
            return error(404, "no_rematch", "nobody has offered a rematch of this game")
        return Response(state)

    @extend_schema(request=RematchIn, responses={200: RematchOut, 201: RematchOut, **ERRORS})
    def post(self, request, game_id):
        game = found(request, game_id).game
        _, offered = rematch.offer_or_accept(game, request.user, body(request).get("entropy"))
        return Response(rematch.state_of(game, request.user),
                        status=status.HTTP_201_CREATED if offered else status.HTTP_200_OK)


class DeclineView(ApiView):
    """A player of the finished game declines its rematch: it is off for everyone."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: RematchOut, **ERRORS})
    def post(self, request, game_id):
        game = found(request, game_id).game
        rematch.decline(game, request.user)
        return Response(rematch.state_of(game, request.user))
