#!/usr/bin/env bash
# npm run test:contract: an independent oracle. Specmatic (a tool nobody here wrote) runs its contract
# tests, generative negative tests included, against the built mock (dist/), started here on a free
# loopback port. Every positive test must pass; a negative test may fail only if it is listed, with its
# reason, in contract-tests/expected-failures.yaml (see contract-tests/check-report.js).
#
# Needs: dist/ (npm run build), Java 17+, and the npm registry the first time (Specmatic is installed on
# demand into ${XDG_CACHE_HOME:-~/.cache}/petstore-mock-specmatic/<version>, outside the project).
# Reports: .tmp/contract-test/ (Specmatic's console log, JUnit XML and HTML report).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

SPECMATIC_VERSION=2.55.1 # needs Java 17+
CACHE_DIR="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/petstore-mock-specmatic/$SPECMATIC_VERSION"
JAR="$CACHE_DIR/node_modules/specmatic/specmatic.jar"
OUT="$ROOT/.tmp/contract-test"
TOKEN=contract-test-key # the only key the mock accepts here, so the 401 examples are real 401s
START=$SECONDS

say() { printf 'contract-test: %s\n' "$*"; }
die() {
  printf 'contract-test: %s\n' "$*" >&2
  exit 1
}

[ -f dist/cli.js ] || die "dist/cli.js is missing: run npm run build first"

# --- Java 17+ ---
java_major() { java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1; }
if ! command -v java >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "java not found: installing openjdk-17-jre-headless"
    timeout 600 apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq openjdk-17-jre-headless >/dev/null
  fi
  command -v java >/dev/null 2>&1 || die "java not found: Specmatic $SPECMATIC_VERSION needs Java 17 or later"
fi
major=$(java_major)
if [ -z "$major" ] || [ "$major" -lt 17 ]; then
  die "Java ${major:-?} found: Specmatic $SPECMATIC_VERSION needs 17 or later"
fi

# --- Specmatic, on demand ---
if [ ! -f "$JAR" ]; then
  say "installing specmatic@$SPECMATIC_VERSION into $CACHE_DIR"
  mkdir -p "$CACHE_DIR"
  timeout 600 npm install --prefix "$CACHE_DIR" --no-save --ignore-scripts --no-audit --no-fund \
    --loglevel=error "specmatic@$SPECMATIC_VERSION" >/dev/null
  [ -f "$JAR" ] || die "specmatic@$SPECMATIC_VERSION installed, but $JAR is not there"
fi

# --- a free loopback port ---
free_port() {
  node -e "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close();});"
}

# --- the mock: built dist/, fixtures, in memory, default options (no MOCK_* from the caller) ---
MOCK_PID=
stop_mock() {
  if [ -n "$MOCK_PID" ] && kill -0 "$MOCK_PID" 2>/dev/null; then
    kill -TERM "$MOCK_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do
      kill -0 "$MOCK_PID" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$MOCK_PID" 2>/dev/null || true
    wait "$MOCK_PID" 2>/dev/null || true
  fi
  MOCK_PID=
}
trap stop_mock EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

healthy() {
  node -e "fetch('http://127.0.0.1:$1/__admin/health',{signal:AbortSignal.timeout(1000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
}

rm -rf "$OUT"
mkdir -p "$OUT"
PORT=
for attempt in 1 2 3; do
  port=$(free_port)
  (
    for v in $(compgen -e | grep '^MOCK_' || true); do unset "$v"; done
    exec node dist/cli.js --host 127.0.0.1 --port "$port" --log-level silent --api-keys "$TOKEN"
  ) >"$OUT/mock.log" 2>&1 &
  MOCK_PID=$!
  for _ in $(seq 1 100); do # up to ~30 s
    if healthy "$port"; then
      PORT=$port
      break
    fi
    kill -0 "$MOCK_PID" 2>/dev/null || break
    sleep 0.2
  done
  [ -n "$PORT" ] && break
  say "the mock did not become healthy on port $port (attempt $attempt):"
  sed 's/^/  /' "$OUT/mock.log" >&2 || true
  stop_mock
done
[ -n "$PORT" ] || die "could not start the mock"
say "mock up on http://127.0.0.1:$PORT (pid $MOCK_PID); running Specmatic $SPECMATIC_VERSION"

# --- Specmatic: the jar itself (the npm wrapper exits 0 even when tests fail) ---
# Run from $OUT so its build/reports/ lands there. The bearer token goes in an environment variable
# named after the security scheme (bearerAuth); contract-tests/specmatic.yaml switches on the
# generative (resiliency) tests; contract-tests/examples/ gives getPet an id that exists (fixtures).
set +e
(
  cd "$OUT" &&
    SPECMATIC_DISABLE_TELEMETRY=true bearerAuth="$TOKEN" timeout --kill-after=10 600 \
      java -jar "$JAR" test "$ROOT/openapi.yaml" \
      --config "$ROOT/contract-tests/specmatic.yaml" \
      --examples "$ROOT/contract-tests/examples" \
      --testBaseURL "http://127.0.0.1:$PORT/v1" \
      --timeout-in-ms 5000 \
      --junitReportDir "$OUT/junit"
) >"$OUT/specmatic.log" 2>&1
specmatic_status=$?
set -e
stop_mock

say "Specmatic exited $specmatic_status (its own verdict counts the listed failures too); $(grep -E '^Tests run:' "$OUT/specmatic.log" | tail -n 1 || echo 'no summary line')"
REPORT="$OUT/junit/TEST-junit-jupiter.xml"
if [ ! -f "$REPORT" ]; then
  tail -n 40 "$OUT/specmatic.log" >&2
  die "no JUnit report from Specmatic (exit $specmatic_status); full log: $OUT/specmatic.log"
fi

set +e
node contract-tests/check-report.js "$REPORT" contract-tests/expected-failures.yaml
verdict=$?
set -e
say "took $((SECONDS - START)) s; log and reports in ${OUT#"$ROOT"/}/"
if [ "$verdict" -ne 0 ]; then
  say "FAILED (details of each request and response: ${OUT#"$ROOT"/}/specmatic.log)"
  exit 1
fi
say "passed"
