// What europe.mjs and world.mjs share: planar geometry (areas, point in polygon), the Voronoi
// partition between anchor points, the compact SVG path data of the region files, the engine's
// province list, writing the output with its size, a preview SVG, and failing on problems.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import polygonClipping from 'polygon-clipping';
import polylabel from 'polylabel';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// ---------------------------------------------------------------- geometry
/** Signed area of a ring (either orientation, closed or not). */
export const area = (r) => { let a = 0; for (let i = 0, j = r.length - 1; i < r.length; j = i++) a += (r[j][0] + r[i][0]) * (r[j][1] - r[i][1]); return a / 2; };
/** Area of a polygon (outer ring, then holes). */
export const polyArea = (poly) => Math.abs(area(poly[0])) - poly.slice(1).reduce((s, h) => s + Math.abs(area(h)), 0);
/** Area of a multipolygon. */
export const multiArea = (mp) => mp.reduce((s, p) => s + polyArea(p), 0);
export function inRing([x, y], ring) {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i], [xj, yj] = ring[j];
    if ((yi > y) !== (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) c = !c;
  }
  return c;
}
export const inPoly = (pt, poly) => inRing(pt, poly[0]) && !poly.slice(1).some((h) => inRing(pt, h));
export const inMulti = (pt, mp) => mp.some((p) => inPoly(pt, p));
/** A rectangle as a multipolygon. */
export const rect = (x0, y0, x1, y1) => [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]];

/** Convex clip of a polygon (ring) by the half-plane nearer to p than to q. */
function clipHalf(ring, p, q) {
  const nx = q[0] - p[0], ny = q[1] - p[1];
  const c = (q[0] * q[0] + q[1] * q[1] - p[0] * p[0] - p[1] * p[1]) / 2;
  const f = (v) => v[0] * nx + v[1] * ny - c; // <= 0: nearer p
  const out = [];
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i], b = ring[(i + 1) % ring.length];
    const fa = f(a), fb = f(b);
    if (fa <= 0) out.push(a);
    if ((fa <= 0) !== (fb <= 0)) {
      const t = fa / (fa - fb);
      out.push([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]);
    }
  }
  return out;
}

/**
 * Voronoi diagram of anchors ([[key, [x, y]]], several per key) inside `box` (a ring of 4
 * corners, unclosed): key → the union of its anchors' cells, a multipolygon.
 */
export function voronoi(anchors, box) {
  const cells = {};
  anchors.forEach(([k, p], i) => {
    let ring = box;
    anchors.forEach(([, q], j) => { if (i !== j && ring.length) ring = clipHalf(ring, p, q); });
    if (ring.length >= 3) { const rr = ring.map(([x, y]) => [Math.round(x * 100) / 100, Math.round(y * 100) / 100]); (cells[k] ||= []).push([[...rr, rr[0]]]); }
  });
  for (const k in cells) cells[k] = polygonClipping.union(...cells[k]);
  return cells;
}

/**
 * Water pieces of `view` (a multipolygon) outside `land`: [seas (pieces holding a sea anchor),
 * lakes (the others: inland water such as the Caspian, water cut off by the edge of the view;
 * drawn as lakes, in no province), puddles (pieces too thin to hold a circle of radius `width`,
 * slivers between shapes: the caller makes them land)].
 */
export function waters(view, land, anchors, width = 1.5) {
  const water = polygonClipping.difference(view, land);
  const wet = (p) => anchors.some(([, a]) => inPoly(a, p));
  const still = water.filter((p) => !wet(p));
  const wide = (p) => polylabel(p, 0.1).distance >= width;
  return [water.filter(wet), still.filter(wide), still.filter((p) => !wide(p))];
}

// ---------------------------------------------------------------- output
/** One decimal. */
export const r1 = (v) => Math.round(v * 10) / 10;

/**
 * Compact SVG path data of a multipolygon: per ring `Mx yl dx dy ... z` with one decimal and
 * minimal separators (a minus sign separates by itself); pieces under 1.5 units² are left out.
 */
export function pathOf(mp) {
  let d = '';
  for (const poly of mp) {
    if (polyArea(poly) < 1.5) continue;
    for (const ring of poly) {
      const pts = ring.slice(0, -1).map(([x, y]) => [Math.round(x * 10), Math.round(y * 10)]);
      const dedup = pts.filter((p, i) => i === 0 || p[0] !== pts[i - 1][0] || p[1] !== pts[i - 1][1]);
      if (dedup.length < 3) continue;
      const t = (v) => (v / 10).toString();
      let prev = dedup[0];
      const parts = [];
      for (const p of dedup.slice(1)) { parts.push(t(p[0] - prev[0]), t(p[1] - prev[1])); prev = p; }
      d += `M${t(dedup[0][0])} ${t(dedup[0][1])}l` + parts.map((v, i) => (i > 0 && !v.startsWith('-') ? ' ' : '') + v).join('') + 'z';
    }
  }
  return d;
}

/** The provinces of an engine map (crates/engine/maps/NAME.ron): [{id, name, kind}]. */
export function provincesOf(name) {
  const ron = readFileSync(join(ROOT, 'crates', 'engine', 'maps', `${name}.ron`), 'utf8');
  return [...ron.matchAll(/\(id: "(\w+)", name: "([^"]+)", kind: (\w+)/g)].map((m) => ({ id: m[1], name: m[2], kind: m[3] }));
}

/** Writes a region file under web/map/ and prints its size. */
export function writeOut(name, text, [w, h]) {
  const file = join(ROOT, 'web', 'map', name);
  writeFileSync(file, text);
  console.log(`wrote ${file}: ${text.length} bytes, ${gzipSync(text).length} gzipped, view ${w}x${h}`);
}

/** A province key's preview colour. */
export const hue = (k) => (k.charCodeAt(0) * 37 + k.charCodeAt(1) * 13 + k.charCodeAt(2) * 7) % 360;

/**
 * Writes a preview SVG: `shapes` [{d, fill, transform?}], `labels` [{x, y, text, size}], `dots`
 * [{x, y, r, fill, stroke?}], on white, `zoom` times the view's size.
 */
export function writePreview(file, [w, h], zoom, shapes, labels, dots) {
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w * zoom}" height="${h * zoom}"><rect width="${w}" height="${h}" fill="#fff"/>`;
  for (const s of shapes) svg += `<path d="${s.d}" fill="${s.fill}" stroke="#333" stroke-width="0.6"${s.transform ? ` transform="${s.transform}"` : ''}/>`;
  for (const d of dots) svg += `<circle cx="${r1(d.x)}" cy="${r1(d.y)}" r="${d.r}" fill="${d.fill}"${d.stroke ? ` stroke="${d.stroke}"` : ''}/>`;
  for (const l of labels) svg += `<text x="${r1(l.x)}" y="${r1(l.y)}" font-size="${l.size}" text-anchor="middle" font-family="sans-serif">${l.text}</text>`;
  writeFileSync(file, svg + '</svg>');
}

/** Prints the problems and exits non-zero if there are any. */
export function finish(problems) {
  if (problems.length) { console.error('problems:\n  ' + problems.join('\n  ')); process.exit(1); }
}
