"""`manage.py clear_metrics`: empties the metrics folder before a host's processes start."""

from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = ("Delete the counts the previous run's processes left in CONQUEST_METRICS_DIR. Run "
            "it before starting a host's web and worker processes, never while they run.")

    def handle(self, *args, **options):
        removed = 0
        for path in settings.CONQUEST_METRICS_DIR.glob("*.db"):
            path.unlink(missing_ok=True)
            removed += 1
        if options["verbosity"]:
            self.stdout.write(f"{removed} file(s) removed from "
                              f"{settings.CONQUEST_METRICS_DIR}")
