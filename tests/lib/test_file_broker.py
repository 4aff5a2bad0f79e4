"""The embedded broker (lib/file_broker.py): a message is never seen half written, and a
file in the queue that is not a whole message is skipped, never fatal to the worker."""

from __future__ import annotations

import json
import logging
import uuid

import pytest
from kombu import Connection

from lib import file_broker


@pytest.fixture
def queue_name():
    """A queue of this test's own: kombu keeps the bindings it has made in the process
    (its transport class's state), and would not bind a name again in another folder."""
    return f"sweeps-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def connection(tmp_path):
    folders = {"data_folder_in": tmp_path / "queue", "data_folder_out": tmp_path / "queue",
               "control_folder": tmp_path / "control"}
    for folder in set(folders.values()):
        folder.mkdir()
    with Connection("filesystem://", transport_options={
            name: str(folder) for name, folder in folders.items()}) as connection:
        yield connection


def test_every_filesystem_connection_takes_the_whole_message_transport(connection):
    assert isinstance(connection.transport, file_broker.Transport)


def test_a_message_appears_under_its_queues_name_only_once_written(connection, queue_name,
                                                                    tmp_path, monkeypatch):
    seen = []
    rename = file_broker.os.replace

    def renamed(partial, final):
        # What a worker polling the folder could take at that moment: no message yet,
        # and the hidden file is whole.
        seen.append(sorted(path.name for path in (tmp_path / "queue").glob("*.msg")))
        seen.append(json.loads((tmp_path / "queue" / partial.rsplit("/", 1)[1]).read_text()))
        rename(partial, final)

    monkeypatch.setattr(file_broker.os, "replace", renamed)
    queue = connection.SimpleQueue(queue_name)
    queue.put({"sweep": 1})

    assert seen[0] == []
    assert seen[1]["body"]
    assert queue.get(timeout=1).payload == {"sweep": 1}
    assert list((tmp_path / "queue").iterdir()) == []  # nothing left behind


def test_a_file_that_is_no_whole_message_is_skipped_and_the_next_is_delivered(
        connection, queue_name, tmp_path, caplog):
    queue = connection.SimpleQueue(queue_name)
    # Left by a process killed between creating the file and writing it (kombu's own
    # transport), or by a full disk: named as a message, sorted first. (The folder is read
    # in the order of the names, and a message's name starts with the milliseconds of the
    # machine's monotonic clock, never with a 0: "1_cut" sorts after "12…_", and so was
    # not read when the clock's count began with a 1.)
    (tmp_path / "queue" / f"00_cut.{queue_name}.msg").write_bytes(b"")
    (tmp_path / "queue" / f"01_cut.{queue_name}.msg").write_bytes(b'{"body": "eyJzd2Vl')
    queue.put({"sweep": 2})

    with caplog.at_level(logging.ERROR, logger="lib.file_broker"):
        assert queue.get(timeout=5).payload == {"sweep": 2}

    assert caplog.text.count("was not whole and is skipped") == 2
