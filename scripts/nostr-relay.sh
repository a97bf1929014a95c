#!/usr/bin/env bash
# Prints the path of a `nostr-relay` executable (the PyPI package nostr-relay 1.14, a NIP-01 relay
# that passes on ephemeral events), installing it into .tools/nostr-relay (a Python venv, with the
# versions pinned in tools/nostr-relay-requirements.txt) if it is not there yet. The tests start it
# on 127.0.0.1 as the relay through which peers meet; NOSTR_RELAY=… overrides the path.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ -n "${NOSTR_RELAY:-}" ] && [ -x "$NOSTR_RELAY" ]; then echo "$NOSTR_RELAY"; exit 0; fi
VENV="$ROOT/.tools/nostr-relay"
REQ="$ROOT/tools/nostr-relay-requirements.txt"
STAMP="$VENV/.requirements"
if [ -x "$VENV/bin/nostr-relay" ] && cmp -s "$REQ" "$STAMP"; then echo "$VENV/bin/nostr-relay"; exit 0; fi
echo "nostr-relay: pip install nostr-relay into .tools/nostr-relay (about 30 s)" >&2
if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' 2>/dev/null; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq >&2
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >&2
fi
rm -rf "$VENV"
python3 -m venv "$VENV" >&2
"$VENV/bin/pip" install -q --disable-pip-version-check -r "$REQ" >&2
cp "$REQ" "$STAMP"
echo "$VENV/bin/nostr-relay"
