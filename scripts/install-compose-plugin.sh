#!/usr/bin/env bash
# Installs the Docker Compose v2 CLI plugin into .tools/docker/cli-plugins when `docker compose`
# is missing, so the compose file can be checked with `docker compose config` (no Docker engine
# is needed for that). Built from its Go module, pinned; used by .ci/run and by hand.
set -euo pipefail
cd "$(dirname "$0")/.."

COMPOSE_VERSION=v2.40.3
target=.tools/docker/cli-plugins/docker-compose

if docker compose version >/dev/null 2>&1; then
  echo "docker compose is already available"; exit 0
fi
if [ -x "$target" ] && DOCKER_CONFIG=.tools/docker docker compose version >/dev/null 2>&1; then
  echo "using $target"; exit 0
fi
if ! command -v go >/dev/null 2>&1 || ! command -v docker >/dev/null 2>&1; then
  echo "go or the docker client is missing: the compose check will be skipped" >&2; exit 0
fi

mkdir -p "$(dirname "$target")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# `go install` refuses this module (its go.mod has exclude directives), so build it in place.
dir=$(cd "$work" && go mod download -json "github.com/docker/compose/v2@${COMPOSE_VERSION}" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
(cd "$dir" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/docker/compose/v2/internal.Version=${COMPOSE_VERSION}" -o "$OLDPWD/$target" ./cmd)
DOCKER_CONFIG=.tools/docker docker compose version
