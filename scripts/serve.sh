#!/usr/bin/env bash
# Builds the release bundle of the browser client into dist/ and serves it on
# http://127.0.0.1:8080/ (PORT=… to change). BUILD=0 skips the build (serve dist/ as it is).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PORT="${PORT:-8080}"
if [ "${BUILD:-1}" != 0 ]; then
  "$ROOT/scripts/install-web-tools.sh"
  export PATH="$ROOT/.tools/binaryen/node_modules/.bin:$HOME/.cargo/bin:$PATH"
  cargo fetch --locked >/dev/null
  trunk build --release --cargo-profile release-web
fi
echo "Orbis is served at http://127.0.0.1:$PORT/"
exec python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$ROOT/dist"
