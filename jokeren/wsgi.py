"""WSGI entry point (gunicorn jokeren.wsgi).

The site's code (the URLconf, its views, the services and the engine) is imported here,
before the first request, and everything loaded so far is then moved out of the cyclic
garbage collector's reach (``gc.freeze``): those objects live as long as the process, and
without this every full collection walks them all again, a pause of tens of milliseconds
that lands on whichever request allocates at that moment (benchmarks/README.md, "The
garbage collector in the web worker").
"""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "jokeren.settings")

application = get_wsgi_application()
# The URL patterns import the views, and with them the services and the engine.
url_patterns = get_resolver().url_patterns
gc.collect()
gc.freeze()
