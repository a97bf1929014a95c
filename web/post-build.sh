#!/bin/sh
# Trunk post-build hook (runs for each page: index.html, full.html, online.html): in release builds,
# splits each page's wasm in two (tools/split-page.py), minifies the wasm-bindgen glue
# with terser (Trunk's own minifier cannot parse it), shortens the names the wasm imports from it
# (tools/minify-imports.py), and updates both files' subresource-integrity hashes in index.html. The service worker's file list is written once
# the pages are built (web/precache.sh, run by scripts/build-web.sh).
set -eu
ROOT="$(pwd)"
cd "${TRUNK_STAGING_DIR:?run from trunk}"

sri() { openssl dgst -sha384 -binary "$1" | base64 -w0; }
TERSER="$ROOT/node_modules/.bin/terser"
split=
case "$(basename "${TRUNK_HTML_FILE:-}")" in
  online.html) split=online ;;
  full.html) split=full ;;
  index.html) split=lite ;;
esac
if [ "${TRUNK_PROFILE:-}" = release ]; then
  # Not skipped when terser is missing: the online page would ship its wasm unoptimised.
  [ -x "$TERSER" ] || { echo "post-build: $TERSER is missing: run scripts/install-web-tools.sh" >&2; exit 1; }
  for js in orbis-web-*.js; do
    wasm="${js%.js}_bg.wasm"
    old_js=$(sri "$js")
    old_wasm=$(sri "$wasm")
    # Each page's wasm in two parts: what shows the first screens (the menu, the lobby, the
    # new-game forms), and the rest, fetched once the page is up
    # (tools/split-page.py; it also optimises both, in place of Trunk).
    if [ -n "$split" ]; then
      python3 "$ROOT/tools/split-page.py" "$split" "$js" "$wasm"
    fi
    "$TERSER" "$js" --module --compress --mangle -o "$js.min"
    mv "$js.min" "$js"
    # Short import names in the wasm and its glue (tools/minify-imports.py).
    python3 "$ROOT/tools/minify-imports.py" "$wasm" "$js"
    sed -i "s|sha384-$old_js|sha384-$(sri "$js")|g; s|sha384-$old_wasm|sha384-$(sri "$wasm")|g" index.html
    # A split page's glue and first part, named after their content too: Trunk named them
    # after cargo's output, which the split (a browser's profile, the splitter's version) can
    # turn into different files; a browser must never mix the files of two builds.
    if [ -n "$split" ]; then
      base="${js%.js}"
      d=$(cat "$js" "$wasm" | sha256sum | cut -c1-16)
      mv "$js" "$base-$d.js"
      mv "$wasm" "$base-${d}_bg.wasm"
      sed -i "s|$base\.js|$base-$d.js|g; s|${base}_bg\.wasm|$base-${d}_bg.wasm|g" index.html
    fi
  done
fi
