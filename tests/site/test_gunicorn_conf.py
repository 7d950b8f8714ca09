"""deploy/gunicorn.conf.py as gunicorn reads it (issue 30): no control socket, which every
instance on a machine would otherwise share under the user's home."""

from __future__ import annotations

from pathlib import Path

from gunicorn.config import Config

ROOT = Path(__file__).resolve().parents[2]


def test_the_app_servers_open_no_control_socket():
    settings: dict = {"__file__": str(ROOT / "deploy" / "gunicorn.conf.py")}
    exec(compile((ROOT / "deploy" / "gunicorn.conf.py").read_text(), "gunicorn.conf.py", "exec"), settings)
    config = Config()
    for name, value in settings.items():
        if name in config.settings:
            config.set(name, value)
    assert config.control_socket_disable is True
