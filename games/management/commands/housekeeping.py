"""Remove what the site no longer needs (guests' abandoned games, expired sessions, old login
records) and do the other apps' upkeep (games/registry.py: closing races whose time is up,
making the daily's seeds ahead...).

Safe from cron at any hour and as often as wanted: each rule removes rows by age, so a second
run finds nothing more, and it deletes in batches of BATCH rows, each in its own short
transaction, so no lock is held for long.  Games of accounts are never touched.  Each chore
is as safe to repeat: it does only what is due and not done.
"""

from datetime import timedelta
from importlib import import_module

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games import registry
from games.models import Action, Game

BATCH = 500


def days(count: int) -> str:
    return "1 day" if count == 1 else f"{count} days"


def guest_game_rules(now) -> list[tuple[str, QuerySet]]:
    """Guests' games to remove, by rule; the two rules never overlap."""
    idle_days, unplayed_days = settings.ADDICTION_GUEST_IDLE_DAYS, settings.ADDICTION_GUEST_UNPLAYED_DAYS
    idle_since, unplayed_since = now - timedelta(days=idle_days), now - timedelta(days=unplayed_days)
    guests = (
        Game.objects.filter(owner__isnull=True)
        .exclude(guest_token="")
        .alias(touched=Coalesce("last_action_at", "created_at"))
    )
    unplayed = guests.filter(version=0, moves=0, touched__lt=unplayed_since, touched__gte=idle_since).exclude(
        Exists(Action.objects.filter(game=OuterRef("pk")))
    )
    return [
        (f"guest games never played, created over {days(unplayed_days)} ago", unplayed),
        (f"guest games untouched for {days(idle_days)}, finished or not", guests.filter(touched__lt=idle_since)),
    ]


def session_rules(store, now) -> list[tuple[str, QuerySet]]:
    """Database sessions (cached or not) past their expiry: deleted here in batches, where Django's
    clearsessions (SessionStore.clear_expired) would delete them in one statement."""
    if not hasattr(store, "get_model_class"):
        return []
    return [("expired sessions", store.get_model_class().objects.filter(expire_date__lt=now))]


def login_record_rules(now) -> list[tuple[str, QuerySet]]:
    age = settings.ADDICTION_LOGIN_RECORD_DAYS
    older = {"attempt_time__lt": now - timedelta(days=age)}
    return [
        (f"django-axes {model._meta.verbose_name_plural} older than {days(age)}", model.objects.filter(**older))
        for model in (AccessAttempt, AccessLog, AccessFailureLog)
    ]


def task_result_rules(now) -> list[tuple[str, QuerySet]]:
    """The background work's task rows once done (django-tasks-db keeps each): a finished one after
    a day (what it made, an analysis, stays with its game), a failed one after 30 days, time to
    read it in the admin first.  A task waiting or running is never touched."""
    finished = DBTaskResult.objects.successful().filter(finished_at__lt=now - timedelta(days=1))
    failed = DBTaskResult.objects.failed().filter(finished_at__lt=now - timedelta(days=30))
    return [
        ("background task results finished over 1 day ago", finished),
        ("background task results failed over 30 days ago", failed),
    ]


def delete_in_batches(queryset: QuerySet) -> int:
    """Delete the queryset's rows BATCH at a time, each batch in its own transaction; how many went."""
    model, removed = queryset.model, 0
    while pks := list(queryset.order_by("pk").values_list("pk", flat=True)[:BATCH]):
        with transaction.atomic():
            # Checked again under the rows' locks: a game played since the look above is kept.
            locked = list(queryset.filter(pk__in=pks).select_for_update().values_list("pk", flat=True))
            removed += model.objects.filter(pk__in=locked).delete()[1].get(model._meta.label, 0)
    return removed


class Command(BaseCommand):
    help = (
        "Remove guests' games never played (after a day) or untouched (after a year), expired sessions, "
        "old django-axes records and background tasks done, and do the other apps' upkeep (closing races "
        "whose time is up, making the daily's seeds ahead); print how many of each.  Safe to run at any hour."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="count what would be removed; remove nothing")

    def handle(self, *args, dry_run, verbosity, **options):
        now = timezone.now()
        say = self.stdout.write if verbosity else (lambda text: None)  # -v 0, from cron: silent
        store = import_module(settings.SESSION_ENGINE).SessionStore
        sessions = session_rules(store, now)
        rules = guest_game_rules(now) + sessions + login_record_rules(now) + task_result_rules(now)
        for label, queryset in rules:
            count = queryset.count() if dry_run else delete_in_batches(queryset)
            say(f"{label}: {count} {'to remove' if dry_run else 'removed'}")
        if not sessions and not dry_run:  # sessions kept elsewhere (files, a cache): their engine's own way
            store.clear_expired()
            say("expired sessions: cleared by the session engine")
        for chore in registry.chores():
            say(f"{chore.label}: {chore.run(now=now, dry_run=dry_run)}{' to do' if dry_run else ''}")
