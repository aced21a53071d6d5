"""The filesystem broker of the embedded set-up, with messages that appear
whole.

kombu's own transport writes a message in place, under the name a worker
looks for: a worker that lists the folder between the file's creation and
its write reads an empty message, and the JSON error stops the worker. Here
a message is written under a name no worker picks up and then renamed,
which the file system does at once."""

from __future__ import annotations

import os
import uuid
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

# A worker takes a file whose name ends in ".<queue>.msg"; this one does not.
WRITING_SUFFIX = ".writing"


class Channel(filesystem.Channel):
    # The signature of kombu's filesystem Channel, which its stubs, too, can
    # only declare against their abstract base by ignoring the name it gives.
    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:  # type: ignore[override]
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        path = os.path.join(self.data_folder_out, name)
        try:
            with open(path + WRITING_SUFFIX, "wb") as partial:
                partial.write(str_to_bytes(dumps(payload)))
            os.replace(path + WRITING_SUFFIX, path)
        except OSError as error:
            raise ChannelError(f"Cannot add file {path!r} to directory") from error


class Transport(filesystem.Transport):
    Channel = Channel
