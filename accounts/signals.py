"""A password change revokes every API token of the account (as it ends every other
session: Django's own views keep only the session that made the change)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models.signals import pre_save
from django.dispatch import receiver

from accounts.models import ApiToken


@receiver(pre_save, sender=get_user_model())
def revoke_tokens_on_password_change(sender, instance, update_fields=None, **kwargs):
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    before = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if before is not None and before != instance.password:
        ApiToken.objects.filter(user_id=instance.pk).delete()
