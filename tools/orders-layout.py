#!/usr/bin/env python3
"""Writes web/map/orders-layout.json: node positions of the orders maps for the browser client
(run after changing a map's provinces; the web crate's build.rs embeds the JSON).
Europe: hand-placed at rough geographic positions in a 1000x800 box. World: the classic map's
label points (web/map/classic-map.json) for land, hand-placed sea nodes."""
import json, re, os
ROOT = os.path.join(os.path.dirname(__file__), '..')
EUROPE = {
 'NAO': (110, 170), 'NWG': (380, 60), 'BAR': (720, 25), 'NTH': (365, 255), 'IRI': (175, 320),
 'ENG': (235, 395), 'MAO': (85, 500), 'HEL': (415, 295), 'SKA': (455, 215), 'BAL': (565, 250),
 'BOT': (600, 175), 'WES': (250, 660), 'LYO': (330, 620), 'TYS': (430, 680), 'ION': (545, 750),
 'ADR': (495, 585), 'AEG': (685, 710), 'EAS': (800, 765), 'BLA': (800, 535),
 'CLY': (250, 185), 'EDI': (300, 185), 'LVP': (258, 245), 'YOR': (305, 265), 'WAL': (240, 300),
 'LON': (300, 320), 'NWY': (470, 135), 'SWE': (545, 140), 'FIN': (650, 110), 'STP': (770, 165),
 'STP/NC': (790, 80), 'STP/SC': (700, 200), 'DEN': (490, 270), 'BRE': (245, 455), 'PIC': (305, 410),
 'BEL': (355, 385), 'HOL': (395, 350), 'PAR': (295, 470), 'BUR': (360, 470), 'GAS': (255, 530),
 'MAR': (335, 550), 'SPA': (185, 600), 'SPA/NC': (170, 555), 'SPA/SC': (215, 645), 'POR': (100, 610),
 'NAF': (180, 750), 'TUN': (365, 750), 'KIE': (460, 345), 'BER': (525, 320), 'PRU': (595, 305),
 'RUH': (420, 410), 'MUN': (455, 455), 'SIL': (555, 380), 'LVN': (670, 270), 'MOS': (800, 290),
 'WAR': (625, 370), 'UKR': (730, 400), 'SEV': (840, 430), 'BOH': (515, 430), 'GAL': (625, 440),
 'VIE': (545, 480), 'TYR': (480, 505), 'BUD': (610, 500), 'RUM': (705, 505), 'TRI': (530, 535),
 'SER': (620, 565), 'BUL': (690, 590), 'BUL/EC': (735, 565), 'BUL/SC': (690, 640), 'PIE': (395, 545),
 'VEN': (450, 555), 'TUS': (430, 600), 'ROM': (470, 640), 'APU': (540, 630), 'NAP': (530, 690),
 'ALB': (585, 620), 'GRE': (630, 680), 'CON': (750, 625), 'ANK': (860, 600), 'ARM': (945, 600),
 'SMY': (830, 680), 'SYR': (945, 715),
}
WORLD_SEAS = {
 'NPA': (30, 215), 'EPA': (110, 330), 'CAR': (225, 300), 'HUD': (240, 95), 'NAT': (360, 190),
 'ARC': (560, 22), 'BER': (975, 40), 'NOS': (438, 128), 'BAL': (542, 118), 'MED': (490, 232),
 'BLK': (562, 178), 'SAT': (390, 440), 'RED': (590, 320), 'IOC': (690, 420), 'SCS': (835, 330),
 'JSE': (905, 150), 'WPA': (970, 290), 'SPO': (975, 440),
}
art = json.load(open(os.path.join(ROOT, 'web/map/classic-map.json')))
labels = {k: v['label'] for k, v in art['territories'].items()}
ron = open(os.path.join(ROOT, 'crates/engine/maps/world.ron')).read()
world = {}
for key, name, kind in re.findall(r'\(id: "(\w+)", name: "([^"]+)", kind: (\w+)', ron):
    if kind == 'Sea':
        world[key] = WORLD_SEAS[key]
    else:
        t = name.lower().replace(' ', '_')
        world[key] = tuple(round(c, 1) for c in labels[t])
eur_keys = set(re.findall(r"\(id: \"(\w+)\", name: \"[^\"]+\", kind", open(os.path.join(ROOT, 'crates/engine/maps/europe-1901.ron')).read()))
assert eur_keys == {k for k in EUROPE if '/' not in k}, eur_keys ^ set(EUROPE)
# The world map is drawn 1.3 times larger (the classic artwork scaled up) so that its nodes keep
# the size of the Europe map's and do not overlap in Europe.
S = 1.3
world = {k: (round(x * S, 1), round(y * S, 1)) for k, (x, y) in world.items()}
out = {
 'europe-1901': {'viewBox': [0, 0, 1000, 800], 'artScale': 0, 'nodes': EUROPE},
 'world': {'viewBox': [round(v * S, 1) for v in art['viewBox']], 'artScale': S, 'nodes': world},
}
json.dump(out, open(os.path.join(ROOT, 'web/map/orders-layout.json'), 'w'), separators=(",", ":"))
print('ok', len(EUROPE), len(world))
