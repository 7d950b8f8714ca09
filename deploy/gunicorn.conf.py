"""gunicorn's settings for the site: ``gunicorn --config deploy/gunicorn.conf.py addiction_site.wsgi``.

The README's deploy steps, the systemd unit, the Dockerfile and the cluster benchmark all start
gunicorn with this file; the environment chooses the address and the size (README, "Deploy").
"""

import multiprocessing
import os
import shutil
import tempfile
from pathlib import Path

# The checkout: gunicorn imports addiction_site.wsgi from there, whatever folder it started in.
chdir = str(Path(__file__).resolve().parent.parent)

# Loopback or a unix socket ("unix:/run/addiction/gunicorn.sock"), never an address the world
# reaches: with ADDICTION_PROXY_HOPS >= 1 the site believes the X-Forwarded-* headers, which
# only the proxy in front may write.  Several addresses are separated by commas.
bind = os.environ.get("ADDICTION_BIND", "127.0.0.1:8000").split(",")

# gthread workers: a worker process per core, each with a thread or two (benchmarks/README.md).
workers = int(os.environ.get("ADDICTION_WORKERS", str(multiprocessing.cpu_count())))
worker_class = "gthread"
threads = int(os.environ.get("ADDICTION_THREADS", "2"))
# A request that takes longer than this is a stuck worker: it is killed and restarted.
timeout = 30
graceful_timeout = 20
# nginx keeps its connections to gunicorn open between requests (deploy/nginx.conf.template, keepalive).
keepalive = 30

# One line a request: who (the proxy, then X-Forwarded-For), what, the answer, its size, its
# time in milliseconds and nginx's request id (the site's own log lines carry it too).  "-" is
# standard output (the journal under systemd, docker logs).
accesslog = os.environ.get("ADDICTION_ACCESS_LOG", "-")
access_log_format = '%(h)s "%({x-forwarded-for}i)s" %(t)s "%(r)s" %(s)s %(B)s %(M)sms "%(a)s" %({x-request-id}i)s'
errorlog = "-"

# With DJANGO_LOG_FORMAT=json gunicorn's own lines, the access log's too, are JSON objects
# like the site's (addiction_site/logs.py): {"time", "level", "logger", "message"}.
if os.environ.get("DJANGO_LOG_FORMAT", "text") == "json":
    _access = (
        {"class": "logging.StreamHandler", "stream": "ext://sys.stdout"}
        if accesslog == "-"
        else {"class": "logging.FileHandler", "filename": accesslog}
    )
    logconfig_dict = {
        "formatters": {"json": {"()": "addiction_site.logs.JsonFormatter"}},
        "handlers": {
            "errors": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr", "formatter": "json"},
            "access": {**_access, "formatter": "json"},
        },
        "loggers": {
            "gunicorn.error": {"level": "INFO", "handlers": ["errors"], "propagate": False},
            "gunicorn.access": {"level": "INFO", "handlers": ["access"], "propagate": False},
        },
        "root": {"level": "INFO", "handlers": ["errors"]},
    }

# gunicorn's control socket (gunicornc) is not used: the units reload with a signal. Left on,
# every instance on a machine would share the one socket under the user's home.
control_socket_disable = True

# /metrics (addiction_site/metrics.py): each worker process counts in files of this app
# server's own folder, which prometheus_client's multiprocess mode adds up for a scrape.  A
# fresh folder each start (the figures of a stopped server are not this one's), removed on
# exit; ADDICTION_METRICS_DIR names one instead (emptied at start, kept at exit).  A graceful
# reload (systemctl reload: gunicorn reads this file again in the same process) keeps the
# folder it made, so the counters go on and no folder is left behind in /tmp at each reload.
_metrics_dir = (
    os.environ.get("ADDICTION_METRICS_DIR")
    or os.environ.get("ADDICTION_METRICS_MADE")  # made by this server's first reading of this file
    or tempfile.mkdtemp(prefix="addiction-metrics-")
)
if not os.environ.get("ADDICTION_METRICS_DIR"):
    os.environ["ADDICTION_METRICS_MADE"] = _metrics_dir
os.environ["PROMETHEUS_MULTIPROC_DIR"] = _metrics_dir  # before any worker imports prometheus_client


def on_starting(server):
    Path(_metrics_dir).mkdir(parents=True, exist_ok=True)
    for leftover in Path(_metrics_dir).glob("*.db"):
        leftover.unlink()


def child_exit(server, worker):
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid, _metrics_dir)


def on_exit(server):
    if not os.environ.get("ADDICTION_METRICS_DIR"):
        shutil.rmtree(_metrics_dir, ignore_errors=True)
        os.environ.pop("ADDICTION_METRICS_MADE", None)
