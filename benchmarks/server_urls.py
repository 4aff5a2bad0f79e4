"""The product's URLs plus the framework floor: a bare Django view that inserts one row,
the least any command request could cost. Only the service benchmark's server serves it."""

import json

from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from config.urls import urlpatterns as product_urlpatterns

FLOOR_TABLE = "bench_floor"  # created by benchmarks.bench_service, in its own database


@csrf_exempt
def floor(request: HttpRequest, game_id: int) -> JsonResponse:
    body = json.loads(request.body)
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {FLOOR_TABLE} (game_id, body) VALUES (%s, %s)",
                       [game_id, json.dumps(body)])
    return JsonResponse({"game": game_id, "stored": True}, status=201)


urlpatterns = [path("bench/floor/<int:game_id>/", floor), *product_urlpatterns]
