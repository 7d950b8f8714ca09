"""`manage.py check` says when the solver runs its pure-Python search for want of the compiled core."""

from django.core.checks import run_checks

from games import solver


def test_the_check_is_silent_when_the_compiled_core_runs(monkeypatch):
    monkeypatch.setattr(solver, "CORE", "compiled")
    assert "games.I001" not in {message.id for message in run_checks()}


def test_the_check_says_when_the_python_search_runs_for_want_of_the_core(monkeypatch):
    monkeypatch.setattr(solver, "CORE", "python")
    monkeypatch.delenv("ADDICTION_SEARCH_CORE", raising=False)
    (message,) = [message for message in run_checks() if message.id == "games.I001"]
    assert "pure-Python" in message.msg and "gcc" in message.hint


def test_the_check_is_silent_when_the_python_search_was_asked_for(monkeypatch):
    monkeypatch.setattr(solver, "CORE", "python")
    monkeypatch.setenv("ADDICTION_SEARCH_CORE", "python")
    assert "games.I001" not in {message.id for message in run_checks()}
