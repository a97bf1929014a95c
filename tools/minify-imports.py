#!/usr/bin/env python3
"""Shortens the names the wasm module imports from its wasm-bindgen glue, in both files.

wasm-bindgen names every import after the JS function and a 16-digit hash
(`__wbg_addEventListener_f2d27251d333a631`), and each name is written twice: in the wasm's import
section and as a key of the glue's import object. Hashes do not compress, so the lite page paid
about 3 KB gzipped for them. This gives each import of the glue's module a short name ("a", "b", …)
in both files. Exports keep their names (the glue, Trunk's loader and the tests call them).

Usage: minify-imports.py MODULE.wasm GLUE.js (both rewritten in place; run by web/post-build.sh
on release builds). Fails, changing nothing, on a wasm it cannot read.
"""

import re
import string
import sys


def leb(data, i):
    """Reads an unsigned LEB128 at i; returns (value, next index)."""
    value = shift = 0
    while True:
        b = data[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return value, i


def to_leb(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def name(data, i):
    n, i = leb(data, i)
    return data[i : i + n].decode(), i + n


def skip_limits(data, i):
    flags = data[i]
    if flags > 7:
        raise ValueError(f"unknown limits flags {flags:#x}")
    _, i = leb(data, i + 1)
    if flags & 1:
        _, i = leb(data, i)
    return i


def skip_desc(data, i):
    """Skips an import's description (function, table, memory, global or tag)."""
    kind = data[i]
    i += 1
    if kind == 0:  # function: type index
        return leb(data, i)[1]
    if kind == 1:  # table: reference type, limits
        if data[i] not in (0x70, 0x6F):
            raise ValueError(f"unknown table type {data[i]:#x}")
        return skip_limits(data, i + 1)
    if kind == 2:  # memory: limits
        return skip_limits(data, i)
    if kind == 3:  # global: value type, mutability
        if data[i] not in (0x7F, 0x7E, 0x7D, 0x7C, 0x7B, 0x70, 0x6F):
            raise ValueError(f"unknown global type {data[i]:#x}")
        return i + 2
    if kind == 4:  # tag: attribute, type index
        return leb(data, i + 1)[1]
    raise ValueError(f"unknown import kind {kind}")


def short_names():
    """a, b, …, Z, then aa, ab, …: letters only, so every one is a plain JS property name."""
    letters = string.ascii_lowercase + string.ascii_uppercase
    for n in range(1, 4):
        stack = [""]
        for _ in range(n):
            stack = [p + c for p in stack for c in letters]
        yield from stack


def minify(wasm, js):
    if wasm[:8] != b"\0asm\1\0\0\0":
        raise ValueError("not a wasm module")
    glue_module = None
    out = bytearray(wasm[:8])
    renames = {}
    i = 8
    while i < len(wasm):
        sid = wasm[i]
        size, body = leb(wasm, i + 1)
        end = body + size
        if sid != 2:
            out += wasm[i:end]
            i = end
            continue
        count, j = leb(wasm, body)
        names = short_names()
        section = bytearray(to_leb(count))
        for _ in range(count):
            module, j = name(wasm, j)
            field, j = name(wasm, j)
            desc_start = j
            j = skip_desc(wasm, j)
            if module.startswith("./") and module.endswith(".js"):
                if glue_module not in (None, module):
                    raise ValueError("imports from two JS modules")
                glue_module = module
                if field not in renames:
                    renames[field] = next(names)
                field = renames[field]
            for s in (module, field):
                section += to_leb(len(s.encode())) + s.encode()
            section += wasm[desc_start:j]
        if j != end:
            raise ValueError("import section not read to its end")
        out += bytes([2]) + to_leb(len(section)) + section
        i = end
    if not renames:
        raise ValueError("no imports from the JS glue")
    for old, new in renames.items():
        js, n = re.subn(r"(?<![\w$])" + re.escape(old) + r"(?![\w$])", new, js)
        if n == 0:
            raise ValueError(f"the glue never names {old}")
    return bytes(out), js, len(renames)


def main():
    wasm_path, js_path = sys.argv[1:3]
    with open(wasm_path, "rb") as f:
        wasm = f.read()
    with open(js_path, encoding="utf-8") as f:
        js = f.read()
    try:
        new_wasm, new_js, n = minify(wasm, js)
    except (ValueError, IndexError, UnicodeDecodeError) as e:
        sys.exit(f"minify-imports: {wasm_path}: {e}")
    with open(wasm_path, "wb") as f:
        f.write(new_wasm)
    with open(js_path, "w", encoding="utf-8") as f:
        f.write(new_js)
    print(f"minify-imports: {n} imports renamed, {len(wasm) - len(new_wasm)} bytes fewer in the wasm, "
          f"{len(js) - len(new_js)} in the glue")


if __name__ == "__main__":
    main()
