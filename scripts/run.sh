#!/usr/bin/env bash
# Serves the web app, three Celery workers (deadlines and bots; mail; analysis) and the beat
# scheduler
# together and keeps them running: one that dies (killed, out of memory, crashed) is started
# again after a pause that grows while it keeps dying. Ctrl-C or SIGTERM stops them all.
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
# How long gunicorn lets its requests finish when stopped (its --graceful-timeout, 30 s as
# in deploy/); the others get as long to finish their tasks, and all of them two seconds
# more before whatever is left is killed, so a stop never cuts gunicorn's grace short.
GRACE_SECONDS="${CONQUEST_STOP_GRACE_SECONDS:-30}"
# A process that died is started again after 1 s, then 2, 4, ... up to this many while it
# keeps dying; one that ran for a minute before it died starts again after 1 s.
BACKOFF_MAX_SECONDS="${CONQUEST_RESTART_BACKOFF_MAX_SECONDS:-30}"
STEADY_SECONDS=60

# What runs, by name: each name's command is start_<name>.
NAMES=(web worker-deadlines worker-mail worker-analysis beat)
declare -A pid_of=() started_at=() restart_at=() failures=()
# Each of them runs in a process group of its own, so that stopping one stops its
# children too (the worker's pool, gunicorn's workers) and a terminal's Ctrl-C reaches this
# script alone, which stops them in order.
set -m

say() { echo "run.sh: $*" >&2; }

# Each command ends when this script does, however it ends (a supervisor's SIGKILL, a kill
# of `make run`'s process group): the kernel sends it SIGTERM (scripts/ends_with_parent.py).
guarded() {
    exec "$BIN/python" scripts/ends_with_parent.py "$$" "$@"
}

start_web() {
    # Gunicorn's control socket (for gunicornc) in var/, one per port: its default,
    # ~/.gunicorn/gunicorn.ctl, would be shared by every instance its user runs on the host.
    # --preload: the app is loaded before the port is opened, so until it can answer a
    # connection is refused; else connections wait unanswered while the workers import the
    # project, and those given up meanwhile are logged as 500s once they are reached.
    guarded "$BIN/gunicorn" config.asgi:application -k asgi -c python:config.gunicorn_conf \
        --preload --bind "127.0.0.1:${PORT}" --graceful-timeout "$GRACE_SECONDS" \
        --control-socket "${VAR_DIR}/gunicorn-${PORT}.ctl"
}
# Two workers, so that a deadline never waits behind mail: one for the clock (the deadline
# sweep and computer players' moves, on `deadlines`) and results and tournaments (`celery`),
# one for mail. Their logs (a sweep that falls behind logs a
# WARNING with its backlog) go to this script's output.
start_worker-deadlines() {
    guarded "$BIN/celery" --app config worker --loglevel INFO --queues deadlines,celery \
        --hostname "deadlines@%h" --concurrency 1
}
start_worker-mail() {
    guarded "$BIN/celery" --app config worker --loglevel INFO --queues mail \
        --hostname "mail@%h" --concurrency 1
}
# Heavy derived work (finished games' analysis) on a worker of its own, never the clock's: its
# concurrency and nice level are the operator's (CONQUEST_ANALYSIS_CONCURRENCY, _NICE).
start_worker-analysis() {
    guarded "$BIN/celery" --app config worker --loglevel INFO --queues analysis \
        --hostname "analysis@%h"
}
start_beat() {
    guarded "$BIN/celery" --app config beat --loglevel INFO
}

launch() {
    local name=$1
    "start_$name" &
    pid_of[$name]=$!
    started_at[$name]=$SECONDS
    unset "restart_at[$name]"
}

alive() {
    local pid
    for pid in "$@"; do
        kill -0 -- "-$pid" 2>/dev/null && return 0
    done
    return 1
}

running() {
    local pids=() name
    for name in "${NAMES[@]}"; do
        [ -n "${pid_of[$name]:-}" ] && pids+=("${pid_of[$name]}")
    done
    echo "${pids[@]}"
}

stop() {
    trap - INT TERM EXIT
    local pids pid
    read -r -a pids <<< "$(running)"
    ((${#pids[@]})) || return 0
    for pid in "${pids[@]}"; do
        kill -TERM -- "-$pid" 2>/dev/null || true
    done
    for _ in $(seq $(((GRACE_SECONDS + 2) * 10))); do
        alive "${pids[@]}" || break
        sleep 0.1
    done
    if alive "${pids[@]}"; then
        say "still running $((GRACE_SECONDS + 2)) s after being asked to stop, killing what is left"
        for pid in "${pids[@]}"; do
            kill -KILL -- "-$pid" 2>/dev/null || true
        done
    fi
    wait 2>/dev/null || true
}
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM
trap stop EXIT

# `name` has exited: what is left of its process group goes (gunicorn's workers would keep
# the port; a pool process, its worker's tasks), and it starts again after its backoff.
exited() {
    local name=$1 pid=${pid_of[$1]} status=0 how delay
    wait "$pid" 2>/dev/null || status=$?
    kill -KILL -- "-$pid" 2>/dev/null || true
    unset "pid_of[$name]"
    if ((SECONDS - started_at[$name] >= STEADY_SECONDS)); then
        failures[$name]=0
    fi
    failures[$name]=$((${failures[$name]:-0} + 1))
    delay=$((1 << (failures[$name] - 1)))
    ((delay <= BACKOFF_MAX_SECONDS)) || delay=$BACKOFF_MAX_SECONDS
    if ((status > 128)); then
        how="was killed by signal $((status - 128))"
    else
        how="exited with status $status"
    fi
    say "$name (pid $pid) $how; restarting it in ${delay} s (failure ${failures[$name]} in a row)"
    restart_at[$name]=$((SECONDS + delay))
}

# Whether the site answers: /healthz on the port says 200. (Bash's own /dev/tcp, in a
# subshell, so a refused connection fails the probe alone; a web still booting may accept
# the connection and answer late, so the read gives up after 2 s and the next second asks
# again.)
answers() {
    (
        exec 3<>"/dev/tcp/127.0.0.1/${PORT}" || exit 1
        printf 'GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
        IFS=' ' read -r -t 2 _ status _ <&3 && [ "$status" = 200 ]
    ) 2>/dev/null
}

say "starting web (on port ${PORT}), worker-deadlines, worker-mail and beat; the address" \
    "follows once the site answers"
for name in "${NAMES[@]}"; do
    launch "$name"
done
# Until the site answers, a line now and then says it is still coming (the first start
# imports the whole project, a minute on a busy small machine).
announced=""
waiting_since=$SECONDS
remind_at=$((SECONDS + 10))
announce() {
    if answers; then
        announced=yes
        echo "Conquest is serving on http://127.0.0.1:${PORT}/ (Ctrl-C stops web, workers" \
            "and beat)"
    elif ((SECONDS >= remind_at)); then
        remind_at=$((SECONDS + 10))
        say "web is still starting ($((SECONDS - waiting_since)) s); the address follows" \
            "once it answers"
    fi
}

# Once a second: whoever died is noticed, whoever is due is started again. (A timer rather
# than `wait -n`: that may miss a child bash reaped between two checks.)
while true; do
    sleep 1 &
    wait "$!" || true
    for name in "${NAMES[@]}"; do
        if [ -n "${pid_of[$name]:-}" ] && ! kill -0 "${pid_of[$name]}" 2>/dev/null; then
            exited "$name"
        fi
        if [ -z "${pid_of[$name]:-}" ] && ((SECONDS >= ${restart_at[$name]:-0})); then
            launch "$name"
            say "restarted $name (pid ${pid_of[$name]})"
        fi
    done
    [ -n "$announced" ] || announce
done
