"""A subscriber that speaks to the hub exactly as the ntfy Android app
speaks to an ntfy server, written from the published protocol (docs.ntfy.sh,
"Subscribe via API"; ../shared/reference/ntfy-subscribe.md), not from
Hearth's code:

- every request carries `Authorization: Basic base64(user:pass)`;
- adding a subscription asks `<base>/<topic>/auth` and wants `{"success": true}`;
- instant delivery is a long-lived `GET <base>/<topics>/json?since=<since>`
  read one JSON object per line (or `<base>/<topics>/ws`, one per text
  message); it reconnects with the id of the last message it has;
- polling is `GET <base>/<topic>/json?poll=1&since=<since>`;
- a notification's `http` action is sent as its `method` (POST when absent)
  to its `url` with its `headers` and `body`, and nothing else.
"""

from __future__ import annotations

import base64
import json
import socket
import threading
import time

import requests
import websocket


class NtfyClient:
    def __init__(self, base_url: str, username: str, password: str):
        self.base_url = base_url.rstrip("/")
        token = base64.b64encode(f"{username}:{password}".encode()).decode()
        self.headers = {"Authorization": f"Basic {token}"}

    def auth(self, topic: str) -> requests.Response:
        return requests.get(f"{self.base_url}/{topic}/auth", headers=self.headers, timeout=5)

    def poll(self, topics: str, since: str) -> list[dict]:
        response = requests.get(f"{self.base_url}/{topics}/json", params={"poll": "1", "since": since},
                                headers=self.headers, timeout=10)
        assert response.status_code == 200, response.text
        return [json.loads(line) for line in response.text.splitlines() if line.strip()]

    def subscribe(self, topics: str, since: str = "none") -> "Subscription":
        return Subscription(f"{self.base_url}/{topics}/json", {"since": since}, self.headers)

    def subscribe_ws(self, topics: str, since: str = "none") -> websocket.WebSocket:
        url = self.base_url.replace("http://", "ws://", 1) + f"/{topics}/ws?since={since}"
        return websocket.create_connection(url, header=[f"Authorization: {self.headers['Authorization']}"],
                                           suppress_origin=True, timeout=5)

    @staticmethod
    def press(action: dict) -> requests.Response:
        """An `http` action as the app performs it: no credentials of its own."""
        assert action["action"] == "http", action
        return requests.request(action.get("method") or "POST", action["url"], headers=action.get("headers") or {},
                                data=(action.get("body") or "").encode(), timeout=10)


class Subscription:
    """One instant-delivery connection, read line by line in a thread."""

    def __init__(self, url: str, params: dict, headers: dict):
        self.response = requests.get(url, params=params, headers=headers, stream=True, timeout=(5, 120))
        self.status = self.response.status_code
        self.events: list[tuple[float, dict]] = []  # (arrival, event)
        self.ended = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, daemon=True)
        if self.status == 200:
            self._thread.start()
        else:
            self.ended.set()

    def _read(self) -> None:
        try:
            # chunk_size=None: each chunk as it arrives, not once 512 bytes have.
            for line in self.response.iter_lines(chunk_size=None):
                if line:
                    with self._lock:
                        self.events.append((time.time(), json.loads(line)))
        except (requests.RequestException, AttributeError, ValueError):
            pass  # closed by close(), or the hub ended the stream
        finally:
            self.ended.set()

    def messages(self, event: str = "message") -> list[dict]:
        with self._lock:
            return [e for _, e in self.events if e.get("event") == event]

    def wait_for(self, what: str, condition, timeout: float = 10) -> tuple[float, dict]:
        """The first event for which `condition` holds, and when it arrived."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                for arrived, event in self.events:
                    if condition(event):
                        return arrived, event
            time.sleep(0.01)
        raise AssertionError(f"no {what} within {timeout} s; got {[e for _, e in self.events]}")

    def close(self) -> None:
        # Shut the socket first: the reader thread is blocked in a read that
        # holds the response's buffer lock, and close() alone waited for
        # the hub's next line (up to a minute or more) before it could take it.
        connection = getattr(self.response.raw, "_connection", None)
        sock = getattr(connection, "sock", None)
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.response.close()
        self.ended.wait(5)
