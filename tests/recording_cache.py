"""A local-memory cache that also notes what was written to it, so a test can
look at everything a page left in the cache through the cache API alone."""

from __future__ import annotations

from django.core.cache.backends.locmem import LocMemCache


class RecordingCache(LocMemCache):
    def __init__(self, name, params):
        super().__init__(name, params)
        self.written: dict[str, object] = {}

    def set(self, key, value, timeout=None, version=None):
        self.written[key] = value
        super().set(key, value, timeout, version)

    def add(self, key, value, timeout=None, version=None):
        self.written.setdefault(key, value)
        return super().add(key, value, timeout, version)

    def clear(self):
        self.written.clear()
        super().clear()
