#!/usr/bin/env bash
# Size and speed of the browser client's two pages (tests/e2e/bench.mjs, headless Chromium on
# localhost): gzipped bytes of the lite page's first load until the map is interactive, bytes the
# service worker then fetches in the background for offline use (the full page), bytes to open the
# full page, and times from navigation to an interactive map. BUILD=0 reuses dist/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
if [ "${BUILD:-1}" != 0 ]; then
  "$ROOT/scripts/build-web.sh" >/dev/null 2>&1
fi
ORBIS_DIST="$ROOT/dist" node tests/e2e/bench.mjs
