#!/bin/sh
# Trunk post-build hook: writes the list of every built file and a content version into sw.js,
# so the service worker precaches exactly this build (all paths relative to the page).
set -eu
cd "${TRUNK_STAGING_DIR:?run from trunk}"
files=$(find . -type f ! -name sw.js ! -name '*.map' | sed 's|^\./||' | LC_ALL=C sort)
version=$(for f in $files; do sha256sum "$f"; done | sha256sum | cut -c1-16)
list='"./"'
for f in $files; do list="$list, \"$f\""; done
sed -i "s|__VERSION__|$version|; s|__ASSETS__|[$list]|" sw.js
echo "precache: $(echo "$files" | wc -l) files, version $version"
