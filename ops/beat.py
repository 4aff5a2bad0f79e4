"""One beat per deployment: beat's scheduler runs only while it holds the database lease
"beat"; a second beat stands by, says so, and takes over when the first stops renewing it.
A beat started again on the same schedule file after its predecessor died takes the lease
back at once instead of waiting for it to lapse."""

from __future__ import annotations

import fcntl
import logging

from celery.beat import PersistentScheduler
from django.conf import settings
from django.db import close_old_connections

from ops import leases

log = logging.getLogger(__name__)

LEASE = "beat"


class LeasedScheduler(PersistentScheduler):
    """celery beat's own scheduler (the schedule file, the entries of CELERY_BEAT_SCHEDULE)
    that sends nothing unless this beat holds the lease. It renews the lease at least three
    times a lease, so a live beat never lets it lapse; one stopped, killed or cut off from
    the database stops renewing it, and a standing-by beat takes it within a lease."""

    def __init__(self, *args, **kwargs):
        self.leading: bool | None = None  # not yet known
        super().__init__(*args, **kwargs)
        self.holder, self._holder_lock = holder_of(self.schedule_filename)

    @property
    def lease_seconds(self) -> float:
        return settings.CONQUEST_BEAT_LEASE_SECONDS

    def tick(self, *args, **kwargs):
        renew_within = self.lease_seconds / 3
        if not self.lead():
            return renew_within
        return min(super().tick(*args, **kwargs), renew_within)

    def lead(self) -> bool:
        """Take or renew the lease; say in the log whenever this beat starts or stops
        leading."""
        close_old_connections()  # as a request would: a connection the server dropped
        try:
            leading = leases.hold(LEASE, self.holder, self.lease_seconds)
        except Exception as problem:  # noqa: BLE001 - no lease known to be held: send nothing
            if self.leading is not False:
                log.error("beat cannot reach the database to renew its lease (%s: %s); "
                          "sending nothing until it can", type(problem).__name__, problem)
            self.leading = False
            return False
        if leading and self.leading is None:
            log.info("beat %s holds the lease: it sends the periodic tasks", self.holder)
        elif leading and not self.leading:
            log.warning("beat %s took over the lease: it sends the periodic tasks now",
                        self.holder)
        elif not leading and self.leading is not False:
            other = leases.current(LEASE)
            log.warning(
                "another beat holds the lease (%s, until %s): this one (%s) stands by, "
                "sending nothing, and takes over if that one stops",
                other.holder if other else "?", other.expires_at if other else "?",
                self.holder)
        self.leading = leading
        return leading

    def close(self):
        super().close()
        if self.leading:
            try:
                leases.release(LEASE, self.holder)  # a standing-by beat need not wait
            except Exception:  # noqa: BLE001 - it lapses by itself
                log.warning("beat could not release its lease; it lapses within %s s",
                            self.lease_seconds)
        if self._holder_lock is not None:
            self._holder_lock.close()


def holder_of(schedule_filename: str):
    """The lease holder id of the beat keeping its schedule in `schedule_filename`, and the
    open file whose lock it holds for as long as it lives (or None).

    The id is kept in `<schedule>.holder`, locked (flock) by the living beat that uses it.
    A beat that finds the lock free is the only one on that file, and whoever held the id
    before is gone (the kernel drops a dead process's locks), so it goes on with that id and
    renews the lease its predecessor held: a beat killed and started again sends its tasks
    at once instead of a lease late. One that finds the lock held (a second beat on the same
    file) takes a new id, and stands by as any second beat does."""
    lock = open(f"{schedule_filename}.holder", "a+")  # noqa: SIM115 - open while it lives
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        return leases.holder_id(), None
    lock.seek(0)
    holder = lock.read().strip()
    if not holder:
        holder = leases.holder_id()
        lock.truncate(0)
        lock.write(holder)
        lock.flush()
    return holder, lock
