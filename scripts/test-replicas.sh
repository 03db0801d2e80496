#!/usr/bin/env bash
# Runs deploy/replicas/compose.yml as it is, with podman-compose, and checks what it promises:
# Redis, two petstore-mock replicas and HAProxy (and Prometheus, its `metrics` profile) on one
# compose network, the services finding each other by name.
#
# Part of `npm run test:container`: scripts/test-container.sh calls it with the image it has just
# built, in its private podman storage (CONTAINERS_CONF, CONTAINERS_STORAGE_CONF). This machine
# reaches no container registry, so the official images the compose file names are stood in for
# by local images of Debian's own binaries, tagged with those names and set up as the official
# images are (entrypoint, config paths, ports):
#
#   redis:7.4                 Debian's redis-server 7.0 and redis-cli, protected mode off (as the
#                             official image builds it), /data as working directory
#   haproxy:2.8               Debian's haproxy 2.6, run as the official image runs it
#                             (`haproxy -W -db -f /usr/local/etc/haproxy/haproxy.cfg`)
#   prom/prometheus:v2.53.4   Debian's prometheus 2.42, its official entrypoint and flags
#
# The packages are fetched with `apt-get download` and unpacked here: nothing is installed on
# the machine, and no service is started. Every wait is bounded; everything is removed on exit
# (REPLICAS_LOGS=<dir> keeps every container's log there first).
set -euo pipefail

cd "$(dirname "$0")/.."
PASSED=0

log() { printf '[test-replicas] %s\n' "$*"; }
ok() {
  PASSED=$((PASSED + 1))
  printf '[test-replicas] ok   %s\n' "$*"
}
fail() {
  printf '[test-replicas] FAIL %s\n' "$*" >&2
  exit 1
}

IMAGE=${1:-}
[ -n "$IMAGE" ] && [ -n "${CONTAINERS_CONF:-}" ] ||
  fail "run through scripts/test-container.sh (npm run test:container), which builds the image"
COMPOSE_FILE=deploy/replicas/compose.yml

if ! command -v podman-compose >/dev/null; then
  log "installing podman-compose (apt)"
  DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq podman-compose >/dev/null
fi

WORK=$(mktemp -d /tmp/petstore-mock-replicas.XXXXXX)
PROJECT="petstore-replicas-$$"
NETWORK="${PROJECT}_default"
STATUS=failed
compose() {
  timeout 300 podman-compose -p "$PROJECT" -f "$COMPOSE_FILE" "$@" >>"$WORK/compose.log" 2>&1
}

# The image each service names, read from the compose file itself.
image_of() {
  node -e '
    const { parse } = require("yaml");
    const doc = parse(require("fs").readFileSync(process.argv[1], "utf8"));
    process.stdout.write(doc.services[process.argv[2]].image);
  ' "$COMPOSE_FILE" "$1"
}

cleanup() {
  local rc=$?
  set +e
  if [ "$STATUS" != passed ]; then
    log "podman-compose log (last 30 lines):"
    tail -30 "$WORK/compose.log" 2>/dev/null | sed 's/^/    /'
    for name in $(podman ps -a --filter "label=io.podman.compose.project=$PROJECT" --format '{{.Names}}'); do
      log "$name (last 15 lines):"
      timeout 30 podman logs --tail 15 "$name" 2>&1 | sed 's/^/    /'
    done
  fi
  if [ -n "${REPLICAS_LOGS:-}" ]; then
    mkdir -p "$REPLICAS_LOGS"
    for name in $(podman ps -a --filter "label=io.podman.compose.project=$PROJECT" --format '{{.Names}}'); do
      timeout 30 podman logs -t "$name" >"$REPLICAS_LOGS/$name.log" 2>&1
    done
    cp "$WORK/compose.log" "$REPLICAS_LOGS/"
    log "container logs kept in $REPLICAS_LOGS"
  fi
  timeout 120 podman-compose -p "$PROJECT" -f "$COMPOSE_FILE" down -v >>"$WORK/compose.log" 2>&1
  timeout 60 podman rm -f -t 0 $(podman ps -aq --filter "label=io.podman.compose.project=$PROJECT") >/dev/null 2>&1
  timeout 60 podman volume rm -f $(podman volume ls -q --filter "label=io.podman.compose.project=$PROJECT") >/dev/null 2>&1
  timeout 60 podman network rm -f "$NETWORK" >/dev/null 2>&1
  for service in redis balancer prometheus replica-a; do
    timeout 60 podman rmi -f "$(image_of "$service")" >/dev/null 2>&1
  done
  rm -rf "$WORK"
  echo "test-replicas: $PASSED passed, $([ "$STATUS" = passed ] && echo 0 || echo 1) failed"
  [ "$STATUS" = passed ] || [ "$rc" != 0 ] || rc=1
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- 1. stand-ins for the official images ---------------------------------------------------------
# Copies binaries and the libraries `ldd` lists for them (LD_LIBRARY_PATH: unpacked packages).
copy_with_libs() {
  local root=$1 lib
  shift
  for file in "$@"; do
    mkdir -p "$root$(dirname "${file#"$DEBS"}")"
    cp -L "$file" "$root${file#"$DEBS"}"
  done
  for lib in $(for file in "$@"; do LD_LIBRARY_PATH="$DEBS/usr/lib/x86_64-linux-gnu" ldd "$file"; done |
    awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | sort -u); do
    mkdir -p "$root$(dirname "${lib#"$DEBS"}")"
    cp -L "$lib" "$root${lib#"$DEBS"}"
  done
  mkdir -p "$root/bin" "$root/etc" "$root/tmp"
  chmod 1777 "$root/tmp"
  cp "$(readlink -f /bin/sh)" "$root/bin/sh"
  for lib in $(ldd "$(readlink -f /bin/sh)" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
    mkdir -p "$root$(dirname "$lib")"
    cp -L "$lib" "$root$lib"
  done
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' >"$root/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
}

# Commits a root directory as an image: bake NAME ROOT [DIR:UID] [buildah config options...],
# DIR an empty directory of the image owned by UID.
bake() {
  local name=$1 root=$2 ctr owned=""
  shift 2
  case "${1:-}" in /*:*) owned=$1 && shift ;; esac
  ctr=$(buildah from scratch)
  buildah copy --quiet "$ctr" "$root/" / >/dev/null
  if [ -n "$owned" ]; then
    mkdir -p "$WORK/empty"
    buildah copy --quiet --chown "${owned#*:}:${owned#*:}" "$ctr" "$WORK/empty" "${owned%%:*}" >/dev/null
  fi
  buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@" "$ctr"
  buildah commit --quiet --format docker "$ctr" "$name" >/dev/null
  buildah rm "$ctr" >/dev/null
}

t=$(date +%s)
DEBS="$WORK/debs/root"
mkdir -p "$DEBS"
packages=(haproxy liblua5.3-0 libopentracing-c-wrapper0 libopentracing1 prometheus)
if ! (cd "$WORK/debs" && timeout 300 apt-get download "${packages[@]}" >/dev/null 2>&1); then
  timeout 300 apt-get update -qq
  (cd "$WORK/debs" && timeout 300 apt-get download "${packages[@]}" >/dev/null 2>&1) ||
    fail "apt-get download ${packages[*]}"
fi
for deb in "$WORK"/debs/*.deb; do dpkg-deb -x "$deb" "$DEBS"; done
command -v redis-server >/dev/null || {
  log "installing redis-server (apt)"
  DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq redis-server >/dev/null
}

# Redis: as the official image, protected mode is off (it serves the compose network) and the
# append-only file goes to /data, the volume.
R="$WORK/redis"
copy_with_libs "$R" "$(readlink -f "$(command -v redis-server)")" "$(readlink -f "$(command -v redis-cli)")"
mkdir -p "$R/usr/local/bin" "$R/data"
mv "$R$(readlink -f "$(command -v redis-server)")" "$R/usr/local/bin/redis-server.bin"
mv "$R$(readlink -f "$(command -v redis-cli)")" "$R/usr/local/bin/redis-cli"
printf '#!/bin/sh\nexec /usr/local/bin/redis-server.bin "$@" --protected-mode no\n' >"$R/usr/local/bin/redis-server"
chmod +x "$R/usr/local/bin/redis-server"
bake "$(image_of redis)" "$R" --workingdir /data --cmd redis-server --port 6379

H="$WORK/haproxy"
copy_with_libs "$H" "$DEBS/usr/sbin/haproxy"
mkdir -p "$H/usr/local/sbin" "$H/usr/local/etc/haproxy" "$H/var/lib/haproxy"
mv "$H/usr/sbin/haproxy" "$H/usr/local/sbin/haproxy"
bake "$(image_of balancer)" "$H" --stop-signal SIGUSR1 --port 4010 --port 8404 \
  --cmd '["haproxy", "-W", "-db", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]'

P="$WORK/prometheus"
copy_with_libs "$P" "$DEBS/usr/bin/prometheus"
mkdir -p "$P/etc/prometheus"
mv "$P/usr/bin/prometheus" "$P/bin/prometheus"
bake "$(image_of prometheus)" "$P" /prometheus:65534 --user nobody --workingdir /prometheus --port 9090 \
  --entrypoint '["/bin/prometheus"]' \
  --cmd '["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]'

podman tag "$IMAGE" "$(image_of replica-a)"
ok "stand-in images $(image_of redis) (redis-server $(redis-server --version | grep -o 'v=[0-9.]*' | cut -c3-)), $(image_of balancer) (haproxy $(LD_LIBRARY_PATH="$DEBS/usr/lib/x86_64-linux-gnu" "$DEBS/usr/sbin/haproxy" -v | awk 'NR == 1 { print $3 }')), $(image_of prometheus) (prometheus $("$DEBS/usr/bin/prometheus" --version 2>&1 | awk 'NR == 1 { print $3 }')); $(image_of replica-a) is the image just built; $(($(date +%s) - t)) s"

# ---- 2. up -----------------------------------------------------------------------------------------
free_port() {
  node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}
export BALANCER_PORT BALANCER_STATS_PORT PROMETHEUS_PORT
BALANCER_PORT=$(free_port)
BALANCER_STATS_PORT=$(free_port)
PROMETHEUS_PORT=$(free_port)
# No admin token: the compose file's default (an open admin API), which prometheus.yml scrapes.
unset MOCK_ADMIN_TOKEN
B="http://127.0.0.1:$BALANCER_PORT"

# The network compose would make, made first with a subnet and bridge of this run's own, so that
# two runs on one machine (each with its own podman configuration) never pick the same ones.
# podman 4.3 has no --interface-name: the bridge's name is set in the network's file.
for _ in 1 2 3 4 5 6 7 8 9 10; do
  subnet="10.$((RANDOM % 100 + 120)).$((RANDOM % 250)).0/24"
  ip route | grep -qF "${subnet%.0/24}." || break
done
podman network create --subnet "$subnet" --label "io.podman.compose.project=$PROJECT" \
  "$NETWORK" >/dev/null
net_dir=$(awk -F'"' '/^network_config_dir/ { print $2 }' "$CONTAINERS_CONF")
net_file="${net_dir:-/etc/containers/networks}/$NETWORK.json"
[ -f "$net_file" ] && sed -i "s/\"network_interface\": \"[^\"]*\"/\"network_interface\": \"pmr$(($$ % 100000))\"/" "$net_file"

t=$(date +%s)
compose up -d --no-build || fail "podman-compose up (log below)"
container() {
  podman ps -a --filter "label=io.podman.compose.project=$PROJECT" \
    --filter "label=com.docker.compose.service=$1" --format '{{.Names}}' | head -1
}
for service in redis replica-a replica-b balancer prometheus; do
  [ -n "$(container "$service")" ] || fail "no container for service $service"
done
ok "podman-compose up -d: redis, replica-a, replica-b, balancer, prometheus on network $NETWORK ($subnet) in $(($(date +%s) - t)) s"

# ---- 3. checks -------------------------------------------------------------------------------------
A='Authorization: Bearer replicas-test'
J='Content-Type: application/json'
req() { curl -sS --max-time 10 -o "$WORK/body" -w '%{http_code}' "$@" 2>/dev/null || true; }
body() { cat "$WORK/body"; }
# HAProxy's view of a server of backend `replicas`: UP, DOWN, or a transition such as "UP 1/2".
lb_status() {
  curl -sS --max-time 5 "http://127.0.0.1:$BALANCER_STATS_PORT/stats;csv" 2>/dev/null |
    awk -F, -v s="$1" '$1 == "replicas" && $2 == s { print $18 }'
}
# Waits (at most $2 seconds) until both replicas are in state $1 as HAProxy sees them.
wait_lb() {
  local want=$1 deadline=$((SECONDS + $2))
  while [ $SECONDS -lt $deadline ]; do
    [ "$(lb_status replica-a)" = "$want" ] && [ "$(lb_status replica-b)" = "$want" ] && return 0
    sleep 0.5
  done
  fail "HAProxy sees replica-a '$(lb_status replica-a)', replica-b '$(lb_status replica-b)' after $2 s; want $want"
}
# Waits (at most $2 seconds) until a GET of $1 through the balancer answers 200; the last answer
# is left in $WORK/body. HAProxy's status alone may still be UP from before a short outage.
wait_served() {
  local deadline=$((SECONDS + $2)) code
  while :; do
    code=$(req -H "$A" "$B$1")
    [ "$code" = 200 ] && return 0
    [ $SECONDS -lt $deadline ] || fail "GET $1 through the balancer: still $code $(body) after $2 s"
    sleep 0.5
  done
}
# A GET of the pet API from inside a replica's container (its own port, not the balancer).
get_in() {
  podman exec "$(container "$1")" node -e '
    fetch("http://127.0.0.1:4010" + process.argv[1], { headers: { authorization: "Bearer t" } })
      .then(async (res) => console.log(res.status, await res.text()));
  ' "$2"
}

t=$(date +%s)
wait_lb UP 90
aof=$(podman exec "$(container redis)" redis-cli config get appendonly | tail -1)
[ "$aof" = yes ] || fail "Redis runs with appendonly '$aof', want yes (compose.yml's command)"
ok "HAProxy's health checks (GET /__admin/health) pass on both replicas $(($(date +%s) - t)) s after up; Redis has appendonly yes"

code=$(req -H "$A" -H "$J" -d '{"name":"Shared Rex","categoryId":2,"status":"available"}' "$B/v1/pets")
[ "$code" = 201 ] || fail "POST /v1/pets through the balancer: $code $(body)"
created=$(body)
id=$(node -p 'JSON.parse(process.argv[1]).id' "$created")
for service in replica-a replica-b; do
  got=$(get_in "$service" "/v1/pets/$id")
  [ "$got" = "200 $created" ] || fail "GET /v1/pets/$id on $service: $got, want 200 $created"
done
ok "POST /v1/pets through the balancer -> 201 id $id; GET /v1/pets/$id on replica-a and on replica-b -> 200, the same body"

podman stop -t 5 "$(container replica-a)" >/dev/null 2>&1
t=$(date +%s)
deadline=$((SECONDS + 20))
until [ "$(lb_status replica-a)" = DOWN ]; do
  [ $SECONDS -lt $deadline ] || fail "replica-a stopped, HAProxy still has it '$(lb_status replica-a)'"
  sleep 0.5
done
for _ in 1 2 3 4 5 6; do
  code=$(req -H "$A" "$B/v1/pets/$id")
  [ "$code" = 200 ] || fail "GET /v1/pets/$id through the balancer with replica-a stopped: $code $(body)"
done
ok "replica-a stopped: HAProxy marks it DOWN in $(($(date +%s) - t)) s; 6 GETs through the balancer -> 200 (replica-b)"
podman start "$(container replica-a)" >/dev/null 2>&1
wait_lb UP 60

podman stop -t 5 "$(container redis)" >/dev/null 2>&1
t=$(date +%s)
wait_lb DOWN 30
ok "Redis stopped: HAProxy marks both replicas DOWN in $(($(date +%s) - t)) s"
health=$(podman exec "$(container replica-b)" node -e '
  fetch("http://127.0.0.1:4010/__admin/health").then(async (res) =>
    console.log(res.status, res.headers.get("retry-after"), await res.text()));
')
case "$health" in
  "503 1 "*'"code":"state_unavailable"'*redis://redis:6379*) ;;
  *) fail "GET /__admin/health on replica-b with Redis away: $health" ;;
esac
podman exec "$(container replica-b)" node dist/healthcheck.js >/dev/null 2>&1 &&
  fail "the image's healthcheck passes with Redis away"
code=$(req -H "$A" "$B/v1/pets/$id")
{ [ "$code" = 503 ] && body | grep -q 'No server is available'; } ||
  fail "GET through the balancer with Redis away: $code $(body), want HAProxy's own 503"
ok "  replica-b's health: 503 state_unavailable naming redis://redis:6379, Retry-After: 1; the image's HEALTHCHECK fails; the balancer answers its own 503"

podman start "$(container redis)" >/dev/null 2>&1
t=$(date +%s)
# Usually 1-3 s here; in 3 runs of about 20 on this machine one replica took 12 to 42 s to get its
# connection back (cause not found: DNS and TCP to the new Redis answered at once from inside a
# replica), hence the generous bounds.
wait_served "/v1/pets/$id" 90
[ "$(body)" = "$created" ] || fail "GET /v1/pets/$id after Redis came back: $(body), want $created"
served_s=$(($(date +%s) - t))
wait_lb UP 90
ok "Redis started again: served again in $served_s s, both replicas UP in $(($(date +%s) - t)) s (they reconnect by themselves); pet $id still there (append-only file on the volume)"

code=$(req -H "$A" -H "$J" -d '{"name":"Crash Rex","categoryId":1}' "$B/v1/pets")
[ "$code" = 201 ] || fail "POST /v1/pets before the crash: $code $(body)"
crashed=$(body)
crash_id=$(node -p 'JSON.parse(process.argv[1]).id' "$crashed")
podman kill -s KILL "$(container redis)" >/dev/null 2>&1
timeout 30 podman wait "$(container redis)" >/dev/null 2>&1 || true
# Its restart policy may have started it already.
podman start "$(container redis)" >/dev/null 2>&1 || true
t=$(date +%s)
wait_served "/v1/pets/$crash_id" 90
[ "$(body)" = "$crashed" ] ||
  fail "GET /v1/pets/$crash_id after Redis was killed: $(body), want $crashed"
wait_lb UP 90
ok "Redis killed (SIGKILL) right after a create answered 201, then started: pet $crash_id is there ($(($(date +%s) - t)) s)"

P_URL="http://127.0.0.1:$PROMETHEUS_PORT"
t=$(date +%s)
deadline=$((SECONDS + 60))
query() {
  curl -sS --max-time 5 --get --data-urlencode "query=$1" "$P_URL/api/v1/query" 2>/dev/null |
    node -e 'let t="";process.stdin.on("data",(d)=>(t+=d)).on("end",()=>{try{console.log(JSON.parse(t).data.result.map((r)=>r.metric.instance+"="+r.value[1]).sort().join(" "))}catch{console.log("")}})'
}
while :; do
  up=$(query 'up{job="petstore-mock"}')
  errors=$(query 'sum(petstore_mock_state_round_trip_errors_total{backend="redis"}) > 0')
  requests=$(query 'sum(petstore_mock_requests_total) > 0')
  lb=$(query 'count(haproxy_server_status{proxy="replicas",state="UP"} == 1) == 2')
  [ "$up" = "replica-a:4010=1 replica-b:4010=1" ] && [ -n "$errors" ] && [ -n "$requests" ] &&
    [ -n "$lb" ] && break
  [ $SECONDS -lt $deadline ] ||
    fail "Prometheus: up '$up', Redis errors '$errors', requests '$requests', HAProxy servers up '$lb'"
  sleep 1
done
ok "Prometheus (prometheus.yml): up{job=\"petstore-mock\"} is 1 for both replicas; it has their requests, their Redis errors, and HAProxy's 2 servers UP ($(($(date +%s) - t)) s)"

STATUS=passed
