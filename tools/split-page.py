#!/usr/bin/env python3
"""Splits a page's wasm in two, so that its first load is what shows its first screens.

The online page carries three rulesets, the protocol and the deal's cryptography (about 1 MB
gzipped in one file), the full page the orders and economy rulesets (about 600 KB); most of it is
needed only once a game starts. This runs binaryen's `wasm-split` (Debian's binaryen 108,
unpacked by scripts/install-web-tools.sh) guided by a profile: the functions the page runs from
its start to its first screens, entered the ways players enter them (measured in headless
Chromium by tools/split-profile.mjs: the online page's menu and lobby; the full page's menu, the
new-game form of each ruleset and How to play), stay in the page's wasm; every other function
moves to `<name>-<hash>_more.wasm`, named after its content (web/post-build.sh then names the glue
and the first part after theirs, so a browser never mixes the files of two builds), which the
page fetches in the background once it is up (web/split-loader.js), while the player reads the
menu or fills in the form. A call to a function of the second file before it is in loads it
there and then, synchronously, blocking the page meanwhile: so the page still works where the
profile missed a function, only less smoothly. A start that needs the rest at once (a saved game
to resume, a room to rejoin, a quick game) waits for it instead (web/split-loader.js). The data
segments (texts, maps) stay in the first part: binaryen splits functions only.

Usage (from web/post-build.sh, in Trunk's staging directory, on the wasm-bindgen output before
terser and minify-imports): split-page.py PAGE GLUE.js MODULE_bg.wasm, PAGE online, full or lite.
Writes MODULE_bg.wasm (the first part, optimised), MODULE-HASH_more.wasm (the rest, optimised)
and GLUE.js (the loader at its top, hooked into the glue's imports, its finalize step and its
start). Fails, with a message,
if any step does: the build must not publish a page that cannot load its code.
"""

import base64
import hashlib
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WASM_SPLIT = os.path.join(ROOT, ".tools", "binaryen-split", "usr", "bin", "wasm-split")
# The pages are built for these wasm features only (scripts/web-toolchain.sh): binaryen 108 reads
# no reference types, which newer Rust and wasm-bindgen use by default.
FEATURES = ["--enable-bulk-memory", "--enable-sign-ext", "--enable-mutable-globals",
            "--enable-nontrapping-float-to-int"]


def fail(msg):
    sys.exit(f"split-page: {msg}")


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{os.path.basename(args[0])} failed:\n{r.stdout}{r.stderr}")
    return r.stdout


def patch_glue(js, loader):
    """The loader at the top; the placeholders among the imports; the loader told of the exports."""
    js, n = re.subn(r'("\./[\w.-]+_bg\.js": import0,)', r"\1\n        p: __orbisMore.placeholders,", js)
    if n != 1:
        fail(f"the glue's import object was found {n} times, not once (a new wasm-bindgen?)")
    js, n = re.subn(r"(\n(\s*)wasm = instance\.exports;)", r"\1\n\2__orbisMore.started(wasm);", js)
    if n != 1:
        fail(f"the glue's finalize step was found {n} times, not once (a new wasm-bindgen?)")
    js, n = re.subn(r"(\n(\s*)const \{ instance, module \} = await __wbg_load\([^\n]*\);)",
                    r"\1\n\2await __orbisMore.beforeStart(instance.exports);", js)
    if n != 1:
        fail(f"the glue's asynchronous start was found {n} times, not once (a new wasm-bindgen?)")
    return loader + "\n" + js


# The LEB128 reader of tools/minify-imports.py (a file name Python cannot import by name).
_spec = importlib.util.spec_from_file_location(
    "minify_imports", os.path.join(os.path.dirname(os.path.abspath(__file__)), "minify-imports.py"))
_minify = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_minify)
leb = _minify.leb


def sections(wasm):
    """A wasm module's sections, in order: (id, start of its body, end)."""
    i = 8
    while i < len(wasm):
        size, body = leb(wasm, i + 1)
        yield wasm[i], body, body + size
        i = body + size


def exports(wasm):
    """The export names of a wasm module (to check the table the loader reads is there)."""
    names = []
    for sid, body, _ in sections(wasm):
        if sid == 7:
            count, j = leb(wasm, body)
            for _ in range(count):
                n, j = leb(wasm, j)
                names.append(wasm[j:j + n].decode())
                j = leb(wasm, j + n + 1)[1]
    return names


def sri(path):
    with open(path, "rb") as f:
        return "sha384-" + base64.b64encode(hashlib.sha384(f.read()).digest()).decode()


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("online", "full", "lite"):
        fail("usage: split-page.py online|full|lite GLUE.js MODULE_bg.wasm")
    page, js_path, wasm_path = sys.argv[1:]
    if not wasm_path.endswith("_bg.wasm"):
        fail(f"{wasm_path}: not a wasm-bindgen module")
    if not os.access(WASM_SPLIT, os.X_OK):
        fail(f"{WASM_SPLIT} is missing: run scripts/install-web-tools.sh")
    staging = os.path.dirname(os.path.abspath(wasm_path))
    with open(js_path, encoding="utf-8") as f:
        js = f.read()
    with open(os.path.join(ROOT, "web", "split-loader.js"), encoding="utf-8") as f:
        loader = f.read().replace("__ORBIS_PAGE__", page)
    with open(js_path, "w", encoding="utf-8") as f:
        f.write(patch_glue(js, loader))
    with tempfile.TemporaryDirectory() as tmp:
        instrumented = os.path.join(tmp, "instrumented.wasm")
        profile = os.path.join(tmp, "profile")
        first, rest = os.path.join(tmp, "first.wasm"), os.path.join(tmp, "rest.wasm")
        run([WASM_SPLIT, "--instrument", wasm_path, "-o", instrumented])
        print(run(["node", os.path.join(ROOT, "tools", "split-profile.mjs"), page, staging, instrumented,
                   os.path.join(tmp, "entry")]).strip())
        entries = sorted(f for f in os.listdir(tmp) if f.startswith("entry"))
        if not entries:
            fail("tools/split-profile.mjs wrote no profile")
        run([WASM_SPLIT, "--merge-profiles", *(os.path.join(tmp, f) for f in entries), "-o", profile])
        run([WASM_SPLIT, wasm_path, f"--profile={profile}", "-o1", first, "-o2", rest,
             "--placeholder-namespace=p", "--import-namespace=m", "--export-prefix=%"])
        run(["wasm-opt", *FEATURES, "-Oz", "--converge", "--strip-debug", "--strip-producers",
             first, "-o", wasm_path])
        run(["wasm-opt", *FEATURES, "-Oz", "--converge", "--strip-debug", "--strip-producers",
             rest, "-o", os.path.join(tmp, "rest-opt.wasm")])
        with open(os.path.join(tmp, "rest-opt.wasm"), "rb") as f:
            rest_bytes = f.read()
        # The loader may instantiate the rest twice (the background and a placeholder at once):
        # harmless only while it has no start function, memory, table, globals or data of its own.
        own = {sid for sid, _, _ in sections(rest_bytes)} & {4, 5, 6, 8, 11}
        if own:
            fail(f"the rest has sections {sorted(own)} of its own (start, memory, table, globals "
                 "or data): instantiating it twice would not be harmless")
        digest = hashlib.sha256(rest_bytes).hexdigest()[:16]
        more_path = wasm_path[: -len("_bg.wasm")] + f"-{digest}_more.wasm"
        with open(more_path, "wb") as f:
            f.write(rest_bytes)
    with open(wasm_path, "rb") as f:
        if "%table" not in exports(f.read()):
            fail("the first part exports no %table (the loader needs it)")
    with open(js_path, encoding="utf-8") as f:
        js = f.read()
    js = js.replace("__ORBIS_MORE_FILE__", os.path.basename(more_path))
    js = js.replace("__ORBIS_MORE_SRI__", sri(more_path))
    with open(js_path, "w", encoding="utf-8") as f:
        f.write(js)
    print(f"split-page: {page}: {os.path.getsize(wasm_path)} B first, {os.path.getsize(more_path)} B "
          f"later ({os.path.basename(more_path)})")


if __name__ == "__main__":
    main()
