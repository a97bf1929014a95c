"""Writes the PNG app icons (a stylised globe) with the standard library only."""
import math, struct, zlib

def png(size, path):
    rows = []
    palette = []
    c = size / 2
    r = size * 0.42
    for y in range(size):
        row = bytearray([0])  # filter: none; one palette index per pixel
        for x in range(size):
            dx, dy = x + 0.5 - c, y + 0.5 - c
            d = math.hypot(dx, dy)
            col = (22, 50, 79)  # background
            if d < r:
                col = (46, 125, 196)
                lat = dy / r
                lon = dx / math.sqrt(max(r * r - dy * dy, 1e-6))
                # land blobs
                if (0.1 < lon < 0.7 and -0.6 < lat < 0.1) or (-0.8 < lon < -0.2 and -0.2 < lat < 0.6) or (0.3 < lon < 0.6 and 0.3 < lat < 0.55):
                    col = (214, 40, 57) if lon > 0 else (240, 192, 47)
                if abs(lon) < 0.03 or abs(lat) < 0.02 or abs(abs(lon) - 0.6) < 0.02:
                    col = (230, 240, 250)
            if abs(d - r) < size * 0.018:
                col = (230, 240, 250)
            if col not in palette:
                palette.append(col)
            row.append(palette.index(col))
        rows.append(bytes(row))
    raw = b"".join(rows)
    def chunk(t, data):
        return struct.pack(">I", len(data)) + t + data + struct.pack(">I", zlib.crc32(t + data) & 0xFFFFFFFF)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 3, 0, 0, 0))
    out += chunk(b"PLTE", b"".join(bytes(p) for p in palette))
    out += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    open(__import__("os").path.join(__import__("os").path.dirname(__file__), "icons", path), "wb").write(out)

for s in (192, 512):
    png(s, f"icon-{s}.png")
