"""ASGI entry point: daphne addiction_site.asgi:application.

The same Django site as addiction_site/wsgi.py, and beside it the races' live streams
(races/stream.py), which only an ASGI server can hold open.  In production gunicorn serves the
site and daphne the streams (nginx routes /race/<code>/stream/ to it: deploy/nginx.conf.template);
`manage.py runserver` (python3 dev.py serve) serves both from this one application.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "addiction_site.settings")
django_application = get_asgi_application()  # sets Django up before the apps' modules are imported

from channels.routing import URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import path, re_path  # noqa: E402

from addiction_site.logs import AsgiAccessLog  # noqa: E402
from addiction_site.request_body import AsgiContentTypeGuard  # noqa: E402
from races import stream  # noqa: E402

routes = URLRouter(
    [
        path("race/<slug:code>/stream/", stream.stream),  # type: ignore[arg-type]  # an ASGI app, as Channels routes
        # Wrapped as the WSGI application is: a Content-Type Django cannot parse gets the site's 400 page.
        re_path(r"", AsgiContentTypeGuard(django_application)),
    ]
)
# daphne writes no access log of its own unless told to, and not as the site's lines: each request
# is one line of the site's logging (in development runserver says each already).
application = routes if settings.DEBUG else AsgiAccessLog(routes)
