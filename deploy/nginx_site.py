"""deploy/nginx.conf.template made into nginx's configuration for one set-up: the systemd deploy
(the default: app servers and stream servers on unix sockets), compose's (``--compose``: the
services by their names on its network), or any other (each address given).  One template and
this script, and nothing else, make every set-up's configuration (README, "Deploy"); the
cluster test renders it too and runs nginx on it.  Plain Python, no Django.

    python3 deploy/nginx_site.py --host play.example.org > /etc/nginx/sites-available/addiction
    python3 deploy/nginx_site.py --compose --host play.example.org > default.conf

An address is ``unix:/path.sock`` or ``host:port``.  A name the template has and no option
fills, or an address that is neither, stops it with an error: nothing half-made is written.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

TEMPLATE = Path(__file__).with_name("nginx.conf.template")
PLACEHOLDER = re.compile(r"\$\{(\w+)\}")
ADDRESS = re.compile(r"^(unix:/[^\s;:]+|[A-Za-z0-9.\-]+:[0-9]{1,5}|\[[0-9A-Fa-f:]+\]:[0-9]{1,5})$")

SYSTEMD = {
    "app": ["unix:/run/addiction/1.sock", "unix:/run/addiction/2.sock"],
    "live": ["unix:/run/addiction/live-1.sock", "unix:/run/addiction/live-2.sock"],
    "worker_metrics": "127.0.0.1:9110",
    "static": "/srv/addiction/staticfiles/",
    "certificates": "/etc/letsencrypt/live/{host}/",
    "listen": ["80", "[::]:80"],
    "listen_tls": ["443", "[::]:443"],
    "access_log": "/var/log/nginx/addiction-access.log",
}
COMPOSE = {
    "app": ["app1:8000", "app2:8000"],
    "live": ["live1:8001", "live2:8001"],
    "worker_metrics": "worker:9110",
    "static": "/srv/static/",
    "certificates": "/certs/",
    "listen": ["80", "[::]:80"],
    "listen_tls": ["443", "[::]:443"],
    "access_log": "/var/log/nginx/access.log",  # the official image's: its standard output
}


def address(text: str) -> str:
    if not ADDRESS.match(text):
        raise argparse.ArgumentTypeError(f"not an address (unix:/path.sock or host:port): {text!r}")
    return text


def metrics_url(server: str) -> str:
    """Where nginx reads /metrics of one app server: ``http://unix:/path.sock:/metrics`` (nginx's
    spelling for a socket, the path after the colon) or ``http://host:port/metrics``."""
    return f"http://{server}:/metrics" if server.startswith("unix:") else f"http://{server}/metrics"


def lines(template: str, values: list[str], indent: int = 4) -> str:
    return "".join(" " * indent + template.format(value) + "\n" for value in values)


def render(
    *,
    host: str,
    app: list[str],
    live: list[str],
    worker_metrics: str,
    metrics_from: list[str],
    static: str,
    certificates: str,
    listen: list[str],
    listen_tls: list[str],
    access_log: str,
    template: str | None = None,
) -> str:
    """The configuration: the template with every name filled in; ``listen`` and ``listen_tls``
    are what nginx listens on for http and https (ports, or address:port)."""
    if len(app) != 2:
        raise ValueError("the template scrapes two app servers apart (/metrics/1, /metrics/2): give two")
    upstream = "server {} max_fails=1 fail_timeout=5s;"
    values = {
        "host": host,
        "app_servers": lines(upstream, app),
        "live_servers": lines(upstream, live),
        "app1_metrics": metrics_url(app[0]),
        "app2_metrics": metrics_url(app[1]),
        "worker_metrics": metrics_url(worker_metrics),
        "metrics_allow": lines("allow {};", metrics_from, indent=8),
        "static": static if static.endswith("/") else static + "/",
        "certificates": certificates.format(host=host),
        "listen_default": lines("listen {} default_server;", listen)
        + lines("listen {} ssl default_server;", listen_tls),
        "listen_http": lines("listen {};", listen),
        "listen_https": lines("listen {} ssl http2;", listen_tls),
        "access_log": access_log,
    }
    text = TEMPLATE.read_text() if template is None else template
    missing = sorted(set(PLACEHOLDER.findall(text)) - set(values))
    if missing:
        raise ValueError(f"the template names {missing}, which nothing fills")
    return PLACEHOLDER.sub(lambda found: values[found.group(1)], text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", required=True, help="the site's host name (server_name)")
    parser.add_argument("--compose", action="store_true", help="compose's services and paths (deploy/compose.yaml)")
    parser.add_argument("--app", type=address, action="append", help="an app server (twice)")
    parser.add_argument("--live", type=address, action="append", help="a stream server (daphne; once or more)")
    parser.add_argument("--worker-metrics", type=address, help="the background worker's metrics address")
    parser.add_argument(
        "--metrics-from",
        action="append",
        help="addresses or networks (comma-separated) that may read /metrics through nginx (default: 127.0.0.1,::1)",
    )
    parser.add_argument("--static", help="collectstatic's folder (ADDICTION_STATIC_ROOT)")
    parser.add_argument("--certificates", help="the folder of fullchain.pem and privkey.pem")
    parser.add_argument("--listen", action="append", help="what nginx listens on for http (port or address:port)")
    parser.add_argument("--listen-tls", action="append", help="what nginx listens on for https")
    parser.add_argument("--access-log", help="the site's access log (JSON lines with the request id)")
    options = parser.parse_args(argv)
    preset = COMPOSE if options.compose else SYSTEMD
    try:
        site = render(
            host=options.host,
            app=options.app or preset["app"],
            live=options.live or preset["live"],
            worker_metrics=options.worker_metrics or preset["worker_metrics"],
            metrics_from=[part for given in options.metrics_from or ["127.0.0.1,::1"] for part in given.split(",")],
            static=options.static or preset["static"],
            certificates=options.certificates or preset["certificates"],
            listen=options.listen or preset["listen"],
            listen_tls=options.listen_tls or preset["listen_tls"],
            access_log=options.access_log or preset["access_log"],
        )
    except ValueError as error:
        parser.error(str(error))
    sys.stdout.write(site)
    return 0


if __name__ == "__main__":
    sys.exit(main())
