"""The embedded filesystem broker hands a worker whole messages only."""

from __future__ import annotations

import os

from kombu import Connection

from versailles_site import broker
from versailles_site.celery import app


def test_the_apps_filesystem_broker_is_the_one_that_writes_whole_messages():
    with app.connection_for_write("filesystem://") as connection:
        assert isinstance(connection.transport, broker.Transport)


def test_a_worker_listing_the_folder_while_a_message_is_written_finds_nothing_yet(tmp_path, monkeypatch):
    """Through kombu's public queue API: a consumer that looks at the
    folder at the moment the message is renamed into place finds nothing
    yet, and afterwards the whole message."""
    folder = str(tmp_path)
    options = {"data_folder_in": folder, "data_folder_out": folder, "processed_folder": folder}
    with Connection("filesystem://", transport_options=options) as producer, Connection(
        "filesystem://", transport_options=options
    ) as consumer:
        assert isinstance(producer.transport, broker.Transport)
        looked_at = consumer.SimpleQueue("celery")
        seen_mid_write = []
        rename = os.replace

        def rename_after_a_look(source, target):
            try:
                seen_mid_write.append(looked_at.get(block=False).payload)
            except looked_at.Empty:
                seen_mid_write.append(None)
            rename(source, target)

        sent = producer.SimpleQueue("celery")
        monkeypatch.setattr(broker.os, "replace", rename_after_a_look)
        sent.put({"body": "whole"})
        monkeypatch.undo()
        assert seen_mid_write == [None]
        assert looked_at.get(block=False).payload == {"body": "whole"}
