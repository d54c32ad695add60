"""OAuth state kept in memory only: the authority's bounded stores, the client's token storage (lesson 61).

Nothing here is written to disk; a store that could grow with every request keeps at most a fixed
number of entries.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

K = TypeVar("K")
V = TypeVar("V")


class BoundedStore(Generic[K, V]):
    """A dict that keeps at most ``capacity`` entries, dropping the oldest (the authority's stores)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: OrderedDict[K, V] = OrderedDict()

    def put(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.capacity:
            self._items.popitem(last=False)

    def get(self, key: K) -> V | None:
        return self._items.get(key)

    def pop(self, key: K) -> V | None:
        return self._items.pop(key, None)

    def __len__(self) -> int:
        return len(self._items)


class MemoryTokenStorage:
    """The SDK's ``TokenStorage`` in memory: nothing is written to disk."""

    def __init__(self) -> None:
        self._tokens: OAuthToken | None = None
        self._client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self._tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self._tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self._client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self._client = client_info
