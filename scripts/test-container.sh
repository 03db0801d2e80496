#!/usr/bin/env bash
# `npm run test:container`: build the Dockerfile and check the image as a CI pipeline would use it,
# on a machine with no Docker engine and no container registry: root, apt and the npm registry only.
#
#   1. installs podman, buildah and runc from apt when missing;
#   2. makes a local Node 24 base image (`buildah from scratch` + the Node 24 binary of
#      scripts/node24.sh, npm 11 as Node 24 images carry it, /bin/sh, env, the libraries `ldd`
#      lists, CA certificates, a `node` user) and builds the Dockerfile on it with
#      `buildah bud --isolation chroot --pull-never`, as the Dockerfile's node:24-slim would;
#   3. runs the image with `podman run --network host` (listening on 127.0.0.1 only), waits for its
#      own HEALTHCHECK, sends real requests with curl, and times `podman stop`;
#   4. runs deploy/replicas/compose.yml with podman-compose: two replicas of the image on one
#      Redis behind HAProxy, with Prometheus (scripts/test-replicas.sh says what stands in for the
#      official images this machine cannot pull, and what it checks).
# Everything podman and buildah store lives in a temporary directory removed on exit, also on failure.
#
# Environment: BASE_NPM_VERSION (npm put in the local base image; default 11.13.0, the npm 11 that
# writes this project's lockfile), STORAGE_DRIVER (default vfs, which works anywhere; overlay is faster where
# the kernel allows it), KEEP_WORK=1 (keep the temporary directory for a post-mortem).
set -euo pipefail

cd "$(dirname "$0")/.."
T0=$(date +%s%N)
PASSED=0

log() { printf '[test-container] %s\n' "$*"; }
ok() {
  PASSED=$((PASSED + 1))
  printf '[test-container] ok   %s\n' "$*"
}
fail() {
  printf '[test-container] FAIL %s\n' "$*" >&2
  exit 1
}
# Seconds between two `date +%s%N` readings, with 2 decimals.
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }

[ "$(id -u)" = 0 ] || fail "run as root (podman and buildah need it here)"

# ---- 1. tools ------------------------------------------------------------------------------------
missing=()
for tool in podman buildah runc curl; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]} (apt)"
  export DEBIAN_FRONTEND=noninteractive
  timeout 300 apt-get update -qq
  timeout 600 apt-get install -y -qq podman buildah runc uidmap curl >/dev/null
fi
command -v node >/dev/null || fail "no node on PATH (npm and the checks below run on it)"
# The image's Node: 24 LTS, as the Dockerfile's default base (node:24-slim).
NODE24=$(bash scripts/node24.sh) || fail "no Node 24 binary (scripts/node24.sh)"

# ---- 2. private container storage and configuration -----------------------------------------------
WORK=$(mktemp -d /tmp/petstore-mock-container.XXXXXX)
TAG="test-$$"
BASE_IMAGE="localhost/petstore-mock-base:$TAG"
IMAGE="localhost/petstore-mock:$TAG"
NAME="petstore-mock-test-$$"
STATUS=failed

cleanup() {
  local rc=$?
  set +e
  if [ "$STATUS" != passed ] && timeout 30 podman container exists "$NAME" 2>/dev/null; then
    log "container log (last 40 lines):"
    timeout 30 podman logs --tail 40 "$NAME" 2>&1 | sed 's/^/    /'
  fi
  timeout 60 podman rm -f -t 0 "$NAME" >/dev/null 2>&1
  timeout 60 buildah rm -a >/dev/null 2>&1
  timeout 60 podman rmi -f "$IMAGE" "$BASE_IMAGE" >/dev/null 2>&1
  timeout 60 podman rmi -a -f >/dev/null 2>&1 # intermediate build-stage images
  # Anything podman left mounted under the work directory (shm of a container killed mid-way).
  findmnt -rn -o TARGET | grep -F "$WORK/" | sort -r | xargs -r -n1 umount -l 2>/dev/null
  if [ "${KEEP_WORK:-0}" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
  log "total time $(secs "$T0" "$(date +%s%N)") s"
  if [ "$STATUS" = passed ]; then
    echo "test-container: $PASSED passed, 0 failed"
  else
    echo "test-container: $PASSED passed, 1 failed"
    [ "$rc" = 0 ] && rc=1
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$WORK"/{graph,run,tmp,rootfs,empty,npm}
cat >"$WORK/storage.conf" <<EOF
[storage]
driver = "${STORAGE_DRIVER:-vfs}"
graphroot = "$WORK/graph"
runroot = "$WORK/run"
EOF
# podman's defaults fail on this kind of machine: crun cannot set RLIMIT_NOFILE, the cgroups are a
# v1/v2 hybrid without systemd. runc + cgroupfs + a file event log, and ulimits no higher than the
# hard limits, work. (podman 4.3 reads `default_ulimits`; `ulimits` is ignored with a debug line.)
cat >"$WORK/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = "$WORK/events.log"
tmp_dir = "$WORK/tmp"

[network]
network_config_dir = "$WORK/networks"
EOF
export CONTAINERS_CONF="$WORK/containers.conf" CONTAINERS_STORAGE_CONF="$WORK/storage.conf"
# Lower still where this machine's hard limits are lower (runc may not raise them).
hard=$(ulimit -Hn)
if [ "$hard" != unlimited ] && [ "$hard" -lt 20000 ]; then
  sed -i "s/nofile=20000:20000/nofile=$hard:$hard/" "$WORK/containers.conf"
fi
hard=$(ulimit -Hu)
if [ "$hard" != unlimited ] && [ "$hard" -lt 4096 ]; then
  sed -i "s/nproc=4096:4096/nproc=$hard:$hard/" "$WORK/containers.conf"
fi

# Without systemd, podman cannot add the HEALTHCHECK's timer and says so on stderr (harmless here:
# the checks below run it by hand); such lines are dropped, anything else is shown.
quiet_podman() {
  local rc=0
  timeout 120 podman "$@" 2>"$WORK/podman.err" || rc=$?
  grep -v 'unable to get systemd connection' "$WORK/podman.err" >&2 || true
  return $rc
}

# ---- 3. local base image -------------------------------------------------------------------------
t=$(date +%s%N)
R="$WORK/rootfs"
mkdir -p "$R"/{bin,usr/bin,usr/local/bin,usr/local/lib/node_modules/npm,etc/ssl/certs,tmp,root}
chmod 1777 "$R/tmp"
NODE_BIN=$(readlink -f "$NODE24")
cp "$NODE_BIN" "$R/usr/local/bin/node"
# npm 11, as node:24-slim carries it, not the host's: the image must build with that one.
npm_version=${BASE_NPM_VERSION:-11.13.0}
(cd "$WORK/npm" && timeout 120 npm pack "npm@$npm_version" --silent >/dev/null 2>&1) ||
  fail "npm pack npm@$npm_version (is the npm registry reachable?)"
tar -xzf "$WORK/npm/npm-$npm_version.tgz" -C "$R/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$R/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$R/usr/local/bin/npx"
# RUN lines and npm scripts need /bin/sh; npm's bin links start with `#!/usr/bin/env node`.
cp "$(readlink -f /bin/sh)" "$R/bin/sh"
cp "$(readlink -f /usr/bin/env)" "$R/usr/bin/env"
libs=$(for b in "$NODE_BIN" "$R/bin/sh" "$R/usr/bin/env"; do ldd "$b"; done |
  awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | sort -u)
for lib in $libs; do
  mkdir -p "$R$(dirname "$lib")"
  cp -L "$lib" "$R$lib"
done
# The machine's CA bundle: the npm registry may be reached through a TLS-inspecting proxy.
ca=${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}
[ -f "$ca" ] && cp -L "$ca" "$R/etc/ssl/certs/ca-certificates.crt"
printf 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/home/node:/bin/sh\n' >"$R/etc/passwd"
printf 'root:x:0:\nnode:x:1000:\n' >"$R/etc/group"
chroot "$R" /usr/local/bin/node -e 0 || fail "the base root cannot run node (a library missing?)"

ctr=$(buildah from scratch)
buildah copy --quiet "$ctr" "$R/" / >/dev/null
buildah copy --quiet --chown 1000:1000 "$ctr" "$WORK/empty" /home/node >/dev/null
buildah config \
  --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --env NODE_VERSION="$("$NODE24" -p process.versions.node)" \
  --env NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
  --env NPM_CONFIG_UPDATE_NOTIFIER=false \
  --cmd node "$ctr"
buildah commit --quiet "$ctr" "$BASE_IMAGE" >/dev/null
buildah rm "$ctr" >/dev/null
ok "base image $BASE_IMAGE (node $("$NODE24" --version), npm $npm_version) in $(secs "$t" "$(date +%s%N)") s"

# ---- 4. build ------------------------------------------------------------------------------------
# chroot isolation shares the host's network, so the Dockerfile's `npm ci` reaches the registry.
# --format docker: the OCI format has no HEALTHCHECK and would drop it.
t=$(date +%s%N)
if ! timeout 900 buildah bud --isolation chroot --pull-never --format docker \
  --build-arg BASE_IMAGE="$BASE_IMAGE" -t "$IMAGE" -f Dockerfile . >"$WORK/build.log" 2>&1; then
  tail -40 "$WORK/build.log" | sed 's/^/    /' >&2
  fail "buildah bud (log above)"
fi
size=$(podman image inspect --format '{{.Size}}' "$IMAGE")
base_size=$(podman image inspect --format '{{.Size}}' "$BASE_IMAGE")
ok "built $IMAGE in $(secs "$t" "$(date +%s%N)") s"
log "image size $((size / 1000000)) MB ($((base_size / 1000000)) MB of it the local base, $(((size - base_size) / 1000000)) MB added by the Dockerfile)"

inspect() { podman image inspect --format "$1" "$IMAGE"; }
[ "$(inspect '{{.Config.User}}')" = node ] || fail "image user is '$(inspect '{{.Config.User}}')', want node"
inspect '{{json .Config.Env}}' | grep -q '"HOST=0.0.0.0"' || fail "image has no HOST=0.0.0.0"
inspect '{{json .Config.Env}}' | grep -q '"PORT=4010"' || fail "image has no PORT=4010"
# The bin applies its own V8 flags (checked on PID 1 below): no NODE_OPTIONS to keep in step.
if inspect '{{json .Config.Env}}' | grep -q '"NODE_OPTIONS='; then
  fail "image sets NODE_OPTIONS: the bin applies its launch flags itself"
fi
inspect '{{json .Config.ExposedPorts}}' | grep -q '4010/tcp' || fail "image does not EXPOSE 4010"
inspect '{{json .Config.Healthcheck}}' | grep -q 'dist/healthcheck.js' ||
  fail "image has no HEALTHCHECK running dist/healthcheck.js: $(inspect '{{json .Config.Healthcheck}}')"
[ "$(inspect '{{json .Config.Entrypoint}}')" = '["node","dist/cli.js"]' ] ||
  fail "entrypoint is $(inspect '{{json .Config.Entrypoint}}'), want [\"node\",\"dist/cli.js\"]"
ok "image config: user node, HOST=0.0.0.0, PORT=4010, no NODE_OPTIONS, EXPOSE 4010, HEALTHCHECK node dist/healthcheck.js"

# Arguments after the image are the CLI's: --version reads /app/package.json.
want_version=$(node -p 'require("./package.json").version')
got_version=$(quiet_podman run --rm --network host "$IMAGE" --version)
[ "$got_version" = "$want_version" ] || fail "--version printed '$got_version', want $want_version"
ok "podman run IMAGE --version -> $got_version"

# ---- 5. run --------------------------------------------------------------------------------------
PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
TOKEN="admin-$$-$RANDOM"
M="http://127.0.0.1:$PORT"
# Host network, but HOST=127.0.0.1: the mock listens on loopback only. The admin token makes the
# health endpoint need it, which proves the healthcheck sends MOCK_ADMIN_TOKEN.
t_run=$(date +%s%N)
quiet_podman run -d --name "$NAME" --network host \
  -e HOST=127.0.0.1 -e PORT="$PORT" -e MOCK_ADMIN_TOKEN="$TOKEN" "$IMAGE" >/dev/null
t_started=$(date +%s%N)
# The image's own HEALTHCHECK, run by `podman healthcheck run`; should that not work at all here
# (anything but "unhealthy"), the same command through `podman exec`.
healthy=no mode=""
deadline=$((SECONDS + 30))
while [ $SECONDS -lt $deadline ]; do
  if [ "$mode" != exec ]; then
    if out=$(timeout 10 podman healthcheck run "$NAME" 2>&1); then
      healthy=yes mode=healthcheck
      break
    fi
    if [ -z "$mode" ]; then
      case "$out" in
        *unhealthy*) mode=healthcheck ;;
        *)
          log "podman healthcheck run does not work ($out): podman exec instead"
          mode="exec"
          ;;
      esac
    fi
  fi
  if [ "$mode" = exec ] && timeout 10 podman exec "$NAME" node dist/healthcheck.js >/dev/null 2>&1; then
    healthy=yes
    break
  fi
  [ "$(podman inspect --format '{{.State.Running}}' "$NAME")" = true ] || fail "the container exited"
  sleep 0.2
done
t_healthy=$(date +%s%N)
[ "$healthy" = yes ] || fail "not healthy within 30 s"
if [ "$mode" = healthcheck ]; then
  state=$(podman inspect --format '{{.State.Health.Status}}' "$NAME")
  [ "$state" = healthy ] || fail "health status '$state' after a passing check, want healthy"
fi
ok "healthy ($mode: node dist/healthcheck.js) $(secs "$t_run" "$t_healthy") s after podman run" \
  "(podman run returned after $(secs "$t_run" "$t_started") s)"

pid1=$(timeout 30 podman exec "$NAME" node -p 'require("fs").readFileSync("/proc/1/cmdline","utf8").split("\0").join(" ").trim()')
case "$pid1" in
  *--max-old-space-size=640*) ;;
  *) fail "PID 1 is '$pid1': the bin did not restart itself in place with its heap cap" ;;
esac
uid=$(timeout 30 podman exec "$NAME" node -p 'process.getuid()')
[ "$uid" = 1000 ] || fail "the server runs as uid $uid, want 1000 (node)"
ok "PID 1 is '$pid1', running as uid $uid"

if timeout 30 podman exec -e MOCK_ADMIN_TOKEN=wrong "$NAME" node dist/healthcheck.js >/dev/null 2>&1; then
  fail "the healthcheck passed with a wrong admin token"
fi
ok "the healthcheck fails (exit 1) with a wrong admin token"

# ---- 6. requests from the host -------------------------------------------------------------------
A='Authorization: Bearer ci-token'
J='Content-Type: application/json'
req() { curl -sS --max-time 5 -o "$WORK/body" -w '%{http_code}' "$@"; }
body() { cat "$WORK/body"; }

code=$(req -H "$A" "$M/v1/pets")
n=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).length' "$WORK/body" 2>/dev/null || echo '?')
{ [ "$code" = 200 ] && [ "$n" = 20 ]; } || fail "GET /v1/pets: $code with $n pets, want 200 with 20: $(body)"
ok "GET /v1/pets -> 200, 20 pets"

code=$(req -H "$A" -H "$J" -d '{"name":"Container Rex","categoryId":2,"status":"available"}' "$M/v1/pets")
[ "$code" = 201 ] || fail "POST /v1/pets: $code, want 201: $(body)"
id=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).id' "$WORK/body" 2>/dev/null || echo '?')
[[ "$id" =~ ^[0-9]+$ ]] || fail "POST /v1/pets answered no id: $(body)"
code=$(req -H "$A" "$M/v1/pets/$id")
[ "$code" = 200 ] || fail "GET /v1/pets/$id after the create: $code, want 200"
ok "POST /v1/pets -> 201, id $id, then GET /v1/pets/$id -> 200"

code=$(req -H "$A" -H 'Prefer: code=401' "$M/v1/pets")
{ [ "$code" = 401 ] && body | grep -q '"unauthorized"'; } || fail "Prefer: code=401: $code, want 401: $(body)"
ok "GET /v1/pets with Prefer: code=401 -> 401"

code=$(req "$M/__admin/health")
[ "$code" = 401 ] || fail "GET /__admin/health without the admin token: $code, want 401"
code=$(req -X POST -H "Authorization: Bearer $TOKEN" "$M/__admin/reset")
[ "$code" = 204 ] || fail "POST /__admin/reset: $code, want 204: $(body)"
code=$(req -H "$A" "$M/v1/pets/$id")
[ "$code" = 404 ] || fail "GET /v1/pets/$id after the reset: $code, want 404"
ok "POST /__admin/reset -> 204 (admin token required), created pet $id gone (404)"

# The QA console ships in the image: its page and script, with their own types and CSP.
code=$(curl -sS --max-time 5 -D "$WORK/headers" -o "$WORK/body" -w '%{http_code}' "$M/__admin/ui")
[ "$code" = 200 ] || fail "GET /__admin/ui: $code, want 200"
grep -qi '^content-type: text/html' "$WORK/headers" || fail "GET /__admin/ui is not text/html"
grep -qi "^content-security-policy: .*script-src 'self'" "$WORK/headers" ||
  fail "GET /__admin/ui has no CSP with script-src 'self'"
script=$(grep -o 'src="[^"]*\.js"' "$WORK/body" | head -1 | sed 's/^src="//; s/"$//')
[ -n "$script" ] || fail "the console page names no script"
case "$script" in /*) script_url="$M$script" ;; *) script_url="$M/__admin/$script" ;; esac
code=$(curl -sS --max-time 5 -D "$WORK/headers" -o /dev/null -w '%{http_code}' "$script_url")
[ "$code" = 200 ] || fail "GET $script_url: $code, want 200"
grep -qi '^content-type: text/javascript\|^content-type: application/javascript' "$WORK/headers" ||
  fail "the console's script is not served as JavaScript"
ok "GET /__admin/ui -> 200 text/html with a CSP, and its script $script"

# ---- 7. stop -------------------------------------------------------------------------------------
t=$(date +%s%N)
quiet_podman stop -t 10 "$NAME" >/dev/null
stop_s=$(secs "$t" "$(date +%s%N)")
awk -v s="$stop_s" 'BEGIN { exit !(s <= 5) }' || fail "podman stop took $stop_s s (> 5 s: SIGTERM ignored?)"
exit_code=$(podman inspect --format '{{.State.ExitCode}}' "$NAME")
[ "$exit_code" = 0 ] || fail "exit code after podman stop: $exit_code, want 0"
ok "podman stop in $stop_s s, exit code $exit_code"

# ---- 8. replicas ---------------------------------------------------------------------------------
t=$(date +%s%N)
bash scripts/test-replicas.sh "$IMAGE" || fail "deploy/replicas/compose.yml (scripts/test-replicas.sh, above)"
ok "deploy/replicas/compose.yml: Redis, two replicas, HAProxy and Prometheus in $(secs "$t" "$(date +%s%N)") s"

STATUS=passed
