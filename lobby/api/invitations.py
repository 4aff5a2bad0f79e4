"""API of private games' invitations: invite a player by name, withdraw or decline an
invitation, renew a private game's link, list your invitations, and find a game by its
link's token. Thin: parse, call lobby.invitations, answer."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response

from games import visibility
from games.api import serializers as s
from games.api.views import found, game_view_for
from games.store.seats import read_seats
from lib.api.errors import ERRORS
from lib.api.views import ApiView, body
from lobby import invitations


class InviteView(ApiView):
    """The creator of an open game invites a player by name (GET: the game's
    invitations to its creator, one's own to an invitee)."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: s.InvitationOut(many=True), **ERRORS})
    def get(self, request, game_id):
        game = found(request, game_id).game
        rows = invitations.of_game(game)
        if game.creator_id != request.user.pk:
            rows = [row for row in rows if row.user_id == request.user.pk and row.delivered]
        return Response([invitations.as_dict(row) for row in rows])

    @extend_schema(request=s.InviteIn, responses={201: s.InvitationOut, **ERRORS})
    def post(self, request, game_id):
        invitation = invitations.invite(found(request, game_id).game, request.user,
                                        body(request).get("username"))
        return Response(invitations.as_dict(invitation), status=status.HTTP_201_CREATED)


class WithdrawView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=s.InviteIn, responses={200: s.InvitationOut, **ERRORS})
    def post(self, request, game_id):
        """The creator withdraws the invitation of `username` to an open game."""
        invitation = invitations.withdraw(found(request, game_id).game, request.user,
                                          body(request).get("username"))
        return Response(invitations.as_dict(invitation))


class DeclineView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: s.InvitationOut, **ERRORS})
    def post(self, request, game_id):
        """Decline your invitation to a game."""
        invitation = invitations.decline(found(request, game_id).game, request.user)
        return Response(invitations.as_dict(invitation))


class LinkOut(serializers.Serializer):
    invitation_token = serializers.CharField()


class RenewLinkView(ApiView):
    """The creator of an open private game replaces its link; the old token stops working."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: LinkOut, **ERRORS})
    def post(self, request, game_id):
        game = invitations.renew_link(found(request, game_id).game, request.user)
        return Response({"invitation_token": visibility.link_token(game)})


class MyInvitationsView(ApiView):
    """The caller's invitations not yet answered, to games still open."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: s.InvitationOut(many=True), **ERRORS})
    def get(self, request):
        return Response([{**invitations.as_dict(row), "name": row.game.name}
                         for row in invitations.pending_for(request.user)])


class ByTokenView(ApiView):
    """The game an invitation link's token opens (its view, as the holder may see it)."""
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: s.GameView, **ERRORS})
    def get(self, request, token):
        game = visibility.game_for_token(token)
        if game is None:
            raise Http404(visibility.NOT_FOUND)
        return Response(game_view_for(game, read_seats(game), request.user))
