"""A stand-in for an Internet ntfy server (ntfy.sh), the one stand-in the
away-from-home tests use: no machine here reaches the Internet. A real
HTTP server on a loopback port that speaks ntfy's publish API as far as
the hub uses it (a JSON publish `POST /` with `topic`, `title`, `message`,
`priority`, `tags`, `actions`; a poll request `POST /<topic>` with
`X-Poll-ID`), answers as ntfy does (200 and the message as JSON) or with
the statuses it is told to, and records what it got."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class NtfyStandIn:
    def __init__(self, answers: list[int] | None = None):
        self.published: list[dict] = []
        self.answers = list(answers or [])
        self.lock = threading.Lock()
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                is_publish = self.headers.get("Content-Type", "").startswith("application/json")
                with stand_in.lock:
                    # The statuses it is told to answer are for publishes; a poll request is always taken.
                    status = stand_in.answers.pop(0) if stand_in.answers and is_publish else 200
                    entry = {"path": self.path, "headers": dict(self.headers), "status": status, "at": time.time()}
                    if is_publish:
                        entry["json"] = json.loads(body or b"{}")
                    stand_in.published.append(entry)
                answer = json.dumps({"id": f"m{len(stand_in.published)}", "event": "message"}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def messages(self) -> list[dict]:
        """The JSON publishes that were taken (200), oldest first."""
        with self.lock:
            return [entry["json"] for entry in self.published if "json" in entry and entry["status"] == 200]

    def wait_for_messages(self, count: int, timeout: float = 10) -> list[dict]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.messages()) >= count:
                return self.messages()
            time.sleep(0.1)
        raise AssertionError(f"the ntfy stand-in got {len(self.messages())} messages in {timeout} s, expected {count}: {self.published}")

    def poll_requests(self) -> list[dict]:
        """The poll requests that came: `POST /<sha256 of a topic's address>` with `X-Poll-ID`."""
        with self.lock:
            return [entry for entry in self.published if "json" not in entry]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
