"""The maps' pages: the index of every map, a map's page (its drawing, continents, bonuses,
table sizes and missions, a link to start a game on it) and its thumbnail (a small SVG,
cached: a map version never changes, its content hash is the ETag)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import etag, require_safe

from engine.maps import UnknownMap
from games.boards import board_of_map

from ..drawing import thumbnail_shapes
from ..page.map_page import drawing_context, map_context, map_options

THUMBNAIL_WIDTH = 240


def _board(map_id: str):
    try:
        return board_of_map(map_id)
    except UnknownMap:
        raise Http404("No map matches the given id.") from None


@require_safe
def map_index(request):
    return render(request, "maps/index.html", {"maps": map_options()})


@require_safe
def map_page(request, map_id: str):
    return render(request, "maps/map.html", map_context(_board(map_id)))


def _thumbnail_etag(request, map_id: str):
    try:
        return board_of_map(map_id).hash
    except UnknownMap:
        return None


@require_safe
@cache_control(public=True, max_age=86400)
@etag(_thumbnail_etag)
def map_thumbnail(request, map_id: str):
    board = _board(map_id)
    drawing = drawing_context(board, names=False,
                              shapes=thumbnail_shapes(board, THUMBNAIL_WIDTH))
    height = round(THUMBNAIL_WIDTH * drawing["height"] / drawing["width"])
    response = render(request, "maps/thumbnail.svg", {
        "drawing": drawing, "width": THUMBNAIL_WIDTH, "height": height, "board": board},
        content_type="image/svg+xml; charset=utf-8")
    response["X-Content-Type-Options"] = "nosniff"
    # Opened on its own, the picture may run nothing and load nothing.
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response
