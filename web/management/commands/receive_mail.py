"""manage.py receive_mail < message.eml: play the moves of one RFC 822 mail (an MTA pipe)."""

import email
import email.policy
import sys

from django.core.management.base import BaseCommand

from web.mail_moves import receive_message


class Command(BaseCommand):
    help = "Read one mail on standard input and play the moves it carries."

    def handle(self, *args, **options):
        message = email.message_from_binary_file(sys.stdin.buffer, policy=email.policy.compat32)
        inbound = receive_message(message)
        self.stdout.write(f"{inbound.status}: {inbound.detail}")
