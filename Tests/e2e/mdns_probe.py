"""An independent mDNS client (python-zeroconf, not Avahi) for the discovery
test. Run inside the client network namespace:

    python mdns_probe.py --bind 10.77.0.2 --timeout 10 _hearth._tcp _http._tcp

Browses for the given service types until each has at least one instance
(or the timeout passes), resolves them, fetches /api/v1/health from each
resolved address, and prints one JSON object:

    {"elapsed": 1.2, "services": [{"type", "name", "port", "addresses",
      "properties", "health"}]}
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.request

from zeroconf import IPVersion, ServiceBrowser, ServiceListener, Zeroconf


class Seen(ServiceListener):
    def __init__(self) -> None:
        self.names: dict[str, set[str]] = {}

    def add_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        self.names.setdefault(type_, set()).add(name)

    def update_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        self.names.setdefault(type_, set()).add(name)

    def remove_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        self.names.get(type_, set()).discard(name)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bind", required=True, help="the only local address to use")
    parser.add_argument("--timeout", type=float, default=10)
    parser.add_argument("types", nargs="+", help="e.g. _hearth._tcp")
    args = parser.parse_args()

    types = [t if t.endswith(".local.") else t + ".local." for t in args.types]
    started = time.monotonic()
    zc = Zeroconf(interfaces=[args.bind], ip_version=IPVersion.V4Only)
    try:
        seen = Seen()
        browser = ServiceBrowser(zc, types, listener=seen)
        while time.monotonic() - started < args.timeout:
            if all(seen.names.get(t) for t in types):
                break
            time.sleep(0.05)
        elapsed = time.monotonic() - started
        services = []
        for type_ in types:
            for name in sorted(seen.names.get(type_, ())):
                info = zc.get_service_info(type_, name, timeout=3000)
                if info is None:
                    continue
                addresses = info.parsed_addresses()
                health = None
                for address in addresses:
                    try:
                        with urllib.request.urlopen(f"http://{address}:{info.port}/api/v1/health", timeout=5) as r:
                            health = json.load(r)
                        break
                    except OSError as error:
                        health = {"error": str(error)}
                services.append({
                    "type": type_,
                    "name": name[: -len(type_) - 1] if name.endswith("." + type_) else name,
                    "port": info.port,
                    "addresses": addresses,
                    "server": info.server,
                    "properties": {k.decode(): (v.decode() if v is not None else None)
                                   for k, v in info.properties.items()},
                    "health": health,
                })
        browser.cancel()
    finally:
        zc.close()
    json.dump({"elapsed": round(elapsed, 2), "services": services}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
