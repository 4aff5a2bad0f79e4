"""Print a new VAPID key pair for web push (CONQUEST_VAPID_PRIVATE_KEY)."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Command(BaseCommand):
    help = "Print a new VAPID key pair: set CONQUEST_VAPID_PRIVATE_KEY to the first line."

    def handle(self, *args, **options):
        key = ec.generate_private_key(ec.SECP256R1())
        private = key.private_numbers().private_value.to_bytes(32, "big")
        public = key.public_key().public_bytes(serialization.Encoding.X962,
                                               serialization.PublicFormat.UncompressedPoint)
        self.stdout.write(f"CONQUEST_VAPID_PRIVATE_KEY={_b64(private)}\n")
        self.stdout.write(f"# public key (browsers subscribe with it): {_b64(public)}\n")
