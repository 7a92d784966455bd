#!/usr/bin/env bash
# Compiles a Rego policy to the WebAssembly module the worker loads (an approval policy of kind
# `rego`, see docs/policies.md). Needs the `opa` binary (https://www.openpolicyagent.org/docs/#running-opa,
# or: GOFLAGS=-mod=mod go install github.com/open-policy-agent/opa@v1.22.4).
#
#   scripts/build-rego-policy.sh [policy.rego] [out.wasm] [entrypoint]
#
# With no arguments it rebuilds the test fixture test/fixtures/policies/refunds.wasm.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
source="${1:-$here/test/fixtures/policies/refunds.rego}"
out="${2:-$here/test/fixtures/policies/refunds.wasm}"
entrypoint="${3:-durable_agent/approval/decision}"
opa="${OPA:-$(command -v opa || true)}"
if [ -z "$opa" ]; then
  echo "No opa binary: install it (go install github.com/open-policy-agent/opa@v1.22.4) or set OPA=/path/to/opa." >&2
  exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$opa" build -t wasm -e "$entrypoint" -o "$work/bundle.tar.gz" "$source"
tar -xzf "$work/bundle.tar.gz" -C "$work" /policy.wasm 2>/dev/null || tar -xzf "$work/bundle.tar.gz" -C "$work" policy.wasm
cp "$work/policy.wasm" "$out"
chmod 644 "$out"
echo "built $out (entrypoint $entrypoint) with $("$opa" version | head -1)"
