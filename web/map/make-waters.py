#!/usr/bin/env python3
"""Draws the economy map's water territories (crates/engine/maps/economy.ron) as sea regions
beside the classic map's artwork (classic-map.json), and writes them to economy-waters.json.

Each water territory is the coast of one country (source 004), so its region is the band of sea
within REACH map units of that country, split between a country's coasts by the nearest of
their anchor points (below) where a country has more than one. Sea is whatever no country
covers; lakes enclosed by one country are left out.

A developer's tool, run by hand when the artwork or the water list changes; the output is
committed. Needs numpy, scipy, pillow and scikit-image (`pip install` them in a venv).
Usage: python3 web/map/make-waters.py [preview.png]
"""

import json
import re
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw
from scipy import ndimage
from skimage import measure

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SCALE = 3  # raster pixels per map unit
REACH = 11.0  # map units of sea a coast reaches out from its country

# Where each coast of a country with several lies (map units), to split its sea between them.
ANCHORS = {
    "central_america_pacific": [(175, 265), (215, 292)],
    "central_america_caribbean": [(235, 250), (268, 268)],
    "venezuela_pacific": [(248, 300)],
    "venezuela_caribbean": [(290, 272)],
    "ukraine_arctic": [(600, 20), (630, 40)],
    "ukraine_baltic": [(530, 125)],
    "ukraine_black_sea": [(561, 185)],
    "egypt_mediterranean": [(525, 215)],
    "egypt_red_sea": [(566, 245)],
    "middle_east_mediterranean": [(545, 200), (556, 184)],
    "middle_east_indian": [(600, 268), (625, 250), (612, 228), (575, 245)],
}
# Coasts the artwork hardly gives their country (the nearest country to that sea is another):
# the sea within REACH of the country and within a radius of a centre (map units).
FORCED = {"mongolia_coast": ((836, 186), 13)}
# Enclosed seas that are water territories all the same (a point inside each): the Black Sea.
INLAND_SEAS = [(561, 185)]


def numbers(s):
    return [float(x) for x in re.findall(r"-?\d*\.?\d+", s)]


def rings(d):
    """Rings of an outline written `M x y l dx dy … z` (as crates/web/build.rs reads it)."""
    out = []
    for part in d.split("M"):
        n = numbers(part)
        if len(n) < 2:
            continue
        x, y = n[0], n[1]
        ring = [(x, y)]
        for i in range(2, len(n) - 1, 2):
            x += n[i]
            y += n[i + 1]
            ring.append((x, y))
        out.append(ring)
    return out


def waters():
    text = (ROOT / "crates/engine/maps/economy.ron").read_text()
    return re.findall(r'\(id: "(\w+)", name: "[^"]*", coast_of: "(\w+)"\)', text)


def main():
    art = json.loads((HERE / "classic-map.json").read_text())
    _, _, w, h = art["viewBox"]
    W, H = int(w * SCALE), int(h * SCALE)
    keys = list(art["territories"])
    img = Image.new("I", (W, H), 0)
    draw = ImageDraw.Draw(img)
    for i, k in enumerate(keys):
        for r in rings(art["territories"][k]["d"]):
            if len(r) >= 3:
                draw.polygon([(x * SCALE, y * SCALE) for x, y in r], fill=i + 1)
    land = np.array(img, dtype=np.int32)
    sea = land == 0
    # Lakes: sea pieces that do not reach the edge of the map.
    parts, _ = ndimage.label(sea)
    edge = set(np.unique(np.concatenate([parts[0], parts[-1], parts[:, 0], parts[:, -1]])))
    seas = [p for p in edge if p != 0] + [parts[int(y * SCALE), int(x * SCALE)] for x, y in INLAND_SEAS]
    ocean = np.isin(parts, seas)
    dist, (iy, ix) = ndimage.distance_transform_edt(~(land > 0), return_indices=True)
    nearest = land[iy, ix]  # the country each sea pixel is closest to
    near = ocean & (dist <= REACH * SCALE)

    coasts = {}
    for wid, country in waters():
        coasts.setdefault(country, []).append(wid)
    yy, xx = np.mgrid[0:H, 0:W]
    regions = {}
    for country, wids in coasts.items():
        idx = keys.index(country) + 1
        mine = near & (nearest == idx)
        if len(wids) == 1:
            regions[wids[0]] = mine
            continue
        best = np.full((H, W), np.inf)
        owner = np.full((H, W), -1)
        for j, wid in enumerate(wids):
            for ax, ay in ANCHORS[wid]:
                d = (xx - ax * SCALE) ** 2 + (yy - ay * SCALE) ** 2
                closer = d < best
                best[closer] = d[closer]
                owner[closer] = j
        for j, wid in enumerate(wids):
            regions[wid] = mine & (owner == j)

    for wid, ((cx, cy), radius) in FORCED.items():
        country = dict(waters())[wid]
        d = ndimage.distance_transform_edt(land != keys.index(country) + 1)
        disk = (xx - cx * SCALE) ** 2 + (yy - cy * SCALE) ** 2 <= (radius * SCALE) ** 2
        m = ocean & (d <= REACH * SCALE) & disk
        for other in regions:
            regions[other] = regions[other] & ~m
        regions[wid] = m

    out = {}
    preview = np.zeros((H, W, 3), dtype=np.uint8)
    preview[land > 0] = (200, 200, 200)
    for n, (wid, _) in enumerate(waters()):
        m = regions[wid]
        # Keep the biggest piece and those near it (a coast may wrap round a cape).
        lab, count = ndimage.label(m)
        if count == 0:
            print(f"{wid}: no sea found", file=sys.stderr)
            continue
        sizes = ndimage.sum(m, lab, range(1, count + 1))
        keep = [i + 1 for i, s in enumerate(sizes) if s >= max(sizes) * 0.08]
        m = np.isin(lab, keep)
        m = ndimage.binary_opening(m, iterations=1)
        paths = []
        for c in measure.find_contours(np.pad(m, 1).astype(float), 0.5):
            c = measure.approximate_polygon(c, tolerance=0.9)
            if len(c) < 4:
                continue
            pts = [(round((x - 1) / SCALE, 1), round((y - 1) / SCALE, 1)) for y, x in c]
            # Written as the artwork's outlines are: a start, then steps (crates/web/build.rs).
            steps = [f"{b[0] - a[0]:.1f} {b[1] - a[1]:.1f}" for a, b in zip(pts, pts[1:])]
            paths.append(f"M{pts[0][0]:.1f} {pts[0][1]:.1f}l" + " ".join(steps) + "z")
        inner = ndimage.distance_transform_edt(np.pad(m, 1))[1:-1, 1:-1]
        ly, lx = np.unravel_index(np.argmax(inner), inner.shape)
        out[wid] = {"d": "".join(paths), "x": round(lx / SCALE, 1), "y": round(ly / SCALE, 1)}
        colour = ((n * 97) % 200 + 40, (n * 53) % 200 + 40, (n * 31) % 150 + 100)
        preview[m] = colour
        if len(sys.argv) > 1:
            for ax, ay in ANCHORS.get(wid, []):
                preview[int(ay * SCALE) - 3 : int(ay * SCALE) + 3, int(ax * SCALE) - 3 : int(ax * SCALE) + 3] = (255, 0, 0)
    (HERE / "economy-waters.json").write_text(json.dumps(out, indent=0) + "\n")
    if len(sys.argv) > 1:
        Image.fromarray(preview).save(sys.argv[1])
    print(f"{len(out)} water territories written", file=sys.stderr)


if __name__ == "__main__":
    main()
