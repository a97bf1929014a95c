#!/bin/sh
# Trunk post-build hook (runs for each page: index.html, full.html, online.html): in release builds,
# minifies the wasm-bindgen glue with terser (Trunk's own minifier cannot parse it) and updates
# its subresource-integrity hash in index.html. The service worker's file list is written once
# the pages are built (web/precache.sh, run by scripts/build-web.sh).
set -eu
ROOT="$(pwd)"
cd "${TRUNK_STAGING_DIR:?run from trunk}"

TERSER="$ROOT/node_modules/.bin/terser"
if [ "${TRUNK_PROFILE:-}" = release ] && [ -x "$TERSER" ]; then
  for js in orbis-web-*.js; do
    old=$(openssl dgst -sha384 -binary "$js" | base64 -w0)
    "$TERSER" "$js" --module --compress --mangle -o "$js.min"
    mv "$js.min" "$js"
    new=$(openssl dgst -sha384 -binary "$js" | base64 -w0)
    sed -i "s|sha384-$old|sha384-$new|g" index.html
  done
fi
