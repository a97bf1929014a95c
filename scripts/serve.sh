#!/usr/bin/env bash
# Builds and serves Orbis on http://127.0.0.1:8080/ (placeholder page until the browser client lands).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v python3 >/dev/null || { apt-get update -qq && apt-get install -y -qq python3; }
cargo build --release --locked -p orbis-cli
mkdir -p dist
cat > dist/index.html <<HTML
<!doctype html><meta charset="utf-8"><title>Orbis</title>
<h1>Orbis</h1><p>The engine is built; the browser client is on its way.</p>
<pre>$(./target/release/orbis simulate --players 4 --bot normal --games 1 --seed 1 | head -1)</pre>
HTML
echo "Orbis is served at http://127.0.0.1:8080/ (Ctrl-C to stop)"
exec python3 -m http.server 8080 --bind 127.0.0.1 --directory dist
