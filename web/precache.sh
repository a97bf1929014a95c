#!/bin/sh
# Writes the service worker's file lists and a content version into DIST/sw.js, after the pages
# are built (scripts/build-web.sh): ASSETS, the lite page's files (precached at install), and
# LATER, the app icons and the full page's files in DIST/full/ (cached in the background once the
# game runs).
# All paths are relative to the worker, which sits next to the lite page.
set -eu
cd "${1:?usage: web/precache.sh DIST}"
[ -f sw.js ] && grep -q __VERSION__ sw.js || { echo "precache: $1/sw.js is missing or already written" >&2; exit 1; }

# The lite page's index.html is cached as "./" (the worker serves it for index.html too), and the
# app icons (PNG: only for installing the app to a home screen) wait for LATER: neither is needed
# to play, and each would compete with the first load for bandwidth.
# The computer players' worker (bot-worker.js, orbis-worker*: issue 62) waits for LATER too: it
# is fetched on a computer's first turn (and kept), and until it is cached a page offline thinks
# for the computers itself.
lite=$(find . -maxdepth 1 -type f ! -name sw.js ! -name '*.map' ! -name index.html ! -name bot-worker.js ! -name 'orbis-worker*' | sed 's|^\./||' | LC_ALL=C sort)
lite="$lite
$(find . -mindepth 2 -type f ! -name '*.map' ! -path './full/*' ! -path './online/*' ! -path './icons/*.png' | sed 's|^\./||' | LC_ALL=C sort)"
icons=$(find ./icons -type f -name '*.png' | sed 's|^\./||' | LC_ALL=C sort)
icons="$icons
$(find . -maxdepth 1 -type f \( -name bot-worker.js -o -name 'orbis-worker*' \) | sed 's|^\./||' | LC_ALL=C sort)"
full=$(find . -type f ! -name '*.map' -path './full/*' | sed 's|^\./||' | LC_ALL=C sort)
# The online page (online/) is cached when it is first opened (the worker keeps what it fetches):
# only players who go online download it, and they are online then. Its files still count in the
# version, so a new release replaces them.
online=$(find . -type f ! -name '*.map' -path './online/*' | sed 's|^\./||' | LC_ALL=C sort)
version=$(for f in index.html $lite $icons $full $online; do sha256sum "$f"; done | sha256sum | cut -c1-16)
assets='"./"'
for f in $lite; do assets="$assets, \"$f\""; done
later=''
for f in $icons; do later="$later${later:+, }\"$f\""; done
if [ -n "$full" ]; then
  later="$later${later:+, }\"full/\""
  for f in $full; do later="$later, \"$f\""; done
fi
sed -i "s|__VERSION__|$version|; s|__ASSETS__|[$assets]|; s|__LATER__|[$later]|" sw.js
# Without its comments and indentation (every first visit fetches it); its lines stay as written.
sed -i 's|^ *||; /^\/\//d' sw.js
echo "precache: $(echo "$lite" | wc -l) files at install, $(echo "$icons $full" | wc -w) later, version $version"
