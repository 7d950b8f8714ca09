"""The background worker as the README runs it (issue 27): the site's own settings, the tasks
queued in the database (django-tasks-db), and `manage.py db_worker` in a process of its own.
Games that end in one process are analysed by workers in others (two, sharing the queue:
each task is taken by one), and the process that ended them never searched."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from benchmarks.cluster import PYTHON, free_port, manage, stop  # noqa: E402

pytestmark = pytest.mark.cluster

# Ends three games of deal 17 (winnable from the deal) by giving them up, as the site's
# requests do (services.game_act, in a transaction whose commit enqueues the analysis); their
# deal, the same position each time, asks for one background search.
END_GAMES = """
from addiction_site.ownership import Owner
from games.services import game_act, game_start
from games import solver
solver.analyse_stretch = None  # this process never searches: the worker does
owner = Owner(user_id=None, guest_token="worker-test")
for _ in range(3):
    game = game_start(owner=owner, deal_number=17)
    game_act(owner=owner, game_id=game.pk, version=0, kind="resign")
"""

READ = """
import json
from games.models import Analysis
from django_tasks_db.models import DBTaskResult
print(json.dumps({
    "analyses": [(a.state, a.stretches[0]["verdict"] if a.stretches else "") for a in Analysis.objects.order_by("pk")],
    "tasks": sorted(DBTaskResult.objects.values_list("status", flat=True)),
}))
"""


def test_a_worker_analyses_the_games_another_process_ended(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "addiction_site.settings",
        "DJANGO_DEBUG": "1",
        "ADDICTION_DATA_DIR": str(tmp_path),
        "ADDICTION_ANALYSIS_BUDGET": "20000",
    }
    env.pop("DATABASE_URL", None)
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "shell", "-v", "0", "-c", END_GAMES)
    before = json.loads(manage(env, "shell", "-v", "0", "-c", READ))
    assert [state for state, _ in before["analyses"]] == ["queued"] * 3 and len(before["tasks"]) == 4
    ports = [free_port(), free_port()]  # each worker serves its own figures (ADDICTION_WORKER_METRICS_BIND)
    workers = [
        subprocess.Popen(
            [str(PYTHON), "manage.py", "db_worker", "--no-reload", "--no-startup-delay", "--interval", "0.2"],
            cwd=ROOT,
            env={**env, "ADDICTION_WORKER_METRICS_BIND": f"127.0.0.1:{port}"},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        for port in ports
    ]
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            now = json.loads(manage(env, "shell", "-v", "0", "-c", READ))
            if all(state == "done" for state, _ in now["analyses"]) and set(now["tasks"]) == {"SUCCESSFUL"}:
                break
            time.sleep(0.5)
        analysed = [analyses_counted(port) for port in ports]
    finally:
        for worker in workers:
            stop(worker)
    assert now["analyses"] == [["done", "won"]] * 3, now
    assert now["tasks"] == ["SUCCESSFUL"] * 4, now
    assert sum(analysed) == 3, analysed  # each analysis counted once, by the worker that did it


def analyses_counted(port: int) -> float:
    """The analyses a worker says it finished, from the figures it serves."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    found = re.search(r'^addiction_background_work_total\{kind="analysis",outcome="done"\} ([0-9.]+)$', text, re.M)
    return float(found.group(1)) if found else 0.0
