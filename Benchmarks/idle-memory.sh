#!/usr/bin/env bash
# Idle memory of the hub: starts `hearth serve` on a free loopback port with a
# fresh data directory, waits until it answers and has settled, and prints its
# resident and private dirty memory from /proc. Targets (issue "core
# appliance"): private dirty < 15 MB, resident < 40 MB. Not a test; run with
# `make bench-memory` (release build).
set -euo pipefail
binary=${1:-.build/release/hearth}
settle=${SETTLE_SECONDS:-5}
data=$(mktemp -d)
# A binary linked moments ago still has pages waiting for the disk, and
# mapped they count as private dirty memory the hub does not own.
sync "$binary"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# Discovery off: a benchmark does not announce itself on this machine's network.
env -u HEARTH_CONFIG HEARTH_DISCOVERY_ENABLED=false "$binary" serve --data "$data" --port "$port" --host 127.0.0.1 >"$data/hub.log" 2>&1 &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$data"' EXIT

# Up to 30 s: a hub run under valgrind (Packaging/layout/profile) starts slowly.
for _ in $(seq 1 300); do
  curl -fs "http://127.0.0.1:$port/api/v1/health" >/dev/null && break
  sleep 0.1
done
curl -fs "http://127.0.0.1:$port/api/v1/health" >/dev/null || { echo "idle-memory: the hub did not answer within 30 s" >&2; tail -40 "$data/hub.log" >&2; exit 1; }
# Touch the pages a browser would load once (the API answers 401 without a
# paired device, which is still a request served), then let it go idle.
for path in / /app.js /style.css /i18n/en.json /api/v1/household; do
  curl -s -o /dev/null "http://127.0.0.1:$port$path"
done
sleep "$settle"

kb() { awk -v key="$1:" '$1 == key { print $2 }' "$2"; }
rss=$(kb VmRSS /proc/$pid/status)
hwm=$(kb VmHWM /proc/$pid/status)
dirty=$(kb Private_Dirty /proc/$pid/smaps_rollup)
threads=$(kb Threads /proc/$pid/status)

verdict() { if [ "$1" -lt "$2" ]; then echo "ok"; else echo "OVER"; fi; }
printf '%-22s %10s %10s %8s\n' "idle hub ($(basename "$binary"))" "measured" "target" "verdict"
printf '%-22s %7d kB %7d kB %8s\n' "resident (VmRSS)" "$rss" 40960 "$(verdict "$rss" 40960)"
printf '%-22s %7d kB %7d kB %8s\n' "private dirty" "$dirty" 15360 "$(verdict "$dirty" 15360)"
printf '%-22s %7d kB %10s\n' "peak resident (VmHWM)" "$hwm" "-"
printf '%-22s %10d %10s\n' "threads" "$threads" "-"
