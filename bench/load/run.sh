#!/usr/bin/env bash
# `make load`: the load test (README.md beside this file). Loopback only, bounded in time
# (LOAD_DURATION per run) and count (LOAD_UPLOADS logs, each sent at most once).
#   1. a fresh database `lantern_load` and a Redis database of its own (LOAD_REDIS_DB),
#   2. seed (bench/load/seed.py: demo clubs, bot-played matches, rated; upload logs),
#   3. scripts/prod.sh (gunicorn + worker + beat) on 127.0.0.1:LOAD_PORT, with
#      LANTERN_UPLOAD_RATE raised for this run (the throttle stays on, at LOAD_UPLOAD_RATE),
#   4. a warm-up, then four wrk clients at once: match lists, replay frames, standings,
#      uploads; each prints its figures (RESULT lines),
#   5. waits for the queues to drain, then bench/load/check.py: every accepted upload is
#      a match, every match rated exactly once; stops prod. Exit 1 when a check fails.
# Output: var/load/ (report.json, wrk outputs, prod.log).
set -euo pipefail

cd "$(dirname "$0")/../.."
PROJECT_DIR=$(pwd)
BIN=.venv/bin
OUT=var/load
DURATION=${LOAD_DURATION:-30s}
PORT=${LOAD_PORT:-8093}
UPLOADS=${LOAD_UPLOADS:-2500}
MATCHES_PER_GAME=${LOAD_MATCHES_PER_GAME:-200}
READ_CONNECTIONS=${LOAD_READ_CONNECTIONS:-4}
UPLOAD_CONNECTIONS=${LOAD_UPLOAD_CONNECTIONS:-4}
export LANTERN_UPLOAD_RATE=${LOAD_UPLOAD_RATE:-20000/min}
export LANTERN_DB_NAME=lantern_load
export REDIS_DB=${LOAD_REDIS_DB:-3}
export PORT

log() { echo "[load $(date -u +%H:%M:%S)] $*" >&2; }

# shellcheck source=../../scripts/services.sh
source scripts/services.sh
services_install wrk
services_start
log "a fresh database $LANTERN_DB_NAME and Redis database $REDIS_DB"
_psql -c "DROP DATABASE IF EXISTS $LANTERN_DB_NAME WITH (FORCE)"
services_create_database
redis-cli -h 127.0.0.1 -p "$REDIS_PORT" -n "$REDIS_DB" flushdb >/dev/null
eval "$(services_urls)"

mkdir -p "$OUT"
rm -f "$OUT"/upload-results-*.txt "$OUT"/wrk-*.txt
log "migrate and seed (tasks eager: the seeded matches are rated before the run)"
env -u REDIS_URL DATABASE_URL="$DATABASE_URL" DEBUG=1 "$BIN/python" manage.py migrate \
    --no-input --verbosity 0
env -u REDIS_URL DATABASE_URL="$DATABASE_URL" DEBUG=1 LOG_LEVEL=WARNING "$BIN/python" bench/load/seed.py \
    --matches-per-game "$MATCHES_PER_GAME" --uploads "$UPLOADS" | tee "$OUT/seed.json"
export DATABASE_URL REDIS_URL

log "starting scripts/prod.sh on 127.0.0.1:$PORT (log: $OUT/prod.log)"
scripts/prod.sh >"$OUT/prod.log" 2>&1 &
PROD_PID=$!
stop_prod() {
    if kill -0 "$PROD_PID" 2>/dev/null; then
        log "stopping prod (pid $PROD_PID)"
        kill -TERM "$PROD_PID" 2>/dev/null || true
        wait "$PROD_PID" 2>/dev/null || true
    fi
}
trap stop_prod EXIT
for _ in $(seq 1 120); do
    curl -fsS -o /dev/null "http://127.0.0.1:$PORT/healthz" 2>/dev/null && break
    kill -0 "$PROD_PID" 2>/dev/null || { log "prod died:"; tail -n 30 "$OUT/prod.log"; exit 1; }
    sleep 1
done

URL="http://127.0.0.1:$PORT"
wrk_reads() {  # name, connections, duration
    wrk -t 1 -c "$2" -d "$3" --timeout 5s -s bench/load/reads.lua "$URL" -- "$1" \
        "$OUT/paths-$1.txt"
}
log "warm-up: every replay once (frames are cached after their first read), 5 s of lists"
wrk_reads frames 4 "$(( $(wc -l <"$OUT/paths-frames.txt") / 50 + 5 ))s" >/dev/null
wrk_reads matches 2 5s >/dev/null
wrk_reads standings 2 5s >/dev/null

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
log "load for $DURATION: reads ($READ_CONNECTIONS connections per endpoint) and uploads ($UPLOAD_CONNECTIONS) at once; load average before: $(loadavg)"
"$BIN/python" bench/load/cpu.py snapshot "$OUT/cpu-before.json"
started=$(date +%s.%N)
wrk_reads matches "$READ_CONNECTIONS" "$DURATION" >"$OUT/wrk-matches.txt" &
reads_matches=$!
wrk_reads frames "$READ_CONNECTIONS" "$DURATION" >"$OUT/wrk-frames.txt" &
reads_frames=$!
wrk_reads standings "$READ_CONNECTIONS" "$DURATION" >"$OUT/wrk-standings.txt" &
reads_standings=$!
wrk -t "$UPLOAD_CONNECTIONS" -c "$UPLOAD_CONNECTIONS" -d "$DURATION" --timeout 10s \
    -s bench/load/uploads.lua "$URL" -- "$(cat "$OUT/token")" "$OUT/uploads.txt" \
    "$UPLOAD_CONNECTIONS" "$PROJECT_DIR/$OUT/upload-results" >"$OUT/wrk-uploads.txt" &
uploads=$!
status=0
wait "$reads_matches" "$reads_frames" "$reads_standings" "$uploads" || status=$?
elapsed=$(echo "$(date +%s.%N) - $started" | bc)
"$BIN/python" bench/load/cpu.py snapshot "$OUT/cpu-after.json"
log "load done in ${elapsed}s; load average after: $(loadavg)"
[ "$status" = 0 ] || { log "a wrk client failed ($status)"; exit 1; }

log "waiting for the queues to drain, then checking"
check_status=2
for _ in $(seq 1 90); do
    queued=$(for queue in celery ingest ratings; do
        redis-cli -h 127.0.0.1 -p "$REDIS_PORT" -n "$REDIS_DB" llen "$queue"; done | paste -sd+ | bc)
    if [ "$queued" = 0 ]; then
        set +e
        "$BIN/python" bench/load/check.py >"$OUT/check.json"
        check_status=$?
        set -e
        [ "$check_status" != 2 ] && break
    fi
    sleep 2
done
drained=$(echo "$(date +%s.%N) - $started - $elapsed" | bc)

"$BIN/python" - "$OUT" "$DURATION" "$elapsed" "$drained" <<'EOF'
import json, os, subprocess, sys
from pathlib import Path
out, duration, elapsed, drained = sys.argv[1:]
results = []
for name in ("matches", "frames", "standings", "uploads"):
    lines = [l for l in Path(out, f"wrk-{name}.txt").read_text().splitlines() if l.startswith("RESULT ")]
    results.append(json.loads(lines[-1].removeprefix("RESULT ")) if lines else {"endpoint": name, "missing": True})
check = json.loads(Path(out, "check.json").read_text() or "{}")
cpu = json.loads(subprocess.run(
    [sys.executable, "bench/load/cpu.py", "diff", f"{out}/cpu-before.json", f"{out}/cpu-after.json"],
    check=True, capture_output=True, text=True).stdout)
reads = [r for r in results if r["endpoint"] != "upload"]
report = {
    "duration": duration, "elapsed_s": round(float(elapsed), 1),
    "drain_s_after_load": round(float(drained), 1),
    "cpu": cpu,
    "server_cpu_s": round(cpu["by_group_s"]["gunicorn"] + cpu["by_group_s"]["celery"], 1),
    "cpus": os.cpu_count(), "loadavg_after": open("/proc/loadavg").read().split()[:3],
    "reads_per_s": round(sum(r.get("per_second", 0) for r in reads), 1),
    "endpoints": results, "check": check,
}
Path(out, "report.json").write_text(json.dumps(report, indent=2))
print(f"{'endpoint':<10} {'requests':>8} {'per s':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}  answers")
for r in results:
    if r.get("missing"):
        print(f"{r['endpoint']:<10} (no result)"); continue
    print(f"{r['endpoint']:<10} {r['requests']:>8} {r['per_second']:>7.1f} {r['p50_ms']:>8.1f} "
          f"{r['p95_ms']:>8.1f} {r['p99_ms']:>8.1f}  {r['statuses'] or ''} http errors {r['http_errors']}, "
          f"socket errors {r['socket_errors']}, timeouts {r['timeouts']}")
print(f"reads {report['reads_per_s']}/s; server CPU {report['server_cpu_s']} s in {report['elapsed_s']} s "
      f"on {report['cpus']} CPUs; queues drained {report['drain_s_after_load']} s after the load")
print(f"CPU seconds by process group: {json.dumps(cpu['by_group_s'])}; machine busy "
      f"{cpu['machine_busy_s']} s, idle {cpu['machine_idle_s']} s")
print("check:", json.dumps(check))
EOF
case "$check_status" in
    0) log "check passed: every accepted upload is a match, every match rated exactly once" ;;
    2) log "check: ratings still pending after waiting (see $OUT/check.json)"; exit 1 ;;
    *) log "check FAILED (see $OUT/check.json)"; exit 1 ;;
esac
