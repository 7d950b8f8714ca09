"""deploy/gunicorn.conf.py as gunicorn reads it (issue 30): no control socket, which every
instance on a machine would otherwise share under the user's home; a metrics folder of each
instance's own."""

from __future__ import annotations

import os
from pathlib import Path

from gunicorn.config import Config

ROOT = Path(__file__).resolve().parents[2]


def read_conf(monkeypatch, tmp_path) -> dict:
    """The settings deploy/gunicorn.conf.py makes, read in this process; the variables it sets
    (the metrics' folder) are put back afterwards."""
    monkeypatch.setenv("ADDICTION_METRICS_DIR", str(tmp_path / "metrics"))
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", "")
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR")
    settings: dict = {"__file__": str(ROOT / "deploy" / "gunicorn.conf.py")}
    exec(compile((ROOT / "deploy" / "gunicorn.conf.py").read_text(), "gunicorn.conf.py", "exec"), settings)
    return settings


def test_the_app_servers_open_no_control_socket(monkeypatch, tmp_path):
    settings = read_conf(monkeypatch, tmp_path)
    config = Config()
    for name, value in settings.items():
        if name in config.settings:
            config.set(name, value)
    assert config.control_socket_disable is True


def test_each_app_server_counts_its_metrics_in_a_folder_of_its_own(monkeypatch, tmp_path):
    settings = read_conf(monkeypatch, tmp_path)
    assert os.environ["PROMETHEUS_MULTIPROC_DIR"] == str(tmp_path / "metrics")
    (tmp_path / "metrics").mkdir()
    (tmp_path / "metrics" / "counter_123.db").write_bytes(b"a stopped server's figures")
    settings["on_starting"](None)
    assert list((tmp_path / "metrics").iterdir()) == []  # emptied at start
    monkeypatch.delenv("ADDICTION_METRICS_DIR")
    folders = []
    for _server in range(2):  # two app servers on one machine, nothing named
        conf = {"__file__": str(ROOT / "deploy" / "gunicorn.conf.py")}
        exec(compile((ROOT / "deploy" / "gunicorn.conf.py").read_text(), "gunicorn.conf.py", "exec"), conf)
        folders.append(os.environ["PROMETHEUS_MULTIPROC_DIR"])
        conf["on_exit"](None)
        assert not Path(folders[-1]).exists()  # removed when the server stops
    assert folders[0] != folders[1]


def test_a_graceful_reload_keeps_the_servers_metrics_folder(monkeypatch, tmp_path):
    """Issue 46: each reload (gunicorn reads its configuration again, in the same process) made a
    new folder in /tmp and left the last one there."""
    monkeypatch.delenv("ADDICTION_METRICS_DIR", raising=False)
    monkeypatch.delenv("ADDICTION_METRICS_MADE", raising=False)
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", "")
    conf: dict = {}
    folders = []
    for _reading in range(3):  # the start, then two reloads
        conf = {"__file__": str(ROOT / "deploy" / "gunicorn.conf.py")}
        exec(compile((ROOT / "deploy" / "gunicorn.conf.py").read_text(), "gunicorn.conf.py", "exec"), conf)
        folders.append(os.environ["PROMETHEUS_MULTIPROC_DIR"])
    assert len(set(folders)) == 1 and Path(folders[0]).is_dir()
    conf["on_exit"](None)
    assert not Path(folders[0]).exists() and "ADDICTION_METRICS_MADE" not in os.environ
