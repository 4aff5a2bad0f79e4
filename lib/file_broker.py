"""The embedded default's broker: kombu's filesystem transport, with each message written
whole before a worker can see it.

kombu's own (5.7) creates a message's file under its final name and then writes it; a
worker polling the folder in between moves the empty file away, fails to decode it and
stops ("Unrecoverable error: JSONDecodeError", kombu issue #1551). Under load a worker
stopped so within minutes, with the beat sending a sweep every second. Here the message is
written to a file whose name no worker takes (it starts with a dot, so it names no queue),
and renamed into place once complete: a rename within a folder is atomic. A file that is
still not a message (left by a process killed mid-write before this fix, or a full disk) is
logged and set aside, not fatal: the worker goes on with the next."""

from __future__ import annotations

import logging
import os
import uuid
from queue import Empty
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

log = logging.getLogger(__name__)


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        """As kombu's, under a hidden name first, then renamed to the name it reads."""
        final = os.path.join(
            self.data_folder_out,
            f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg")
        partial = os.path.join(self.data_folder_out, f".writing-{uuid.uuid4()}")
        try:
            with open(partial, "wb") as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            try:
                os.unlink(partial)
            except OSError:
                pass
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc

    def _get(self, queue):
        try:
            return super()._get(queue)
        except ValueError as exc:  # an empty or cut message: it is gone from the queue
            log.error("A message of queue %s was not whole and is skipped: %s", queue, exc)
            raise Empty() from exc


class Transport(filesystem.Transport):
    Channel = Channel
