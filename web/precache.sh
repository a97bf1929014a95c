#!/bin/sh
# Trunk post-build hook: writes the list of every built file and a content version into sw.js,
# so the service worker precaches exactly this build (all paths relative to the page).
set -eu
ROOT="$(pwd)"
cd "${TRUNK_STAGING_DIR:?run from trunk}"

# Release builds: minify the wasm-bindgen glue with terser (Trunk's own minifier cannot parse it)
# and update its subresource-integrity hash in index.html.
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

files=$(find . -type f ! -name sw.js ! -name '*.map' | sed 's|^\./||' | LC_ALL=C sort)
version=$(for f in $files; do sha256sum "$f"; done | sha256sum | cut -c1-16)
list='"./"'
for f in $files; do list="$list, \"$f\""; done
sed -i "s|__VERSION__|$version|; s|__ASSETS__|[$list]|" sw.js
echo "precache: $(echo "$files" | wc -l) files, version $version"
