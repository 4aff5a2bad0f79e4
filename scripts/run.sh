#!/usr/bin/env bash
# Serves the web app, two Celery workers (deadlines and bots; mail) and the beat scheduler
# together; stops them all on Ctrl-C or SIGTERM, or as soon as any one of them exits.
set -euo pipefail
# A shell starts a background job (`make run &` in a script) with SIGINT ignored, and a
# non-interactive bash can trap no signal that was ignored when it started: Ctrl-C (or a
# supervisor's SIGINT) would then stop nothing. Start once more with it restored.
if [ -z "${CONQUEST_RUN_SIGNALS:-}" ] && env --default-signal=INT true 2>/dev/null; then
    CONQUEST_RUN_SIGNALS=restored exec env --default-signal=INT,QUIT bash "$0" "$@"
fi
unset CONQUEST_RUN_SIGNALS
cd "$(dirname "$0")/.."

BIN=.venv/bin
PORT="${PORT:-8000}"
# Where the embedded default keeps its files (config/settings.py reads the same variable).
VAR_DIR="${CONQUEST_VAR_DIR:-var}"
mkdir -p -m 700 "$VAR_DIR"
# How long they get to stop on their own before they are killed.
GRACE_SECONDS="${CONQUEST_STOP_GRACE_SECONDS:-5}"
pids=()
# Each of them runs in a process group of its own, so that stopping one stops its
# children too (the worker's pool, gunicorn's workers) and a terminal's Ctrl-C reaches this
# script alone, which stops them in order.
set -m

alive() {
    local pid
    for pid in "$@"; do
        kill -0 -- "-$pid" 2>/dev/null && return 0
    done
    return 1
}

stop() {
    trap - INT TERM EXIT
    ((${#pids[@]})) || return 0
    local pid
    for pid in "${pids[@]}"; do
        kill -TERM -- "-$pid" 2>/dev/null || true
    done
    for _ in $(seq $((GRACE_SECONDS * 10))); do
        alive "${pids[@]}" || break
        sleep 0.1
    done
    if alive "${pids[@]}"; then
        echo "run.sh: still running after ${GRACE_SECONDS} s, killing what is left" >&2
        for pid in "${pids[@]}"; do
            kill -KILL -- "-$pid" 2>/dev/null || true
        done
    fi
    wait 2>/dev/null || true
}
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM
trap stop EXIT

# Gunicorn's control socket (for gunicornc) in var/, one per port: its default,
# ~/.gunicorn/gunicorn.ctl, would be shared by every instance its user runs on the host.
"$BIN/gunicorn" config.wsgi:application \
    --bind "127.0.0.1:${PORT}" --workers 2 --threads 4 --access-logfile - \
    --control-socket "${VAR_DIR}/gunicorn-${PORT}.ctl" \
    --logger-class config.gunicorn_logging.RedactingLogger &
pids+=("$!")
# Two workers, so that a deadline never waits behind mail: one for the deadline sweep
# and computer players' moves, one for mail. Their logs (a sweep that falls behind logs a
# WARNING with its backlog) go to this script's output.
"$BIN/celery" --app config worker --loglevel INFO --queues deadlines,celery \
    --hostname "deadlines@%h" --concurrency 1 &
pids+=("$!")
"$BIN/celery" --app config worker --loglevel INFO --queues mail \
    --hostname "mail@%h" --concurrency 1 &
pids+=("$!")
"$BIN/celery" --app config beat --loglevel INFO &
pids+=("$!")

echo "Conquest is serving on http://127.0.0.1:${PORT}/ (Ctrl-C stops web, workers and beat)"
# Returns as soon as any one of them exits; the EXIT trap then stops the others.
wait -n "${pids[@]}"
