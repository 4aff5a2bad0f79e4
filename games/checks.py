"""System checks of what the database holds (run by `manage.py check --database default`
and by `migrate`)."""

from __future__ import annotations

from django.core.checks import Tags, Warning, register
from django.db import DatabaseError

from games import boards


@register(Tags.database)
def imported_maps_shadow_no_shipped_map(app_configs, databases=None, **kwargs):
    """An imported map kept under a shipped map's id (imported before that map shipped, as
    `import_map` refuses it now) is never found by its id: the shipped map is."""
    if not databases:
        return []
    clashes = []
    for alias in databases:
        try:
            clashes += boards.shadowed_imports(alias)
        except DatabaseError:  # not migrated yet
            continue
    return [Warning(
        f"The imported map {map_id!r} has the id of a shipped map: games, pages and the API "
        f"find the shipped map under it; new games on the import and its page are gone (games "
        f"started on it keep its version, found by hash).",
        hint=f"Import the file again under another id (manage.py import_map FILE --id "
             f"{map_id}_community) and disable this one in the admin.",
        obj=f"games.ImportedMap {map_id!r}", id="games.W001") for map_id in clashes]
