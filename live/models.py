"""The streams' leases, where the streams have no Redis (the embedded default)."""

from django.db import models


class StreamLease(models.Model):
    """One stream open somewhere on the site: whose it counts against (a user's id, or a
    signed-out client's address) and until when, renewed while it stays open."""

    counted = models.CharField(max_length=80)
    expires = models.FloatField()  # seconds since the epoch, as Redis keeps them

    class Meta:
        indexes = [models.Index(fields=["counted", "expires"])]
