"""Telling a race's open streams that it changed (docs/RULES.md, "Races"): the publishing side
of the live standings, which services and receivers call once a change is committed.  The
streams that hear it are races/stream.py's.

Whatever changes a race (a join, the start, each action of one of its games, the close)
``tell``s it: the race's snapshot is read once, here, and sent to the race's group on
Channels' channel layer (in this process's memory, or through Redis with REDIS_URL: see
settings.CHANNEL_LAYERS), where every open stream of the race listens.
"""

from __future__ import annotations

import logging
import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import timezone

from races.selectors import race_snapshot

log = logging.getLogger(__name__)

MESSAGE = "race.changed"


def group_of(race_id: int) -> str:
    return f"race-{race_id}"


def tell(race_id: int) -> None:
    """Send ``race_id``'s snapshot as it is now to every open stream of it (call once the
    change is committed).  A notice that cannot be sent is logged, not raised: the streams
    catch up at their next reading."""
    found = race_snapshot(race_id=race_id, now=timezone.now())
    if found is None:
        return
    message = {"type": MESSAGE, "snapshot": found[1].as_message(), "sent": time.time()}
    try:
        async_to_sync(get_channel_layer().group_send)(group_of(race_id), message)
    except Exception:  # the layer's server is down: the page still works, later
        log.warning("race %s: the live notice could not be sent", race_id, exc_info=True)
