"""Messages between the blocks of a solve: a direct TCP stream per pair of
blocks, or Dask's actor calls where there can be none.

A level costs every block one message to each other block, and the blocks
wait for them before the next level: their latency is paid once a level.
Dask's actor calls take about 0.7 ms (its comm layer, handlers and event
loop); a plain asyncio stream between the two workers' event loops about
0.08 ms.  So a block listens on a port of its worker's own interface and
the others connect to it, sending a token of the solve first (a
connection without it is closed unread).  That is only done on a cluster
whose workers speak plain ``tcp://``: on ``tls://`` (or any other comm)
the messages go through Dask's actor calls, which use the cluster's
security, and so does any pair whose connection fails.

A message is a header of six int64 (the pass, the level, the sender, the
sender's frontier size, the dtype code of the array, its byte count) and
the array's bytes.  The client fetches a block's answer the same way
(:func:`fetch`: a header whose pass is :data:`ANSWER`), reading the arrays
straight into the final ones, where Dask would copy them twice and take
0.1-0.3 s for 60 MB on one machine.
"""
from __future__ import annotations

import asyncio
import contextlib
import hmac
import socket
import struct
from collections.abc import Awaitable, Callable
from typing import Any

import numpy as np

__all__ = ["Listener", "connect", "send", "close_writer", "fetch", "ANSWER", "CONNECT_TIMEOUT"]

CONNECT_TIMEOUT = 5.0
ANSWER = -1                     # the pass of a request for the block's answer
_ANSWER_TIMEOUT = 300.0         # seconds without a byte of an answer: the block is gone
_HEADER = struct.Struct("<6q")
_ARRAY = struct.Struct("<2q")   # an array of an answer: its dtype code and byte count
_DTYPES = (np.dtype(np.uint32), np.dtype(np.int64), np.dtype(np.int8), np.dtype(np.uint16),
           np.dtype(np.int32))

Deliver = Callable[[int, int, int, Any, int], Awaitable[None]]
"""``deliver(phase, level, sender, array, count)``: a message has arrived."""


def _worker_host() -> str | None:
    """The host of this Dask worker's address if it speaks plain tcp (else None)."""
    try:
        from distributed import get_worker

        address = get_worker().address
    except (ImportError, ValueError):
        return None
    scheme, _, rest = address.partition("://")
    if scheme != "tcp" or not rest:
        return None
    host = rest.rsplit(":", 1)[0]
    return host[1:-1] if host.startswith("[") else host       # an IPv6 literal


class Listener:
    """A block's port: each connection that begins with the token delivers
    its messages, in order, to ``deliver``.

    Parameters
    ----------
    token : bytes
        The solve's secret: a connection must send it first.
    deliver : callable
        ``await deliver(phase, level, sender, array, count)`` for each message.
    answer : callable
        ``answer()``: the arrays a request for the answer is sent.

    Examples
    --------
    A block listening, another sending it a message, the client fetching
    the answer (here all in one process, on the loopback interface):

    >>> import asyncio
    >>> async def demo():
    ...     got = []
    ...     async def deliver(phase, level, sender, array, count):
    ...         got.append((phase, level, sender, array.tolist(), count))
    ...     answer = [np.array([1, -1], np.int8), np.array([1, 0], np.uint16)]
    ...     listener = Listener(b"secret", deliver, lambda: answer)
    ...     address = await listener.start("127.0.0.1")
    ...     writer = await connect(address, b"secret")
    ...     await send(writer, 0, 3, 1, np.array([4, 9], np.uint32), 2)
    ...     outcome, rem = np.zeros(2, np.int8), np.zeros(2, np.uint16)
    ...     await asyncio.to_thread(fetch, address, b"secret", [outcome, rem], 5.0)
    ...     close_writer(writer)                 # the block's reader sees the end
    ...     await asyncio.sleep(0.1)
    ...     listener.close()
    ...     return got, outcome.tolist(), rem.tolist()
    >>> asyncio.run(demo())
    ([(0, 3, 1, [4, 9], 2)], [1, -1], [1, 0])
    """

    def __init__(self, token: bytes, deliver: Deliver, answer: Callable[[], list[Any]]) -> None:
        self.token = token
        self.deliver = deliver
        self.answer = answer
        self.server: asyncio.AbstractServer | None = None
        self.readers: set[asyncio.StreamWriter] = set()

    async def start(self, host: str | None = None) -> str | None:
        """Listen on ``host`` (default: the Dask worker's interface);
        returns ``host:port``, or None where the blocks must use Dask's
        calls (not on a plain-tcp worker, or no port could be opened)."""
        host = host or _worker_host()
        if host is None:
            return None
        try:
            self.server = await asyncio.start_server(self._serve, host, 0)
        except OSError:
            return None
        port = self.server.sockets[0].getsockname()[1]
        return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.readers.add(writer)
        try:
            given = await reader.readexactly(len(self.token))
            if not hmac.compare_digest(given, self.token):
                return
            while True:
                phase, level, sender, count, code, nbytes = _HEADER.unpack(
                    await reader.readexactly(_HEADER.size))
                if phase == ANSWER:
                    for array in self.answer():
                        array = np.ascontiguousarray(array)
                        writer.write(_ARRAY.pack(_DTYPES.index(array.dtype), array.nbytes))
                        writer.write(_bytes_of(array))
                        await writer.drain()
                    continue
                data = await reader.readexactly(nbytes)
                await self.deliver(phase, level, sender,
                                   np.frombuffer(data, dtype=_DTYPES[code]), count)
        except (asyncio.IncompleteReadError, ConnectionError, IndexError, struct.error):
            pass            # the peer closed (the solve ended, or it was lost)
        finally:
            self.readers.discard(writer)
            writer.close()

    def close(self) -> None:
        """Stop listening and drop the connections (in the event loop's thread)."""
        if self.server is not None:
            self.server.close()
            self.server = None
        for writer in list(self.readers):
            writer.close()
        self.readers.clear()


async def connect(address: str, token: bytes) -> asyncio.StreamWriter | None:
    """A stream to a block's :class:`Listener` (the token sent), or None if
    it cannot be opened within :data:`CONNECT_TIMEOUT` seconds."""
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(*_split(address)),
                                           CONNECT_TIMEOUT)
    except (OSError, asyncio.TimeoutError, ValueError):
        return None
    writer.write(token)
    return writer


async def send(writer: asyncio.StreamWriter, phase: int, level: int, sender: int,
               array: Any, count: int) -> None:
    """One message on a stream (ConnectionError if the peer is gone)."""
    array = np.ascontiguousarray(array)
    code = _DTYPES.index(array.dtype)
    writer.write(_HEADER.pack(phase, level, sender, count, code, array.nbytes))
    if array.nbytes:
        writer.write(_bytes_of(array))
    await writer.drain()


def close_writer(writer: asyncio.StreamWriter) -> None:
    """Close a stream, whatever state it is in."""
    with contextlib.suppress(Exception):
        writer.close()


def _split(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    return (host[1:-1] if host.startswith("[") else host), int(port)


def fetch(address: str, token: bytes, into: list[Any], timeout: float) -> None:
    """Read a block's answer into the arrays ``into`` (its outcome and
    remoteness, in that order), from the client's thread.  OSError if the
    block cannot be reached or the stream breaks; ValueError if what comes
    does not fit ``into``."""
    with socket.create_connection(_split(address), timeout=timeout) as sock:
        # Reached: now wait as long as the block takes to decode its answer
        # (a lost worker closes the stream; the client looks at them too).
        sock.settimeout(_ANSWER_TIMEOUT)
        sock.sendall(token + _HEADER.pack(ANSWER, 0, 0, 0, 0, 0))
        for dest in into:
            code, nbytes = _ARRAY.unpack(_recv_exactly(sock, _ARRAY.size))
            if not 0 <= code < len(_DTYPES) or nbytes != len(dest) * _DTYPES[code].itemsize:
                raise ValueError(f"a block's answer does not fit: {nbytes} bytes of code "
                                 f"{code} for {len(dest)} positions")
            if _DTYPES[code] == dest.dtype:
                _recv_into(sock, _bytes_of(dest))
            else:                                   # a remoteness of another width
                got = np.empty(len(dest), dtype=_DTYPES[code])
                _recv_into(sock, _bytes_of(got))
                dest[:] = got


def _bytes_of(array: Any) -> memoryview:
    """The bytes of a contiguous array, as a view (no copy)."""
    return memoryview(array.reshape(-1).view(np.uint8))


def _recv_into(sock: socket.socket, view: memoryview) -> None:
    done = 0
    while done < len(view):
        k = sock.recv_into(view[done:])
        if k == 0:
            raise ConnectionError("the block closed the stream of its answer")
        done += k


def _recv_exactly(sock: socket.socket, size: int) -> bytes:
    out = bytearray(size)
    _recv_into(sock, memoryview(out))
    return bytes(out)
