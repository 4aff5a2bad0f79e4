"""The WSGI entry point the web tier serves (gunicorn config.wsgi:application)."""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

# What is loaded now (Django, the apps, the URL map and every view it imports) lives as
# long as the process: moved out of the cyclic garbage collector's sight (gc.freeze), so a
# collection during a request scans only what requests made, not all of it again.
get_resolver().url_patterns  # noqa: B018 (imports every view now, not on a first request)
gc.freeze()
