"""The embedded filesystem broker hands a worker whole messages only."""

from __future__ import annotations

import os
from queue import Empty

from kombu import Connection

from versailles_site import broker
from versailles_site.celery import app


def test_the_apps_filesystem_broker_is_the_one_that_writes_whole_messages():
    with app.connection_for_write("filesystem://") as connection:
        assert isinstance(connection.transport, broker.Transport)


def test_a_worker_listing_the_folder_while_a_message_is_written_finds_nothing_yet(tmp_path, monkeypatch):
    folder = str(tmp_path)
    connection = Connection("filesystem://", transport_options={
        "data_folder_in": folder, "data_folder_out": folder, "processed_folder": folder,
    })
    channel = connection.channel()
    seen_mid_write = []
    rename = os.replace

    def rename_after_a_look(source, target):
        try:
            seen_mid_write.append(channel._get("celery"))
        except Empty:
            seen_mid_write.append(None)
        rename(source, target)

    monkeypatch.setattr(broker.os, "replace", rename_after_a_look)
    channel._put("celery", {"body": "whole"})
    monkeypatch.undo()
    assert seen_mid_write == [None]
    assert channel._get("celery") == {"body": "whole"}
    connection.release()
