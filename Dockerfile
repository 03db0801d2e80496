# petstore-mock as a service container: `docker build -t petstore-mock .`, then
# `docker run --rm -p 4010:4010 petstore-mock` serves http://127.0.0.1:4010/v1 (see docs/ci.md).
#
# Node 24 LTS, the runtime the project recommends (Express 5 is several times faster on it than on
# Node 20). The base image is an argument so that a machine without registry access can build on a
# local Node 24 image (scripts/test-container.sh does); anything with `node` and `npm` on PATH,
# /bin/sh and a `node` user (uid 1000, as in the official images) will do.
ARG BASE_IMAGE=node:24-slim

# ---- build: all dependencies, compile src/ to dist/ ----
FROM ${BASE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would build before the sources are copied (they come in a later
# layer, so that a source change does not reinstall), and the compiler needs no install script.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# The build also snapshots the shipped YAML as JSON (scripts/cache-yaml.js), so it needs them,
# bundles the CommonJS entry points (scripts/build-cjs.js) and the QA console
# (scripts/build-console.js, from console/), and gives the bin its run bits
# (scripts/mark-bin-executable.js).
COPY scripts/cache-yaml.js scripts/build-cjs.js scripts/build-console.js scripts/mark-bin-executable.js ./scripts/
COPY console ./console
COPY openapi.yaml admin-openapi.yaml ./
COPY scenarios ./scenarios
RUN npm run build

# ---- runtime: production dependencies, compiled output, contracts and data ----
FROM ${BASE_IMAGE} AS runtime
# No NODE_OPTIONS: the bin starts itself with its V8 flags (src/cli/launch-flags.ts: a 640 MiB heap,
# which holds what the budgets let clients add besides the runtime, and a capped young generation),
# replacing its own process, so PID 1 stays node. A heap size given in NODE_OPTIONS wins: raise it
# with larger budgets or --count above 500000 (docs/limits.md).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4010
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would run the build, and there is no compiler here.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY openapi.yaml admin-openapi.yaml ./
COPY fixtures ./fixtures
COPY scenarios ./scenarios
COPY --from=build /app/dist ./dist
# Everything above is root-owned and read-only for the server: it runs as the image's non-root
# `node` user. With --db, point MOCK_DB at a writable place (/home/node, or a mounted volume).
USER node
EXPOSE 4010
# The slim image has no curl: the probe is Node itself (dist/healthcheck.js GETs
# 127.0.0.1:$PORT/__admin/health, with MOCK_ADMIN_TOKEN as bearer when set; 2 s timeout).
HEALTHCHECK --interval=5s --timeout=3s --start-period=10s --retries=3 \
    CMD ["node", "dist/healthcheck.js"]
# PID 1 is node itself, no tini/--init: the CLI handles SIGTERM and SIGINT (src/cli/main.ts), which is
# all that PID 1 must do here, since the server starts no child processes (no zombies to reap). That
# needs Node 22.15+ in the base image: older ones relaunch the bin as a supervised child.
# `docker stop` therefore ends it at once with exit code 0 instead of waiting for SIGKILL.
STOPSIGNAL SIGTERM
# Arguments after the image name are the CLI's options: `docker run petstore-mock --seed 42`.
ENTRYPOINT ["node", "dist/cli.js"]
