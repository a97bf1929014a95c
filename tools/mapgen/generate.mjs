// Generates web/map/classic-map.json: the classic 42-territory world map,
// built from Natural Earth country outlines (world-atlas, 1:50m).
//
//   cd tools/mapgen && npm ci && node generate.mjs
//
// Pipeline: TopoJSON -> topological simplification (shared borders stay shared)
// -> per-country pieces assigned / clipped to territories in lon/lat space
// -> union per territory -> Miller projection -> compact SVG paths + label points.

import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import * as topojson from 'topojson-client';
import { presimplify, simplify, sphericalTriangleArea } from 'topojson-simplify';
import polygonClipping from 'polygon-clipping';
import polylabel from 'polylabel';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const OUT_DIR = join(here, '..', '..', 'web', 'map');
const OUT_FILE = join(OUT_DIR, 'classic-map.json');

// ---------------------------------------------------------------- settings
const WIDTH = 1000;          // viewBox width
const PAD_X = 14;            // sea margin left/right (room for the Alaska–Kamchatka stubs)
const LAT_TOP = 84;          // crop (degrees)
const LAT_BOTTOM = -57;
const CENTER_LON = 11;       // map centre: puts the cut in the Bering Strait (169°W)
const SIMPLIFY_SR = 6e-6;  // min spherical triangle area (steradians) kept by Visvalingam
const MIN_PIECE_AREA = 1.5;  // drop islands smaller than this (viewBox units²) ...
const KEEP_SMALL = new Set(['iceland']); // ... never below the largest piece of these
// Board-game licence: enlarge a few tiny territories around their centre so the
// shape stays visible under the army badge (radius ~11).
const ENLARGE = { iceland: 1.5 };
const LINK_MIN_PIECE = 12;  // sea links start/end on pieces at least this big (units²)

// ---------------------------------------------------------------- territories
const CONTINENTS = {
  north_america: ['alaska', 'northwest_territory', 'greenland', 'alberta', 'ontario', 'quebec',
    'western_united_states', 'eastern_united_states', 'central_america'],
  south_america: ['venezuela', 'peru', 'brazil', 'argentina'],
  europe: ['iceland', 'scandinavia', 'great_britain', 'northern_europe', 'western_europe',
    'southern_europe', 'ukraine'],
  africa: ['north_africa', 'egypt', 'east_africa', 'congo', 'south_africa', 'madagascar'],
  asia: ['ural', 'siberia', 'yakutsk', 'kamchatka', 'irkutsk', 'mongolia', 'japan', 'afghanistan',
    'china', 'middle_east', 'india', 'siam'],
  australia: ['indonesia', 'new_guinea', 'western_australia', 'eastern_australia'],
};
const ALL_IDS = Object.values(CONTINENTS).flat();

// Natural Earth country name -> territory id (whole country).
const WHOLE = {
  // north america
  'Greenland': 'greenland',
  'Mexico': 'central_america', 'Guatemala': 'central_america', 'Belize': 'central_america',
  'Honduras': 'central_america', 'El Salvador': 'central_america', 'Nicaragua': 'central_america',
  'Costa Rica': 'central_america', 'Panama': 'central_america', 'Cuba': 'central_america',
  'Haiti': 'central_america', 'Dominican Rep.': 'central_america', 'Jamaica': 'central_america',
  'Puerto Rico': 'central_america', 'Bahamas': 'central_america',
  // south america
  'Venezuela': 'venezuela', 'Colombia': 'venezuela', 'Guyana': 'venezuela', 'Suriname': 'venezuela',
  'Trinidad and Tobago': 'venezuela',
  'Peru': 'peru', 'Ecuador': 'peru', 'Bolivia': 'peru',
  'Brazil': 'brazil',
  'Argentina': 'argentina', 'Chile': 'argentina', 'Uruguay': 'argentina', 'Paraguay': 'argentina',
  'Falkland Is.': 'argentina',
  // europe
  'Iceland': 'iceland',
  'Norway': 'scandinavia', 'Sweden': 'scandinavia', 'Finland': 'scandinavia', 'Denmark': 'scandinavia',
  'Åland': 'scandinavia',
  'United Kingdom': 'great_britain', 'Ireland': 'great_britain', 'Isle of Man': 'great_britain',
  'Germany': 'northern_europe', 'Poland': 'northern_europe', 'Netherlands': 'northern_europe',
  'Belgium': 'northern_europe', 'Luxembourg': 'northern_europe', 'Czechia': 'northern_europe',
  'Slovakia': 'northern_europe', 'Austria': 'northern_europe', 'Switzerland': 'northern_europe',
  'Hungary': 'northern_europe', 'Liechtenstein': 'northern_europe',
  'France': 'western_europe', 'Spain': 'western_europe', 'Portugal': 'western_europe',
  'Andorra': 'western_europe', 'Monaco': 'western_europe',
  'Italy': 'southern_europe', 'Slovenia': 'southern_europe', 'Croatia': 'southern_europe',
  'Bosnia and Herz.': 'southern_europe', 'Serbia': 'southern_europe', 'Montenegro': 'southern_europe',
  'Kosovo': 'southern_europe', 'Albania': 'southern_europe', 'Macedonia': 'southern_europe',
  'Greece': 'southern_europe', 'Bulgaria': 'southern_europe', 'Malta': 'southern_europe',
  'San Marino': 'southern_europe', 'Vatican': 'southern_europe',
  'Ukraine': 'ukraine', 'Belarus': 'ukraine', 'Lithuania': 'ukraine', 'Latvia': 'ukraine',
  'Estonia': 'ukraine', 'Moldova': 'ukraine', 'Romania': 'ukraine',
  // africa
  'Morocco': 'north_africa', 'W. Sahara': 'north_africa', 'Algeria': 'north_africa',
  'Tunisia': 'north_africa', 'Mauritania': 'north_africa', 'Mali': 'north_africa',
  'Niger': 'north_africa', 'Chad': 'north_africa', 'Senegal': 'north_africa', 'Gambia': 'north_africa',
  'Guinea-Bissau': 'north_africa', 'Guinea': 'north_africa', 'Sierra Leone': 'north_africa',
  'Liberia': 'north_africa', "Côte d'Ivoire": 'north_africa', 'Burkina Faso': 'north_africa',
  'Ghana': 'north_africa', 'Togo': 'north_africa', 'Benin': 'north_africa', 'Nigeria': 'north_africa',
  'Egypt': 'egypt', 'Libya': 'egypt',
  'Sudan': 'east_africa', 'S. Sudan': 'east_africa', 'Ethiopia': 'east_africa', 'Eritrea': 'east_africa',
  'Djibouti': 'east_africa', 'Somalia': 'east_africa', 'Somaliland': 'east_africa', 'Kenya': 'east_africa',
  'Uganda': 'east_africa', 'Tanzania': 'east_africa', 'Rwanda': 'east_africa', 'Burundi': 'east_africa',
  'Dem. Rep. Congo': 'congo', 'Congo': 'congo', 'Gabon': 'congo', 'Eq. Guinea': 'congo',
  'Central African Rep.': 'congo', 'Cameroon': 'congo', 'Angola': 'congo',
  'South Africa': 'south_africa', 'Namibia': 'south_africa', 'Botswana': 'south_africa',
  'Zimbabwe': 'south_africa', 'Mozambique': 'south_africa', 'Zambia': 'south_africa',
  'Malawi': 'south_africa', 'Lesotho': 'south_africa', 'eSwatini': 'south_africa',
  'Madagascar': 'madagascar',
  // asia
  'Turkey': 'middle_east', 'Syria': 'middle_east', 'Lebanon': 'middle_east', 'Israel': 'middle_east',
  'Palestine': 'middle_east', 'Jordan': 'middle_east', 'Iraq': 'middle_east', 'Iran': 'middle_east',
  'Saudi Arabia': 'middle_east', 'Yemen': 'middle_east', 'Oman': 'middle_east',
  'United Arab Emirates': 'middle_east', 'Qatar': 'middle_east', 'Bahrain': 'middle_east',
  'Kuwait': 'middle_east', 'Cyprus': 'middle_east', 'N. Cyprus': 'middle_east',
  'Georgia': 'middle_east', 'Armenia': 'middle_east', 'Azerbaijan': 'middle_east',
  'Afghanistan': 'afghanistan', 'Pakistan': 'afghanistan', 'Turkmenistan': 'afghanistan',
  'Uzbekistan': 'afghanistan', 'Tajikistan': 'afghanistan', 'Kyrgyzstan': 'afghanistan',
  'Kazakhstan': 'afghanistan',
  'India': 'india', 'Nepal': 'india', 'Bhutan': 'india', 'Bangladesh': 'india', 'Sri Lanka': 'india',
  'Siachen Glacier': 'india',
  'Myanmar': 'siam', 'Thailand': 'siam', 'Laos': 'siam', 'Cambodia': 'siam', 'Vietnam': 'siam',
  'Taiwan': 'china', 'Hong Kong': 'china', 'Macao': 'china', 'North Korea': 'china',
  'South Korea': 'china',
  'Mongolia': 'mongolia',
  'Japan': 'japan',
  'Philippines': 'indonesia', 'Timor-Leste': 'indonesia', 'Brunei': 'indonesia',
  'Papua New Guinea': 'new_guinea',
};

// Countries split between territories. Regions are rings in lon/lat (Russia's
// longitudes are normalised to 0..360 first, so Chukotka sits east of 180).
// The largest piece of the country is clipped against the regions; the other
// pieces (islands) go whole to the region containing their centroid.
// The last region of each list, with ring null, takes the remainder.
const box = (w, s, e, n) => [[w, s], [e, s], [e, n], [w, n], [w, s]];
const SPLIT = {
  'United States of America': [
    ['alaska', box(-180, 51, -100, 75)],
    ['eastern_united_states', box(-98, 10, -60, 51)],
    ['western_united_states', null],
  ],
  'Canada': [
    ['alberta', box(-145, 40, -102, 60)],
    ['quebec', [[-79.5, 64], [-79.5, 46.5], [-74.3, 45.2], [-71, 40], [-50, 40], [-50, 64], [-79.5, 64]]],
    ['ontario', [[-102, 40], [-71, 40], [-74.3, 45.2], [-79.5, 46.5], [-79.5, 60], [-102, 60], [-102, 40]]],
    ['northwest_territory', null],
  ],
  'Russia': [
    ['ukraine', box(0, 30, 60, 85)],
    ['ural', box(60, 30, 78, 85)],
    ['siberia', [[78, 30], [105, 30], [105, 58], [112, 58], [112, 85], [78, 85], [78, 30]]],
    ['irkutsk', box(105, 30, 134, 58)],
    ['yakutsk', box(112, 58, 148, 85)],
    ['kamchatka', null],
  ],
  'China': [
    ['mongolia', [[115, 42], [136, 42], [136, 54], [115, 54], [115, 42]]],
    ['china', null],
  ],
  'Australia': [
    ['western_australia', box(100, -45, 135, -5)],
    ['eastern_australia', null],
  ],
  // piece-wise only (islands / overseas parts)
  'Malaysia': [['siam', box(95, -5, 105, 10)], ['indonesia', null]],
  'Indonesia': [['new_guinea', box(130.6, -7, 142, 0)], ['indonesia', null]],
  'France': [['venezuela', box(-60, 0, -50, 10)], ['western_europe', null]],
};

// Plausibility boxes (centroid of a piece must lie inside): drops overseas
// territories, Hawaii, far islands, etc. [west, south, east, north]
const BOUNDS = {
  alaska: [-169, 51, -129, 72], northwest_territory: [-142, 58, -60, 84], greenland: [-75, 58, -10, 84],
  alberta: [-140, 48, -100, 60], ontario: [-103, 41, -74, 60], quebec: [-80, 44, -52, 64],
  western_united_states: [-125, 24, -97, 50], eastern_united_states: [-99, 24, -66, 50],
  central_america: [-118, 7, -65, 33],
  venezuela: [-80, -5, -50, 13], peru: [-82, -23, -57, 2], brazil: [-75, -34, -34, 6],
  argentina: [-76, -56, -53, -17],
  iceland: [-25, 62, -12, 67], scandinavia: [3, 54, 35, 81], great_britain: [-11, 49, 2, 61],
  northern_europe: [2, 45, 25, 56], western_europe: [-10, 35, 10, 52], southern_europe: [6, 34, 30, 47.5],
  ukraine: [18, 42, 70, 82],
  north_africa: [-18, 0, 25, 38], egypt: [9, 19, 37, 34], east_africa: [21, -12, 52, 23],
  congo: [8, -19, 32, 12], south_africa: [10, -35, 41, -8], madagascar: [42, -26, 51, -11],
  ural: [55, 45, 80, 81], siberia: [75, 45, 115, 82], yakutsk: [110, 55, 160, 80],
  kamchatka: [130, 40, 192, 75], irkutsk: [100, 40, 140, 60], mongolia: [85, 40, 140, 55],
  japan: [128, 30, 146, 46], afghanistan: [45, 23, 88, 56], china: [72, 17, 135, 54],
  middle_east: [25, 12, 64, 44], india: [66, 5, 98, 37], siam: [91, 0, 110, 29],
  indonesia: [94, -12, 128, 21], new_guinea: [129, -12, 160, 0],
  western_australia: [110, -36, 135, -10], eastern_australia: [129, -44, 155, -9],
};

// Hand-tuned label positions [lon, lat] for small or oddly shaped territories.
const LABEL_LONLAT = {
  central_america: [-102.5, 24],
  japan: [138.6, 36.3],
  great_britain: [-1.8, 53.2],
  madagascar: [46.7, -19.5],
  new_guinea: [143, -5.5],
  ontario: [-91, 53],
  mongolia: [104, 47],
  indonesia: [114, -0.5],
  western_europe: [-3.5, 40],
  southern_europe: [21.5, 42.3],
  northern_europe: [13, 51.5],
};

// Sea links; `via` optionally fixes endpoints [lonA, latA, lonB, latB].
const SEA_LINKS = [
  ['alaska', 'kamchatka'], ['greenland', 'iceland'],
  ['greenland', 'northwest_territory', { via: [-54, 70, -67, 69] }],
  ['greenland', 'ontario', { skip: true }],
  ['greenland', 'quebec'], ['iceland', 'great_britain'], ['iceland', 'scandinavia'],
  ['great_britain', 'scandinavia'], ['great_britain', 'northern_europe', { via: [1.2, 52.6, 4.9, 52.6] }],
  ['great_britain', 'western_europe', { via: [-2.2, 51.3, -1.0, 48.6] }], ['western_europe', 'north_africa'],
  ['southern_europe', 'north_africa'], ['southern_europe', 'egypt'], ['brazil', 'north_africa'],
  ['east_africa', 'madagascar', { via: [38.8, -7.5, 48.9, -13] }],
  ['south_africa', 'madagascar', { via: [39.0, -17, 44.6, -19.3] }], ['kamchatka', 'japan'],
  ['mongolia', 'japan'], ['siam', 'indonesia'], ['indonesia', 'new_guinea'],
  ['indonesia', 'western_australia'], ['new_guinea', 'eastern_australia'],
  ['new_guinea', 'western_australia', { via: [138.5, -6.8, 133.2, -12.6] }],
];

// ---------------------------------------------------------------- projection (Miller)
const rad = Math.PI / 180;
const millerY = (lat) => 1.25 * Math.log(Math.tan(Math.PI / 4 + 0.4 * lat * rad));
const SCALE = (WIDTH - 2 * PAD_X) / (2 * Math.PI);
const Y0 = millerY(LAT_TOP);
const HEIGHT = Math.round(SCALE * (Y0 - millerY(LAT_BOTTOM)));
function project([lon, lat]) {
  let l = lon - CENTER_LON;
  if (l < -180) l += 360;
  if (l > 180) l -= 360;
  return [PAD_X + (l + 180) * rad * SCALE, (Y0 - millerY(Math.max(LAT_BOTTOM, Math.min(LAT_TOP, lat)))) * SCALE];
}

// ---------------------------------------------------------------- geometry helpers
function ringArea(r) {
  let a = 0;
  for (let i = 0, n = r.length - 1; i < n; i++) a += r[i][0] * r[i + 1][1] - r[i + 1][0] * r[i][1];
  return a / 2;
}
function ringCentroid(r) {
  let cx = 0, cy = 0, a = 0;
  for (let i = 0, n = r.length - 1; i < n; i++) {
    const f = r[i][0] * r[i + 1][1] - r[i + 1][0] * r[i][1];
    cx += (r[i][0] + r[i + 1][0]) * f; cy += (r[i][1] + r[i + 1][1]) * f; a += f;
  }
  if (Math.abs(a) < 1e-12) return r[0];
  return [cx / (3 * a), cy / (3 * a)];
}
function pointInRing([x, y], ring) {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i], [xj, yj] = ring[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
const inBounds = ([x, y], [w, s, e, n]) => x >= w && x <= e && y >= s && y <= n;

// ---------------------------------------------------------------- load + simplify
const topo = JSON.parse(readFileSync(require.resolve('world-atlas/countries-50m.json'), 'utf8'));
const simple = simplify(presimplify(topo, sphericalTriangleArea), SIMPLIFY_SR);
const countries = topojson.feature(simple, simple.objects.countries).features;

const pieces = Object.fromEntries(ALL_IDS.map((id) => [id, []])); // id -> [polygon (lon/lat)]
const used = new Set();

for (const f of countries) {
  const name = f.properties.name;
  if (!f.geometry) continue;
  const whole = WHOLE[name];
  const split = SPLIT[name];
  if (!whole && !split) continue;
  used.add(name);
  let polys = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
  // drop degenerate rings left by simplification
  polys = polys.map((p) => p.filter((r) => r.length >= 4)).filter((p) => p.length);
  if (name === 'Russia') {
    polys = polys.map((p) => p.map((r) => r.map(([x, y]) => [x < 0 ? x + 360 : x, y])));
  }
  if (name === 'United States of America') {
    // Drop the Aleutians west of the Bering-Strait cut and anything across 180.
    polys = polys.filter((p) => p[0].every(([x]) => x < 0 && x >= -169));
  }
  if (whole) {
    for (const p of polys) pieces[whole].push(p);
    continue;
  }
  let largest = 0;
  polys.forEach((p, i) => { if (Math.abs(ringArea(p[0])) > Math.abs(ringArea(polys[largest][0]))) largest = i; });
  const clipLargest = !['Malaysia', 'Indonesia', 'France'].includes(name);
  polys.forEach((p, i) => {
    if (i === largest && clipLargest) {
      let rest = [p];
      for (const [id, ring] of split) {
        if (!ring) { if (rest.length) pieces[id].push(...rest); break; }
        const inside = polygonClipping.intersection(rest, [[ring]]);
        pieces[id].push(...inside);
        rest = polygonClipping.difference(rest, [[ring]]);
      }
    } else {
      const c = ringCentroid(p[0]);
      const hit = split.find(([, ring]) => !ring || pointInRing(c, ring));
      pieces[hit[0]].push(p);
    }
  });
}

const unknown = Object.keys(WHOLE).concat(Object.keys(SPLIT)).filter((n) => !used.has(n));
if (unknown.length) throw new Error(`country names not found in Natural Earth data: ${unknown.join(', ')}`);

// ---------------------------------------------------------------- union, project, filter
const territories = {};   // id -> projected polygons [[ring...]...]
for (const id of ALL_IDS) {
  const kept = pieces[id].filter((p) => inBounds(ringCentroid(p[0]), BOUNDS[id]));
  if (!kept.length) throw new Error(`territory ${id}: no geometry`);
  const merged = polygonClipping.union(...kept.map((p) => [p]));
  // project, round to 0.1, drop repeated points
  let polys = merged.map((poly) => poly.map((ring) => {
    const out = [];
    for (const pt of ring) {
      const [x, y] = project(pt);
      const q = [Math.round(x * 10), Math.round(y * 10)];
      const last = out[out.length - 1];
      if (!last || last[0] !== q[0] || last[1] !== q[1]) out.push(q);
    }
    if (out.length > 1 && out[0][0] === out[out.length - 1][0] && out[0][1] === out[out.length - 1][1]) out.pop();
    return out;
  }).filter((r) => r.length >= 3 && Math.abs(ringArea([...r, r[0]])) > 0));
  polys = polys.filter((p) => p.length);
  const area = (p) => Math.abs(ringArea([...p[0], p[0][0]])) / 100;
  polys.sort((a, b) => area(b) - area(a));
  polys = polys.filter((p, i) => i === 0 || area(p) >= MIN_PIECE_AREA || KEEP_SMALL.has(id));
  if (ENLARGE[id]) {
    const [cx, cy] = ringCentroid([...polys[0][0], polys[0][0][0]]);
    const k = ENLARGE[id];
    polys = polys.map((p) => p.map((r) => r.map(([x, y]) => [Math.round(cx + (x - cx) * k), Math.round(cy + (y - cy) * k)])));
  }
  territories[id] = polys;
}

// ---------------------------------------------------------------- path encoding
const num = (t) => { // t in tenths -> shortest decimal string
  const s = (Math.abs(t) / 10).toString().replace(/^0\./, '.');
  return t < 0 ? '-' + s : s;
};
function pair(a, b) { // join two numbers with minimal separator
  const sb = num(b);
  return num(a) + (sb[0] === '-' ? '' : ' ') + sb;
}
function joinNums(nums) {
  let s = '';
  for (const t of nums) {
    const n = num(t);
    if (!s || n[0] === '-' || (n[0] === '.' && /\.\d*$/.test(s.split(/[ \-a-zA-Z]/).pop()))) s += n;
    else s += ' ' + n;
  }
  return s;
}
function encode(polys) {
  let d = '';
  for (const poly of polys) {
    for (const ring of poly) {
      const nums = [];
      for (let i = 1; i < ring.length; i++) nums.push(ring[i][0] - ring[i - 1][0], ring[i][1] - ring[i - 1][1]);
      d += 'M' + pair(ring[0][0], ring[0][1]) + 'l' + joinNums(nums) + 'z';
    }
  }
  return d;
}

// ---------------------------------------------------------------- labels
const r1 = (v) => Math.round(v * 10) / 10;
const labels = {};
const labelRoom = {};
for (const id of ALL_IDS) {
  const main = territories[id][0].map((r) => r.map(([x, y]) => [x / 10, y / 10]));
  const p = polylabel(main, 0.5);
  labelRoom[id] = p.distance;
  labels[id] = LABEL_LONLAT[id] ? project(LABEL_LONLAT[id]).map(r1) : [r1(p[0]), r1(p[1])];
}

// ---------------------------------------------------------------- sea links
const verts = (id) => {
  const big = territories[id].filter((p, i) => i === 0 || Math.abs(ringArea([...p[0], p[0][0]])) / 100 >= LINK_MIN_PIECE);
  return big.flatMap((poly) => poly[0]).map(([x, y]) => [x / 10, y / 10]);
};
function closest(a, b) {
  const va = verts(a), vb = verts(b);
  let best = [Infinity];
  for (const p of va) for (const q of vb) {
    const d = (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2;
    if (d < best[0]) best = [d, p, q];
  }
  return [Math.sqrt(best[0]), best[1], best[2]];
}
const seaLinks = [];
for (const [a, b, opt = {}] of SEA_LINKS) {
  if (opt.skip) continue;
  let d;
  if (a === 'alaska' && b === 'kamchatka') {
    // wraps around the map edge: a stub off the left edge and one off the right edge
    const pa = verts('alaska').reduce((m, p) => (p[0] < m[0] ? p : m));
    const pk = verts('kamchatka').reduce((m, p) => (p[0] > m[0] ? p : m));
    d = `M${r1(pa[0])} ${r1(pa[1])}L0 ${r1(pa[1])}M${r1(pk[0])} ${r1(pk[1])}L${WIDTH} ${r1(pk[1])}`;
  } else {
    let p, q;
    if (opt.via) { p = project(opt.via.slice(0, 2)); q = project(opt.via.slice(2)); }
    else {
      [, p, q] = closest(a, b);
      // extend slightly into both shapes so short crossings stay visible
      const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
      const ext = Math.max(3, (14 - len) / 2);
      const ux = len ? (q[0] - p[0]) / len : 1, uy = len ? (q[1] - p[1]) / len : 0;
      p = [p[0] - ux * ext, p[1] - uy * ext];
      q = [q[0] + ux * ext, q[1] + uy * ext];
    }
    d = `M${r1(p[0])} ${r1(p[1])}L${r1(q[0])} ${r1(q[1])}`;
  }
  seaLinks.push({ a, b, d });
}

// ---------------------------------------------------------------- output + checks
const out = { viewBox: [0, 0, WIDTH, HEIGHT], territories: {}, seaLinks };
for (const id of ALL_IDS) out.territories[id] = { d: encode(territories[id]), label: labels[id] };

const missing = ALL_IDS.filter((id) => !out.territories[id] || !/^M[^]*z$/.test(out.territories[id].d)
  || out.territories[id].d.length < 10);
if (missing.length || Object.keys(out.territories).length !== 42) {
  throw new Error(`map check failed: missing/empty territories: ${missing.join(', ')}`);
}
for (const id of ALL_IDS) {
  const [x, y] = out.territories[id].label;
  if (!(x >= 0 && x <= WIDTH && y >= 0 && y <= HEIGHT)) throw new Error(`label of ${id} outside viewBox`);
  const inside = territories[id].some((poly) => pointInRing([x * 10, y * 10], poly[0])
    && !poly.slice(1).some((hole) => pointInRing([x * 10, y * 10], hole)));
  if (!inside) throw new Error(`label of ${id} is not inside its shape`);
}
for (const l of seaLinks) if (!l.d) throw new Error(`empty sea link ${l.a}-${l.b}`);

mkdirSync(OUT_DIR, { recursive: true });
const json = JSON.stringify(out);
writeFileSync(OUT_FILE, json + '\n');
const report = ALL_IDS.map((id) => `${id}:${territories[id].length}p/${out.territories[id].d.length}c/room${labelRoom[id].toFixed(0)}`);
console.log(report.join('  '));
console.log(`wrote ${OUT_FILE}: ${json.length} bytes, ${gzipSync(json).length} gzipped, viewBox 0 0 ${WIDTH} ${HEIGHT}`);
