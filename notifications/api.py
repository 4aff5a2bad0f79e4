"""/api/v1/vacations/: a player's declared vacations."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from lib.api.errors import Error, error
from lib.api.parsers import StrictJSONParser
from lib.api.schema import refuses
from lib.inputs import moment
from notifications.models import Vacation
from notifications.vacations import VacationError, cancel, current_and_coming, declare


class VacationIn(serializers.Serializer):
    starts = serializers.DateTimeField()
    ends = serializers.DateTimeField()


class VacationOut(serializers.Serializer):
    id = serializers.IntegerField()
    starts = serializers.DateTimeField()
    ends = serializers.DateTimeField()
    days = serializers.FloatField()


def shown(vacation: Vacation) -> dict:
    return {"id": vacation.pk, "starts": vacation.starts.isoformat(),
            "ends": vacation.ends.isoformat(), "days": round(vacation.days, 2)}


ERRORS = {400: Error, 401: Error, 404: Error}


def _instant(raw):
    """The instant `raw` spells, read strictly (lib.inputs.moment); a well-formed time
    without a zone as that naive time, which declare refuses in its own words; else None."""
    found = moment(raw)
    if found is None and isinstance(raw, str):
        zoneless = moment(f"{raw}Z")
        return zoneless.replace(tzinfo=None) if zoneless is not None else None
    return found


class VacationsView(APIView):
    """Your vacations, current and coming (GET), and declaring one (POST): while one lasts,
    the deadlines of your decisions are stretched. Blank or missing `starts`/`ends` are a
    400, as is any body that is not JSON."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [StrictJSONParser]

    @extend_schema(responses={200: VacationOut(many=True), 401: Error})
    def get(self, request):
        return Response([shown(v) for v in current_and_coming(request.user)])

    @extend_schema(request=VacationIn, responses={201: VacationOut, **ERRORS},
                   description="starts and ends: ISO 8601 date-times with a time zone, "
                               "neither blank; the vacation must end within a year.")
    @refuses({400: ["bad_vacation"]})
    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        starts, ends = (_instant(data.get(k)) for k in ("starts", "ends"))
        if starts is None or ends is None:
            return error(400, "bad_request", "starts and ends must be ISO 8601 date-times")
        try:
            vacation = declare(request.user, starts, ends)
        except VacationError as problem:
            return error(400, "bad_vacation", str(problem))
        return Response(shown(vacation), status=status.HTTP_201_CREATED)


class VacationView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [StrictJSONParser]

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def delete(self, request, vacation_id):
        """Call off one of your vacations (204); deadlines are no longer stretched for it."""
        vacation = get_object_or_404(Vacation, pk=vacation_id, user=request.user,
                                     ends__gt=timezone.now())
        cancel(vacation)
        return Response(status=status.HTTP_204_NO_CONTENT)
