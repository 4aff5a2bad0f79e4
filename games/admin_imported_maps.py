"""The admin of imported community maps (games.boards), for moderators: the list with each
map's size and the games played on it, enabling and disabling, deleting only a disabled
map no game uses (a refusal says why), and importing a file (as `manage.py import_map`)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages

from engine.maps.formats import MapFileError, where
from games import boards
from games.models import ImportedMap, MapVersion


class ImportForm(forms.ModelForm):
    """A community map file to import (the model's own fields are filled by the import)."""

    file = forms.FileField(help_text="A Domination .map or a Conquest-format map file.")
    map_id = forms.CharField(required=False, max_length=48, label="Id",
                             help_text="Default: the map's name, slugified.")
    map_name = forms.CharField(required=False, max_length=100, label="Name",
                               help_text="Default: the file's own name for the map.")
    replace = forms.BooleanField(required=False, help_text=(
        "Import a new version of the map with this id (games on the old ones keep them)."))

    user = None
    # What reading the upload gave: a boards.MapRead, or the faults (a list of lines). The
    # admin reads it before its transaction begins (ImportedMapAdmin.changeform_view);
    # None: the form reads it as it is checked.
    read = None
    store = True  # False: read the file, store nothing

    class Meta:
        model = ImportedMap
        fields: list = []

    def clean(self):
        cleaned = super().clean()
        upload = cleaned.get("file")
        if upload is None or self.errors:  # a field at fault: nothing read, nothing stored
            return cleaned
        if self.read is None:
            self.read = read_upload(upload, cleaned)
        if not isinstance(self.read, boards.MapRead):
            raise forms.ValidationError(self.read)
        if self.store:
            try:
                self.imported = boards.store_map(self.read, replace=cleaned.get("replace", False),
                                               by=self.user)
            except boards.ImportRefused as problem:
                raise forms.ValidationError(str(problem)) from None
        return cleaned


def read_upload(upload, cleaned: dict) -> boards.MapRead | list[str]:
    """An uploaded map file read, checked and drawn (slow: no transaction may be open), or
    what is wrong with it, a line each."""
    if upload.size > boards.MAX_FILE_BYTES:
        return [f"the file is {upload.size} bytes: at most {boards.MAX_FILE_BYTES} are read"]
    try:
        return boards.read_map(upload.read(), upload.name, map_id=cleaned.get("map_id") or None,
                             name=cleaned.get("map_name") or None)
    except MapFileError as problem:
        return str(problem).splitlines()
    except boards.ImportRefused as problem:
        return [str(problem)]


@admin.register(ImportedMap)
class ImportedMapAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "territories", "games", "enabled", "source_format",
                    "imported_at")
    list_filter = ("enabled",)
    search_fields = ("id", "name")
    actions = ["enable_maps", "disable_maps", "delete_unused_maps"]
    readonly_fields = ("id", "name", "territories", "continents", "players", "games",
                       "source_format", "imported_at", "imported_by", "versions_kept")
    fields = (*readonly_fields[:2], "enabled", *readonly_fields[2:])

    def _moderator(self, request) -> bool:
        return request.user.has_perm("games.moderate_game")

    def has_view_permission(self, request, obj=None):
        return self._moderator(request)

    def has_change_permission(self, request, obj=None):
        return self._moderator(request)  # only `enabled` can change

    def has_add_permission(self, request):
        return self._moderator(request)  # an upload: the map's own fields come from it

    def has_delete_permission(self, request, obj=None):
        return False  # only through delete_unused_maps, which refuses a map in use

    def has_moderate_permission(self, request):
        return self._moderator(request)

    def get_form(self, request, obj=None, **kwargs):
        if obj is not None:
            return super().get_form(request, obj, **kwargs)
        return type("ImportFormFor", (ImportForm,), {
            "user": request.user, "read": getattr(request, "map_read", None)})

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        """An upload is read, checked and drawn before the admin's transaction begins (it
        takes seconds for a large map, and on SQLite an open transaction holds the one
        write lock: every move, chat line and sign-in would wait for it); inside, the map
        is only stored."""
        if object_id is None and request.method == "POST" and \
                self.has_add_permission(request):
            reading = self.get_form(request)(request.POST, request.FILES)
            reading.store = False
            reading.is_valid()
            request.map_read = reading.read
        return super().changeform_view(request, object_id, form_url, extra_context)

    def get_fields(self, request, obj=None):
        return ("file", "map_id", "map_name", "replace") if obj is None else self.fields

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else self.readonly_fields

    def save_model(self, request, obj, form, change):
        if change:
            boards.set_enabled(obj, obj.enabled)
            return
        done = form.imported  # the import ran when the form was checked
        obj.pk, obj.name, obj.enabled = done.map.pk, done.map.name, done.map.enabled
        obj._state.adding = False
        for line, text in done.warnings:
            self.message_user(request, where(line, text), messages.WARNING)
        self.message_user(request, f"{done.map.pk}: {done.outcome}", messages.INFO)

    @admin.display(description="territories")
    def territories(self, row):
        return len(row.data["territories"])

    @admin.display(description="continents")
    def continents(self, row):
        return len(row.data["continents"])

    @admin.display(description="players")
    def players(self, row):
        sizes = [int(n) for n in row.data["starting_armies"]]
        return f"{min(sizes)}-{max(sizes)}"

    @admin.display(description="games on it")
    def games(self, row):
        return boards.games_using(row.pk)

    @admin.display(description="versions kept")
    def versions_kept(self, row):
        return ", ".join(f"{v.hash[:12]} ({v.imported_at:%Y-%m-%d %H:%M})"
                         for v in MapVersion.objects.filter(map=row).order_by("imported_at"))

    @admin.action(description="Enable the selected maps for new games",
                  permissions=["moderate"])
    def enable_maps(self, request, queryset):
        for row in queryset:
            boards.set_enabled(row, True)
        self.message_user(request, f"{queryset.count()} map(s) enabled", messages.SUCCESS)

    @admin.action(description="Disable the selected maps (games on them play on)",
                  permissions=["moderate"])
    def disable_maps(self, request, queryset):
        for row in queryset:
            boards.set_enabled(row, False)
        self.message_user(request, f"{queryset.count()} map(s) disabled", messages.SUCCESS)

    @admin.action(description="Delete the selected maps (only disabled ones no game uses)",
                  permissions=["moderate"])
    def delete_unused_maps(self, request, queryset):
        for row in list(queryset):
            try:
                boards.delete_map(row)
            except boards.MapInUse as refusal:
                self.message_user(request, f"{row.pk}: not deleted: {refusal}", messages.ERROR)
            else:
                self.message_user(request, f"{row.pk}: deleted", messages.SUCCESS)
