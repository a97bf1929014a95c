// Generates web/map/orders-europe.txt: the orders ruleset's Europe 1901 map as regions, one
// polygon per province (seas included), from Natural Earth land outlines (world-atlas, 1:50m).
//
//   cd tools/mapgen && npm ci && node europe.mjs [preview.svg]
//
// Method: land outlines clipped to Europe, projected (Lambert azimuthal equal-area centred on
// 12°E 52°N), simplified (Douglas–Peucker); the land around the board up to the view's edges is
// neutral; water holding no sea anchor (the Caspian) is a lake, in no province. Land is partitioned between
// hand-placed anchor points (lon/lat, several per province) by a Voronoi diagram clipped to the
// coastline; the sea likewise between the seas' anchors. A province's first anchor is where its
// unit stands. Anchors named '-' are neutral land (Ireland, Switzerland, ...), drawn but not
// played. The split coasts get a marker each (COASTS). The script fails if a province is missing,
// empty or has its unit point outside its shape.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as topojson from 'topojson-client';
import polygonClipping from 'polygon-clipping';
import { polyArea, multiArea, inMulti, rect, voronoi, waters, r1, pathOf, provincesOf, writeOut, hue, writePreview, finish } from './common.mjs';

const require = createRequire(import.meta.url);

const LON0 = 12, LAT0 = 52;       // projection centre
const CROP = [-29, 28, 47, 74];   // lon/lat box of the board's land (provinces, neutral land)
const AROUND = [-60, 5, 110, 85]; // lon/lat box of the land drawn around it (neutral) to the view's edges
const WIDTH = 1000;               // view box width; the height follows the crop
const EPS = 0.55;                 // simplification tolerance (map units)
const MIN_ISLAND = 6;             // drop land pieces smaller than this (map units²)

// ---------------------------------------------------------------- anchors (lon, lat)
const LAND = {
  CLY: [[-4.6, 56.1], [-5.3, 57.4], [-5.0, 58.4]],
  EDI: [[-3.2, 56.7], [-2.9, 57.4], [-2.4, 55.6], [-3.9, 58.0]],
  LVP: [[-2.8, 54.0], [-3.0, 53.2], [-3.3, 55.0]],
  YOR: [[-1.3, 54.0], [-1.3, 53.3], [-1.8, 54.9]],
  WAL: [[-3.7, 52.2], [-4.6, 50.5], [-2.8, 51.4]],
  LON: [[-0.2, 51.7], [0.9, 52.5], [-1.0, 50.9]],
  NWY: [[9.2, 61.2], [7.0, 59.0], [13.5, 65.8], [19.5, 69.3], [25.0, 70.3], [29.5, 69.8]],
  SWE: [[15.5, 60.2], [14.2, 57.3], [17.5, 63.8], [13.8, 55.9], [20.5, 66.8], [12.5, 58.8]],
  FIN: [[26.0, 62.6], [25.5, 66.5], [23.0, 61.0], [27.5, 69.0], [29.8, 63.5]],
  STP: [[34.5, 62.8], [30.3, 59.9], [33.5, 67.5], [40.5, 63.5], [46.0, 65.5], [38, 60.5]],
  MOS: [[38.0, 55.6], [44.5, 58.0], [33.5, 57.0], [44.0, 53.0], [31.0, 54.5], [40, 51.5]],
  LVN: [[25.2, 57.3], [27.0, 58.8], [24.0, 55.8], [28.8, 56.5], [27.5, 55.0]],
  PRU: [[20.8, 54.1], [17.8, 54.0], [22.5, 54.8]],
  BER: [[13.4, 52.7], [13.0, 53.9], [15.2, 53.4]],
  KIE: [[9.6, 53.1], [8.0, 53.2], [10.6, 53.8], [9.8, 52.2]],
  DEN: [[9.2, 56.2], [11.8, 55.4], [9.0, 55.0]],
  HOL: [[5.7, 52.3], [5.0, 53.0]],
  BEL: [[4.5, 50.7], [3.5, 51.0], [5.5, 50.0]],
  RUH: [[7.4, 51.2], [7.2, 50.0], [8.6, 51.7]],
  MUN: [[11.2, 48.5], [9.0, 48.3], [10.8, 50.2], [8.2, 49.5], [12.8, 49.0]],
  SIL: [[17.0, 51.0], [18.8, 50.3], [15.8, 51.6]],
  WAR: [[20.5, 52.2], [23.5, 53.3], [22.5, 51.4], [18.8, 52.5]],
  UKR: [[30.5, 50.2], [27.0, 49.2], [34.5, 50.2], [27.0, 51.8], [30.5, 52.5], [37.5, 49.0]],
  SEV: [[34.3, 45.3], [36.0, 46.8], [40.0, 47.3], [34.1, 45.0], [44.5, 46.0], [40.5, 44.2], [45, 49.5], [32.5, 47.3]],
  GAL: [[23.5, 49.7], [20.5, 49.9], [25.8, 48.6]],
  BOH: [[14.5, 49.9], [16.8, 49.4]],
  VIE: [[16.0, 48.1], [14.2, 47.8], [16.0, 47.0]],
  TYR: [[11.6, 47.1], [13.3, 46.9], [10.3, 47.0]],
  BUD: [[19.3, 47.3], [22.6, 46.8], [18.2, 46.0], [21.2, 48.4], [24.2, 47.4]],
  TRI: [[15.9, 45.2], [14.2, 45.8], [17.8, 43.9], [15.5, 44.2]],
  SER: [[20.8, 43.8], [21.4, 42.3], [20.0, 44.7]],
  ALB: [[20.0, 41.0], [19.8, 40.1], [19.6, 42.0]],
  GRE: [[22.0, 39.4], [22.3, 37.5], [23.0, 40.8], [21.0, 40.3]],
  BUL: [[25.2, 42.6], [27.2, 43.0], [23.3, 42.2], [25.5, 41.5]],
  RUM: [[25.5, 44.8], [27.5, 46.8], [28.4, 44.5], [23.2, 44.5], [25.0, 46.2]],
  CON: [[27.6, 41.4], [26.5, 41.0], [29.6, 40.2], [27.8, 39.9]],
  ANK: [[33.2, 40.9], [36.5, 40.9], [31.2, 40.8]],
  SMY: [[28.8, 38.6], [32.5, 38.0], [35.5, 38.2], [30.2, 37.0]],
  ARM: [[41.5, 39.9], [44.5, 40.2], [39.8, 38.6], [43.5, 41.8], [42.5, 38.2]],
  SYR: [[37.6, 35.6], [39.0, 33.0], [41.5, 36.5], [36.4, 36.9], [36.2, 33.5]],
  NAF: [[-2.0, 33.7], [3.0, 34.8], [-7.0, 32.0], [6.3, 35.5], [-9, 29.5], [-5.6, 35.4]],
  TUN: [[9.6, 35.2], [10.0, 32.8], [9.0, 36.6]],
  POR: [[-8.0, 40.0], [-8.2, 38.0], [-7.6, 41.5]],
  SPA: [[-3.7, 40.3], [-5.0, 42.6], [-1.0, 42.0], [-4.2, 37.6], [-1.0, 39.0], [-6.3, 39.3]],
  GAS: [[-0.6, 44.2], [0.3, 45.8], [1.6, 44.0]],
  MAR: [[5.3, 43.8], [2.8, 43.4], [6.8, 44.3]],
  BUR: [[4.8, 46.9], [5.8, 48.6], [3.4, 45.8], [7.2, 48.3]],
  PAR: [[2.2, 48.3], [1.0, 47.3]],
  PIC: [[2.4, 49.8], [0.8, 49.5]],
  BRE: [[-3.0, 48.1], [-0.8, 48.7], [-1.6, 47.2]],
  PIE: [[7.8, 44.9], [8.4, 44.3], [8.8, 45.6]],
  VEN: [[11.9, 45.4], [10.0, 45.5], [12.0, 44.5]],
  TUS: [[11.1, 43.3], [10.3, 44.0]],
  ROM: [[12.8, 42.0], [13.6, 41.4]],
  APU: [[16.4, 40.9], [14.8, 41.8], [17.8, 40.4], [14.2, 42.3]],
  NAP: [[15.3, 40.5], [14.6, 40.8], [16.3, 38.9], [14.2, 37.5]],
  '-': [[-8.0, 53.2], [-7.4, 54.6], [-9.5, 52.0], [-19.0, 64.9], [8.2, 46.8], [9.1, 42.1],
    [9.0, 40.0], [25.0, 35.2], [33.2, 35.0], [2.9, 39.6], [16.0, 31.0], [22.0, 31.0],
    [28.5, 30.0], [32.5, 29.5], [44.0, 33.0], [46.5, 36.0], [38.5, 29.0], [-7.0, 62.0]],
};
const SEA = {
  NAO: [[-16.0, 55.5], [-13.0, 55.0], [-27.0, 48.0], [-25.0, 64.0], [-14.0, 60.0], [-11.5, 51.0], [-20, 50]],
  NWG: [[0.0, 66.0], [-9.0, 70.0], [5.0, 63.0], [13.0, 70.5], [-14.0, 67.5], [-3, 62.3]],
  BAR: [[40.0, 70.6], [37.0, 71.8], [26.0, 73.0], [38.5, 66.0], [47.0, 70.0], [32.5, 69.9]],
  NTH: [[3.0, 56.0], [1.5, 58.8], [3.0, 53.3], [-1.0, 60.3], [5, 58.5]],
  IRI: [[-5.2, 53.5], [-7.5, 51.1], [-4.6, 54.3]],
  ENG: [[-2.0, 50.1], [-5.0, 49.5], [0.8, 50.5]],
  MAO: [[-12.0, 43.0], [-5.5, 45.5], [-12.5, 37.0], [-14.0, 31.5], [-9.5, 48.8], [-7.0, 36.3], [-21, 39]],
  HEL: [[7.6, 54.4], [8.2, 55.5]],
  SKA: [[9.5, 57.9], [11.6, 57.2], [12.2, 56.4]],
  BAL: [[19.0, 56.7], [15.5, 55.3], [11.5, 54.5], [20.3, 55.3], [13, 55], [19.5, 58.5]],
  BOT: [[20.5, 62.5], [23.0, 65.0], [19.5, 60.3], [26.5, 59.9], [23.0, 59.5], [29.5, 60.1]],
  WES: [[3.0, 38.5], [-2.0, 36.4], [7.5, 38.2], [1.0, 37.2]],
  LYO: [[5.0, 42.4], [8.5, 43.6], [3.6, 41.4], [7.0, 41.5]],
  TYS: [[12.3, 39.8], [10.7, 42.6], [11.2, 38.2], [14.0, 38.8]],
  ION: [[18.0, 36.5], [14.0, 34.5], [19.8, 38.9], [21.5, 34.0], [16.5, 38.6], [12, 33.8]],
  ADR: [[15.5, 43.0], [13.0, 44.6], [18.3, 41.6]],
  AEG: [[25.0, 38.8], [24.3, 40.3], [25.5, 36.8], [26.5, 39.8]],
  EAS: [[31.0, 34.0], [27.5, 35.2], [35.0, 35.6], [26, 33.5], [34.8, 32.5]],
  BLA: [[34.0, 43.2], [30.5, 44.0], [38.5, 42.5], [36.5, 45.8], [30.0, 42.3], [29.4, 41.5]],
};
// Unit points away from a province's first anchor (so that its border stays): where crowded
// neighbours' units, keys and markers fit.
const UNITS = {
  NAP: [16.1, 39.4], APU: [16.6, 41.0], PIC: [1.9, 50.2],
  // Portugal's unit, key and supply centre clear of the Spanish border.
  POR: [-8.8, 39.9],
};
const unitLL = (id) => UNITS[id] || (LAND[id] || SEA[id])[0];
// Split coasts: the clickable marker of each coast stands at sea, off this point of its coast
// (`marker`: the nearest spot whose whole disk is water), so that it takes no click meant for
// the land of its province or of another.
const COASTS = {
  'STP/NC': [35.5, 68.3], 'STP/SC': [29.0, 60.5],
  'SPA/NC': [-5.0, 43.1], 'SPA/SC': [-2.5, 37.5],
  'BUL/EC': [27.4, 42.8], 'BUL/SC': [24.9, 41.2],
};

// ---------------------------------------------------------------- projection
const rad = Math.PI / 180;
function laea([lon, lat]) {
  const l = (lon - LON0) * rad, p = lat * rad, p0 = LAT0 * rad;
  const k = Math.sqrt(2 / (1 + Math.sin(p0) * Math.sin(p) + Math.cos(p0) * Math.cos(p) * Math.cos(l)));
  return [k * Math.cos(p) * Math.sin(l), -k * (Math.cos(p0) * Math.sin(p) - Math.sin(p0) * Math.cos(p) * Math.cos(l))];
}
// View box: from the west coast of Iceland's sea to the Caspian, North Cape to the Sahara.
const x0 = laea([-23, 55])[0], x1 = laea([45.5, 38])[0];
const y0 = laea([25, 73.2])[1], y1 = laea([5, 32.3])[1];
const SCALE = WIDTH / (x1 - x0);
const HEIGHT = Math.round((y1 - y0) * SCALE);
const flat = (ll) => { const [x, y] = laea(ll); return [(x - x0) * SCALE, (y - y0) * SCALE]; };
// Lenses: smooth local magnifications of the projected map (as printed Diplomacy boards distort
// geography), so that the small provinces of the Balkans, of the Low Countries and of Britain
// have room for their units, keys and markers at the whole-map zoom. A point at distance d < R
// from a lens's centre moves out to d·(1 + (M − 1)(1 − d²/R²)²): magnified M times at the centre,
// unmoved from R on, monotonic (M < 2.25), squeezed in the ring around (mostly sea and the
// large provinces around it). [lon, lat, R (map units), M]
const LENSES = [
  [22.8, 42.2, 120, 1.6], // Serbia, Albania, Greece, Bulgaria, Rumania
  [5.8, 51.8, 100, 1.4],   // Belgium, Holland, Ruhr
  [-2.8, 54.6, 105, 1.5],  // northern England and Scotland
].map(([lon, lat, r, m]) => [flat([lon, lat]), r, m]);
function lens([x, y]) {
  for (const [[cx, cy], r, m] of LENSES) {
    const dx = x - cx, dy = y - cy, u = (dx * dx + dy * dy) / (r * r);
    if (u < 1) { const k = 1 + (m - 1) * (1 - u) * (1 - u); x = cx + dx * k; y = cy + dy * k; }
  }
  return [x, y];
}
const project = (ll) => lens(flat(ll));

// ---------------------------------------------------------------- geometry helpers
function dp(pts, eps) { // Douglas–Peucker on an open polyline
  if (pts.length < 3) return pts;
  const keep = new Uint8Array(pts.length); keep[0] = keep[pts.length - 1] = 1;
  const stack = [[0, pts.length - 1]];
  while (stack.length) {
    const [a, b] = stack.pop();
    const [ax, ay] = pts[a], [bx, by] = pts[b];
    const dx = bx - ax, dy = by - ay, len = Math.hypot(dx, dy) || 1;
    let best = -1, bi = -1;
    for (let i = a + 1; i < b; i++) {
      const d = Math.abs((pts[i][0] - ax) * dy - (pts[i][1] - ay) * dx) / len;
      if (d > best) { best = d; bi = i; }
    }
    if (best > eps) { keep[bi] = 1; stack.push([a, bi], [bi, b]); }
  }
  return pts.filter((_, i) => keep[i]);
}
function simplifyRing(r) { // closed ring: split at the farthest point from the first
  const open = r.slice(0, -1);
  let far = 0, fd = -1;
  open.forEach((p, i) => { const d = Math.hypot(p[0] - open[0][0], p[1] - open[0][1]); if (d > fd) { fd = d; far = i; } });
  const a = dp(open.slice(0, far + 1), EPS), b = dp(open.slice(far).concat([open[0]]), EPS);
  const out = a.concat(b.slice(1));
  return out.length >= 4 ? out : null;
}
const PAD = 50;
const BOX = [[-PAD, -PAD], [WIDTH + PAD, -PAD], [WIDTH + PAD, HEIGHT + PAD], [-PAD, HEIGHT + PAD]];

// ---------------------------------------------------------------- land and sea
const topo = JSON.parse(readFileSync(require.resolve('world-atlas/land-50m.json'), 'utf8'));
const landLL = topojson.feature(topo, topo.objects.land);
const geoms = landLL.features ? landLL.features.map((f) => f.geometry) : [landLL.geometry];
const boxLL = ([w, s, e, n]) => [[[w, s], [e, s], [e, n], [w, n], [w, s]]];
const cropLL = boxLL(CROP);
/** Land inside `clipLL` (lon/lat multipolygon), projected and simplified. */
function landIn(clipLL) {
  const landPolys = [];
  for (const g of geoms) {
    const polys = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
    for (const p of polys) {
      // Rings that cross the antimeridian (Eurasia at Chukotka) are unwrapped to stay planar.
      const unwrapped = p.map((r) => (Math.max(...r.map((q) => q[0])) - Math.min(...r.map((q) => q[0])) > 180
        ? r.map(([x, y]) => [x < -100 ? x + 360 : x, y]) : r));
      landPolys.push(...polygonClipping.intersection(unwrapped, clipLL));
    }
  }
  const land = [];
  for (const p of landPolys) {
    const rings = p.map((r) => simplifyRing(densify(r).map(project))).filter(Boolean);
    if (rings.length && rings[0] && polyArea(rings) >= MIN_ISLAND) land.push(rings);
  }
  return polygonClipping.intersection(polygonClipping.union(...land), VIEW);
}
const densify = (ring) => { // keep the crop's straight edges straight once projected
  const out = [];
  for (let i = 0; i < ring.length - 1; i++) {
    const a = ring[i], b = ring[i + 1];
    const n = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / 0.5));
    for (let k = 0; k < n; k++) out.push([a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n]);
  }
  out.push(ring[ring.length - 1]);
  return out;
};
const VIEW = rect(0, 0, WIDTH, HEIGHT);
// The board's land (in the crop) and the land around it up to the view's edges (Russia beyond
// 47°E, Arabia, Iran: neutral land, so that no water but the seas' and the lakes' is drawn).
let land = landIn(cropLL);
const around = landIn(polygonClipping.difference(boxLL(AROUND), cropLL));
// Seas hold a sea anchor; other water is a lake (the Caspian, the Persian Gulf cut by the view's
// edge), drawn as a lake in no province; slivers between the crop's land and the land around it
// become land.
const seaAnchors = Object.entries(SEA).flatMap(([k, ps]) => ps.map((p) => [k, project(p)]));
const [sea, lakes, puddles] = waters(VIEW, polygonClipping.union(land, around), seaAnchors);
if (puddles.length) land = polygonClipping.union(land, ...puddles);

const landAnchors = Object.entries(LAND).flatMap(([k, ps]) => ps.map((p) => [k, project(p)]));
const landCells = voronoi(landAnchors, BOX);
const seaCells = voronoi(seaAnchors, BOX);
const regions = {};
for (const [k, c] of Object.entries(landCells)) regions[k] = polygonClipping.intersection(c, land);
for (const [k, c] of Object.entries(seaCells)) regions[k] = polygonClipping.intersection(c, sea);
regions['-'] = polygonClipping.union(regions['-'] || [], polygonClipping.difference(around, land));

// The coast markers (their disk's radius as crates/web/src/orders/regions.rs draws it, and
// half its stroke): the nearest spot to the coast's point whose disk is all water, searched
// outwards in half units up to 15 units; where islands crowd the coast (Bulgaria's south coast),
// the nearest spot at sea whose disk covers no land of another province and little of its own
// (an island of its own: a click there is its province's anyway).
const MARKER_R = 9 + 1;
const wet = (pt) => !inMulti(pt, land) && !inMulti(pt, around);
// Its centre and four circles (an island may lie inside the disk).
const DISK = [[0, 0], ...[0.25, 0.5, 0.75, 1].flatMap((f) => Array.from({ length: 32 },
  (_, i) => [f * Math.cos(i * Math.PI / 16), f * Math.sin(i * Math.PI / 16)]))];
const disk = (c) => DISK.map(([dx, dy]) => [c[0] + dx * MARKER_R, c[1] + dy * MARKER_R]);
const dry = (c) => disk(c).some((p) => !wet(p));
const fits = (c, own) => wet(c) && disk(c).filter((p) => !wet(p)).every((p) => inMulti(p, own))
  && disk(c).filter((p) => !wet(p)).length <= 8;
function marker(ll, own) {
  const [x, y] = project(ll);
  for (const [ok, far] of [[(c) => !dry(c), 15], [(c) => fits(c, own), 40]]) {
    for (let r = 0; r <= far; r += 0.5) {
      for (let i = 0, n = Math.max(1, Math.round(r * 4)); i < n; i++) {
        const c = [x + r * Math.cos(2 * Math.PI * i / n), y + r * Math.sin(2 * Math.PI * i / n)];
        if (ok(c)) return c;
      }
    }
  }
  return null;
}
const markers = Object.fromEntries(Object.entries(COASTS).map(([c, ll]) => [c, marker(ll, regions[c.slice(0, 3)]) || project(ll)]));

// ---------------------------------------------------------------- checks
const ids = provincesOf('europe-1901').map((p) => p.id);
const problems = [];
if (ids.length !== 75) problems.push(`expected 75 provinces in the .ron, found ${ids.length}`);
for (const id of ids) {
  const r = regions[id];
  const anchor = (LAND[id] || SEA[id]) && unitLL(id);
  if (!r || !r.length) { problems.push(`${id}: no region`); continue; }
  const pt = project(anchor);
  if (!inMulti(pt, r)) problems.push(`${id}: unit point outside its region`);
}
for (const k of Object.keys(regions)) if (k !== '-' && !ids.includes(k)) problems.push(`${k}: not a province`);
for (const [c, ll] of Object.entries(COASTS)) {
  if (!inMulti(project(ll), regions[c.slice(0, 3)])) problems.push(`${c}: its coast's point outside its province`);
  if (!fits(markers[c], regions[c.slice(0, 3)])) problems.push(`${c}: no spot at sea for its marker within 40 units`);
}
if (!inMulti(project([48.5, 44.5]), lakes)) problems.push('the Caspian is not a lake');
if (!inMulti(project([55, 58]), regions['-'])) problems.push('Russia beyond the board (55°E 58°N) is not neutral land');

// ---------------------------------------------------------------- output
let out = `# Europe 1901 as regions, for the orders ruleset's map (crates/web/src/orders/regions.rs).\n`
  + `# Generated by tools/mapgen/europe.mjs from Natural Earth land outlines (public domain); do not edit.\n`
  + `# view x y w h | p KEY unit-x unit-y path (a province) | c KEY/COAST x y (a split coast's marker) | n path (neutral land) | w path (lakes: water of no province)\n`
  + `view 0 0 ${WIDTH} ${HEIGHT}\n`;
for (const id of [...ids].sort()) {
  const [x, y] = project(unitLL(id));
  out += `p ${id} ${r1(x)} ${r1(y)} ${pathOf(regions[id] || [])}\n`;
}
for (const [c, [x, y]] of Object.entries(markers)) out += `c ${c} ${r1(x)} ${r1(y)}\n`;
out += `n ${pathOf(regions['-'] || [])}\n`;
out += `w ${pathOf(lakes)}\n`;
writeOut('orders-europe.txt', out, [WIDTH, HEIGHT]);
// How crowded the board is: the closest unit points of two provinces (where units, keys and
// supply-centre markers are drawn, 22 units wide) or coast markers, overall and in the Balkans
// and the Low Countries, and the smallest land provinces.
{
  const unit = (id) => markers[id] || project(unitLL(id));
  const closest = (keys) => {
    const pairs = [];
    for (const a of keys) for (const b of keys) if (a < b && a.slice(0, 3) !== b.slice(0, 3)) { const [p, q] = [unit(a), unit(b)]; pairs.push([Math.hypot(p[0] - q[0], p[1] - q[1]), a, b]); }
    pairs.sort((x, y) => x[0] - y[0]);
    return pairs.slice(0, 3).map(([d, a, b]) => `${a}-${b} ${d.toFixed(1)}`).join(', ');
  };
  const balkans = ['SER', 'ALB', 'GRE', 'BUL', 'RUM', 'CON', 'BUD', 'TRI', 'AEG', 'ADR', 'ION', 'BLA', 'BUL/EC', 'BUL/SC'];
  const low = ['BEL', 'HOL', 'DEN', 'KIE', 'RUH', 'PIC', 'HEL', 'SKA', 'NTH', 'BER', 'ENG', 'BAL'];
  const land = ids.filter((id) => LAND[id]).map((id) => [id, multiArea(regions[id])]).sort((a, b) => a[1] - b[1]);
  console.log(`closest unit points: ${closest(ids)} overall (${closest([...ids, ...Object.keys(COASTS)])} with coast markers), ${closest(balkans)} in the Balkans, ${closest(low)} in the Low Countries; `
    + `smallest land regions: ${land.slice(0, 3).map(([k, a]) => `${k} ${a.toFixed(0)}`).join(', ')} (map units²); `
    + `Balkans ${balkans.slice(0, 6).map((k) => `${k} ${multiArea(regions[k]).toFixed(0)}`).join(', ')}; `
    + `Low Countries ${low.slice(0, 3).map((k) => `${k} ${multiArea(regions[k]).toFixed(0)}`).join(', ')}`);
}

if (process.argv[2]) { // preview: the partition, unit points (keys), other anchors (dots), coast markers
  const fill = (k) => (SEA[k] ? '#a9cde9' : k === '-' ? '#ccc' : `hsl(${hue(k)},45%,75%)`);
  const shapes = Object.entries(regions).map(([k, r]) => ({ d: pathOf(r), fill: fill(k) }));
  shapes.push({ d: pathOf(lakes), fill: '#fff' });
  const labels = [], dots = [];
  for (const [k, ps] of [...Object.entries(LAND), ...Object.entries(SEA)]) {
    if (k === '-') continue;
    const [x, y] = project(unitLL(k));
    labels.push({ x, y, text: k, size: 9 });
    for (const p of ps.slice(1)) { const [ax, ay] = project(p); dots.push({ x: ax, y: ay, r: 1, fill: '#900' }); }
  }
  for (const [c, [x, y]] of Object.entries(markers)) { dots.push({ x, y, r: 5, fill: '#fff', stroke: '#000' }); labels.push({ x, y: y + 3, text: c.slice(4).toLowerCase(), size: 6 }); }
  writePreview(process.argv[2], [WIDTH, HEIGHT], 1.6, shapes, labels, dots);
}
finish(problems);
