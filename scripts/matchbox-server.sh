#!/usr/bin/env bash
# Prints the path of a `matchbox_server` 0.15 binary (the WebRTC signalling server for online
# play), installing it into .tools/matchbox if it is on neither PATH nor the usual places.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
for c in "${MATCHBOX_SERVER:-}" "$(command -v matchbox_server 2>/dev/null || true)" \
         "$ROOT/.tools/matchbox/bin/matchbox_server"; do
  if [ -n "$c" ] && [ -x "$c" ]; then echo "$c"; exit 0; fi
done
echo "matchbox-server: cargo install matchbox_server 0.15.0 (about a minute)" >&2
cargo install matchbox_server --locked --version 0.15.0 --root "$ROOT/.tools/matchbox" >&2
echo "$ROOT/.tools/matchbox/bin/matchbox_server"
