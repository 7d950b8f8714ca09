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
from django.urls import path, re_path  # noqa: E402

from addiction_site.request_body import AsgiContentTypeGuard  # noqa: E402
from races import stream  # noqa: E402

application = URLRouter(
    [
        path("race/<slug:code>/stream/", stream.stream),  # type: ignore[arg-type]  # an ASGI app, as Channels routes
        # Wrapped as the WSGI application is: a Content-Type Django cannot parse gets the site's 400 page.
        re_path(r"", AsgiContentTypeGuard(django_application)),
    ]
)
