"""What every admin page of the site shares: no query-string lookup on a hidden column,
how hidden values are shown, and actions that ask for a reason (the game filter and link
are games.admin's).

Every game is shown as a spectator sees it until it is over (no seed, no hidden event
data, no snapshot state, no mailed moves), so a moderator who also plays learns nothing in
the admin.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.paginator import Paginator
from django.db import connections
from django.template.response import TemplateResponse
from django.utils.html import format_html

HIDDEN = "(hidden until the game is over)"


# Plain comparisons a list filter's links make (status__exact, created_at__gte, ...).
FILTER_COMPARISONS = {"exact", "iexact", "gte", "gt", "lte", "lt", "isnull", "in", "id"}


class FilterOnlyWhatIsShown:
    """Query-string lookups only on the columns the list filters offer.

    Django accepts any lookup on a model's own columns (`?seed__startswith=9`), and a
    changelist that shows or hides a row answers a yes/no question about a hidden value:
    the seed, a card drawn, a snapshot's state or a mailed move would come out one
    character at a time. Anything but a filter's own plain comparison answers 400."""

    def lookup_allowed(self, lookup, value, request=None):
        own_filters = {f.parameter_name for f in self.list_filter
                       if isinstance(f, type) and issubclass(f, admin.SimpleListFilter)}
        if lookup in own_filters:  # ours: each reads only its own public column
            return super().lookup_allowed(lookup, value, request)
        field, *comparisons = lookup.split("__")
        offered = {f for f in self.list_filter if isinstance(f, str)}
        if field not in offered or not set(comparisons) <= FILTER_COMPARISONS:
            return False
        return super().lookup_allowed(lookup, value, request)


class EstimatedPaginator(Paginator):
    """A changelist's pages without counting a whole large table: unfiltered, PostgreSQL's
    own estimate of its rows (pg_class.reltuples, kept by autovacuum's ANALYZE) past
    ESTIMATE_FROM; a filtered list, or a small table, counted as usual."""

    ESTIMATE_FROM = 10_000

    @property
    def count(self):
        if "count" not in self.__dict__:
            self.__dict__["count"] = self._estimate()
        return self.__dict__["count"]

    def _estimate(self) -> int:
        query = getattr(self.object_list, "query", None)
        if query is None or query.where or query.distinct:
            return super().count
        connection = connections[self.object_list.db]
        if connection.vendor != "postgresql":
            return super().count
        with connection.cursor() as cursor:
            cursor.execute("SELECT reltuples::bigint FROM pg_class WHERE oid = %s::regclass",
                           [query.model._meta.db_table])
            found = cursor.fetchone()
        estimate = found[0] if found else -1
        return estimate if estimate >= self.ESTIMATE_FROM else super().count


def json_block(data) -> str:
    return format_html("<pre>{}</pre>", json.dumps(data, indent=2, ensure_ascii=False,
                                                   sort_keys=True, default=str))


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=500, widget=forms.Textarea(attrs={"rows": 3}))


def reason_action(name: str, label: str, run, refusals: tuple[type[Exception], ...],
                  field: str = "reason", permission: str = "moderate"):
    """An admin action that first asks for a reason (or note), then runs `run(request,
    obj, text)` on each selected object and reports each outcome as a message (a refusal,
    one of `refusals`, as "nothing was done")."""
    def action(modeladmin, request, queryset):
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            for obj in queryset:
                try:
                    said = run(request, obj, form.cleaned_data["reason"])
                    modeladmin.message_user(request, f"{obj}: {said}", messages.SUCCESS)
                except refusals as error:
                    detail = getattr(error, "detail", None) or str(error)
                    modeladmin.message_user(request, f"{obj}: nothing was done: {detail}",
                                            messages.ERROR)
            return None
        return TemplateResponse(request, "moderation/admin_reason.html", {
            **modeladmin.admin_site.each_context(request),
            "title": label, "label": label, "action": name, "field": field,
            "queryset": queryset, "form": form, "opts": modeladmin.model._meta,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        })

    action.__name__ = name
    action.short_description = label
    action.allowed_permissions = (permission,)
    return action


