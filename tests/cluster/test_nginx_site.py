"""nginx's configuration for every set-up, made by deploy/nginx_site.py from the one template
(issue 46): the systemd deploy's and compose's pass ``nginx -t``, with nothing of the template
left unfilled; and /metrics, under any spelling, answers the operator's addresses only.

compose's services are names on its network (app1:8000...), which this machine cannot resolve:
the check maps those names, and only them, to 127.0.0.1, so the configuration's shape is the one
compose runs (compose's nginx once refused its sed-made ``proxy_pass http://app1:8000:/metrics``)."""

from __future__ import annotations

import http.client
import http.server
import os
import re
import shutil
import ssl
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from benchmarks.cluster import nginx, self_signed_certificate
from deploy import nginx_site

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = (ROOT / "deploy" / "compose.yaml").read_text()


@pytest.fixture
def nginx_program():
    program = shutil.which("nginx")
    if program is None or shutil.which("openssl") is None:
        if os.environ.get("ADDICTION_REQUIRE_NGINX") == "1":
            pytest.fail("nginx or openssl not found, and ADDICTION_REQUIRE_NGINX=1")
        pytest.skip("needs nginx and openssl (apt-get install nginx openssl)")
    return program


def nginx_t(program: str, tmp: Path, site: str) -> subprocess.CompletedProcess:
    """``nginx -t`` on ``site`` inside an http block as Debian's nginx.conf has it."""
    (tmp / "site.conf").write_text(site)
    (tmp / "nginx.conf").write_text(
        f"pid {tmp}/nginx.pid;\nerror_log {tmp}/error.log;\nevents {{}}\n"
        f"http {{ include /etc/nginx/mime.types; access_log {tmp}/access.log; include {tmp}/site.conf; }}\n"
    )
    return subprocess.run(
        [program, "-t", "-p", str(tmp), "-c", str(tmp / "nginx.conf")], capture_output=True, text=True
    )


def rendered(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "deploy/nginx_site.py", *args], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout


def test_compose_makes_its_nginx_configuration_with_the_script():
    """No sed in compose.yaml: its nginx-config job runs the script, and nginx reads what it wrote."""
    assert "sed " not in COMPOSE
    assert "python deploy/nginx_site.py --compose" in COMPOSE
    assert "nginx-conf:/etc/nginx/conf.d:ro" in COMPOSE and "nginx-conf:/nginx" in COMPOSE


@pytest.mark.parametrize("setup", ["systemd", "compose"])
def test_every_setups_configuration_passes_nginx_t(nginx_program, tmp_path, setup):
    self_signed_certificate(tmp_path)
    args = ["--host", "play.example.org", "--certificates", f"{tmp_path}/", "--access-log", f"{tmp_path}/site.log"]
    site = rendered(*args, *(["--compose"] if setup == "compose" else []))
    assert "${" not in site  # every name of the template filled
    if setup == "compose":
        assert "proxy_pass http://app1:8000/metrics;" in site and "server live2:8001 " in site
        site = re.sub(r"\b(app[12]|live[12]|worker)(?=:\d+)", "127.0.0.1", site)  # compose's names, resolved
    else:
        assert "proxy_pass http://unix:/run/addiction/1.sock:/metrics;" in site
    checked = nginx_t(nginx_program, tmp_path, site)
    assert checked.returncode == 0, checked.stderr


def test_a_name_nothing_fills_or_a_bad_address_stops_the_script():
    with pytest.raises(ValueError, match="nothing fills"):
        nginx_site.render(
            host="x",
            app=["a:1", "b:2"],
            live=["c:3"],
            worker_metrics="d:4",
            metrics_from=["127.0.0.1"],
            static="/s/",
            certificates="/c/",
            listen=["80"],
            listen_tls=["443"],
            access_log="/l",
            template="server_name ${host}; ${surprise}",
        )
    refused = subprocess.run(
        [sys.executable, "deploy/nginx_site.py", "--host", "x", "--app", "app1:8000:/metrics", "--app", "a:1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 2 and "not an address" in refused.stderr


def get(port: int, path: str) -> int:
    connection = http.client.HTTPSConnection("127.0.0.1", port, context=ssl._create_unverified_context(), timeout=10)
    connection.request("GET", path, headers={"Host": "127.0.0.1"})
    status = connection.getresponse().status
    connection.close()
    return status


SPELLINGS = ["/metrics", "/metrics/", "/metrics//", "/%6detrics/", "/metrics/1", "/metrics/2", "/metrics/worker"]
REACHED = 418  # what the stand-in app servers answer any path but /healthz: nginx let it through


class StandIn(http.server.BaseHTTPRequestHandler):
    """An app server's stand-in: /healthz is ok (nginx's start waits for it), anything else 418."""

    protocol_version = "HTTP/1.1"

    def do_GET(self):  # noqa: N802 - http.server's name
        status, body = (200, b"ok") if self.path == "/healthz" else (REACHED, b"reached")
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def stand_ins():
    servers = [http.server.ThreadingHTTPServer(("127.0.0.1", 0), StandIn) for _ in range(2)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    yield [server.server_address[1] for server in servers]
    for server in servers:
        server.shutdown()
        server.server_close()


def test_metrics_answer_only_the_operators_addresses_whatever_the_spelling(nginx_program, tmp_path, stand_ins):
    """Issue 46: nginx guarded /metrics alone, and /metrics/ reached the app servers from anywhere.
    Here 127.0.0.1 is outside (the operator's network is another): every spelling is refused by
    nginx, and other pages go on; inside, every spelling goes on to the app servers (which answer
    /metrics alone, to that network: tests/site/test_metrics.py)."""
    (tmp_path / "outside").mkdir()
    with nginx(tmp_path / "outside", stand_ins, metrics_from=("10.9.9.9",)) as port:
        assert {path: get(port, path) for path in SPELLINGS} == dict.fromkeys(SPELLINGS, 403)
        assert get(port, "/how-to-play/") == REACHED
    (tmp_path / "inside").mkdir()
    with nginx(tmp_path / "inside", stand_ins) as port:
        reached = {path: get(port, path) for path in SPELLINGS}
        assert reached.pop("/metrics/worker") == 502  # no worker's figures here; past the guard all the same
        assert reached == dict.fromkeys(reached, REACHED)
