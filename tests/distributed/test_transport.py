"""The direct streams between the blocks of a distributed solve: the token,
messages in order, the answer read into the client's arrays, and the
failures (a wrong token, a closed stream, an answer that does not fit)."""
import asyncio
import socket
import threading

import numpy as np
import pytest

pytest.importorskip("distributed")
from grundy.distributed import transport  # noqa: E402

TOKEN = b"0123456789abcdef"


class Loop:
    """An event loop in a thread, as a Dask worker's."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro, timeout=10):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture
def block():
    """A listener on 127.0.0.1 whose messages are kept, answering with
    ``answer`` (an int8 and a uint16 array)."""
    loop = Loop()
    got = []
    answer = [np.array([1, -1, 0, 2], np.int8), np.array([3, 0, 0, 7], np.uint16)]

    async def deliver(phase, level, sender, array, count):
        got.append((phase, level, sender, array.dtype.name, array.tolist(), count))

    listener = transport.Listener(TOKEN, deliver, lambda: answer)
    address = loop.run(listener.start("127.0.0.1"))
    yield loop, listener, address, got, answer
    loop.run(_aclose(listener))
    loop.close()


async def _aclose(listener):
    listener.close()


def wait_for(got, k, timeout=5.0):
    end = threading.Event()
    for _ in range(int(timeout / 0.01)):
        if len(got) >= k:
            return
        end.wait(0.01)
    raise AssertionError(f"{len(got)} messages of {k}")


def test_messages_arrive_in_order_with_their_dtypes(block):
    loop, _, address, got, _ = block
    assert address.startswith("127.0.0.1:")

    async def talk():
        writer = await transport.connect(address, TOKEN)
        assert writer is not None
        await transport.send(writer, 0, 5, 2, np.array([4, 9], np.uint32), 11)
        await transport.send(writer, 1, 6, 2, np.array([], np.uint32), 0)
        await transport.send(writer, 0, 7, 2, np.array([2 ** 40], np.int64), 1)
        writer.close()

    loop.run(talk())
    wait_for(got, 3)
    assert got == [(0, 5, 2, "uint32", [4, 9], 11), (1, 6, 2, "uint32", [], 0),
                   (0, 7, 2, "int64", [2 ** 40], 1)]


def test_a_connection_without_the_token_is_closed_unread(block):
    loop, _, address, got, _ = block
    host, port = address.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(b"not the token!!!" + bytes(48))
        sock.settimeout(5)
        assert sock.recv(1) == b""                      # closed by the block
    assert got == []


def test_the_answer_is_read_into_the_clients_arrays(block):
    _, _, address, _, answer = block
    outcome, rem = np.zeros(6, np.int8), np.zeros(6, np.uint16)
    transport.fetch(address, TOKEN, [outcome[1:5], rem[1:5]], timeout=5)
    assert outcome.tolist() == [0, 1, -1, 0, 2, 0] and rem.tolist() == [0, 3, 0, 0, 7, 0]
    wide = np.zeros(4, np.int32)                        # another width: converted
    transport.fetch(address, TOKEN, [outcome[:4], wide], timeout=5)
    assert wide.tolist() == [3, 0, 0, 7]
    with pytest.raises(ValueError, match="does not fit"):
        transport.fetch(address, TOKEN, [np.zeros(3, np.int8), rem[:3]], timeout=5)


def test_failures_are_oserrors_or_none():
    loop = Loop()
    try:
        with socket.socket() as s:                      # a port nobody listens on
            s.bind(("127.0.0.1", 0))
            dead = f"127.0.0.1:{s.getsockname()[1]}"
        assert loop.run(transport.connect(dead, TOKEN)) is None
        with pytest.raises(OSError):
            transport.fetch(dead, TOKEN, [np.zeros(1, np.int8)], timeout=2)
        # Off a Dask worker there is no interface to listen on: Dask's calls.
        listener = transport.Listener(TOKEN, None, list)
        assert loop.run(listener.start()) is None
    finally:
        loop.close()
