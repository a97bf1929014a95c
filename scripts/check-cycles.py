#!/usr/bin/env python3
"""Fails when modules of a crate import each other in a circle.

usage: check-cycles.py CRATE_SRC_DIR [...]
       check-cycles.py --self-test   (a tree with a cycle fails, the same tree without passes)

Each file is a module (`a/b.rs` and `a/b/mod.rs` are `a::b`; `main.rs`/`lib.rs` the root). A module
depends on another when its code names it: `crate::x::y`, `super::…`, `self::…` or a child module by
name (`use x::…` for a `mod x;` it declares). A child naming its own ancestors (`use super::*`) is how
Rust modules share private items and is not counted; everything else must form layers: the script
prints each cycle it finds and exits 1, or prints the layers (top first) and exits 0.
"""
import os
import re
import sys


def modules(src):
    mods = {}
    for dirpath, _, files in os.walk(src):
        for f in files:
            if not f.endswith('.rs'):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), src)[:-3].split(os.sep)
            if rel[-1] == 'mod':
                rel = rel[:-1]
            if rel in (['main'], ['lib']):
                rel = []
            mods['::'.join(rel)] = os.path.join(dirpath, f)
    return mods


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def resolve(mods, path):
    """The longest module prefix of `path` (a list of names)."""
    for n in range(len(path), -1, -1):
        name = '::'.join(path[:n])
        if name in mods:
            return name
    return None


def grouped(text):
    """The paths a grouped import names, one level of braces deep: `use super::{a, b::c}` names
    `super::a` and `super::b` (issue 63: `use super::{finish, navy}` hid a cycle)."""
    for m in re.finditer(r'\b((?:crate|super|self)(?:::\w+)*)::\{', text):
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {'{': 1, '}': -1}.get(text[j], 0)
            j += 1
        inner, items, depth, cur = text[m.end():j - 1], [], 0, ''
        for ch in inner:
            if ch == ',' and depth == 0:
                items.append(cur)
                cur = ''
                continue
            depth += {'{': 1, '}': -1}.get(ch, 0)
            cur += ch
        items.append(cur)
        for item in items:
            word = re.match(r'\s*(\w+)', item)
            if word and word.group(1) not in ('self', 'super', 'crate'):
                yield m.group(1) + '::' + word.group(1)


def deps(mods, name, text):
    here = name.split('::') if name else []
    out = set()
    paths = [m.group(1) for m in re.finditer(r'\b((?:crate|super|self)(?:::\w+)+)', text)]
    for path in paths + list(grouped(text)):
        parts = path.split('::')
        base = list(here)
        i = 0
        if parts[0] == 'crate':
            base, i = [], 1
        else:
            while i < len(parts) and parts[i] in ('super', 'self'):
                if parts[i] == 'super':
                    base = base[:-1]
                i += 1
        target = resolve(mods, base + parts[i:])
        if target is not None:
            out.add(target)
    # Children named directly (`use lobby::*`, `lobby::f()`).
    for child in re.findall(r'\bmod\s+(\w+)\s*;', text):
        full = '::'.join(here + [child])
        if full in mods and re.search(r'\b' + child + r'::', text):
            out.add(full)
    ancestors = {'::'.join(here[:k]) for k in range(len(here))}
    return {d for d in out if d != name and d not in ancestors}


def cycles(graph):
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            comps.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [sorted(c) for c in comps if len(c) > 1]


def self_test():
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, 'ui'))
        files = {
            'main.rs': 'mod a;\nmod ui;\n',
            'a.rs': 'use crate::ui::b::B;\n',
            'ui/mod.rs': 'pub mod b;\n',
            'ui/b.rs': 'use super::*;\npub struct B;\nfn f() { crate::a::g(); }\n',
        }
        for name, text in files.items():
            with open(os.path.join(d, name), 'w') as f:
                f.write(text)
        run = lambda: subprocess.run([sys.executable, __file__, d], capture_output=True, text=True)
        r = run()
        assert r.returncode == 1 and 'a, ui::b' in r.stdout, r.stdout
        with open(os.path.join(d, 'ui/b.rs'), 'w') as f:
            f.write('use super::*;\npub struct B;\n')
        r = run()
        assert r.returncode == 0, r.stdout
        # A cycle through a grouped import of a sibling.
        with open(os.path.join(d, 'ui/mod.rs'), 'w') as f:
            f.write('pub mod b;\npub mod c;\n')
        with open(os.path.join(d, 'ui/b.rs'), 'w') as f:
            f.write('use super::{c, self};\npub struct B;\nfn f() { c::g(); }\n')
        with open(os.path.join(d, 'ui/c.rs'), 'w') as f:
            f.write('use super::b::B;\npub fn g() {}\n')
        r = run()
        assert r.returncode == 1 and 'ui::b, ui::c' in r.stdout, r.stdout
    print('check-cycles: self-test passed')


def main():
    if sys.argv[1:] == ['--self-test']:
        self_test()
        return
    failed = False
    for src in sys.argv[1:]:
        mods = modules(src)
        graph = {}
        for name, path in mods.items():
            with open(path, encoding='utf-8') as f:
                graph[name] = deps(mods, name, strip_comments(f.read()))
        bad = cycles(graph)
        if bad:
            failed = True
            for c in bad:
                print(f'{src}: modules import each other in a circle: {", ".join(c)}')
                for v in c:
                    inside = sorted(w for w in graph[v] if w in c)
                    print(f'    {v or "(root)"} -> {", ".join(inside)}')
        else:
            # Layers: a module's layer is one more than the deepest it imports.
            depth = {}

            def d(v):
                if v not in depth:
                    depth[v] = 0
                    depth[v] = 1 + max((d(w) for w in graph[v]), default=-1)
                return depth[v]

            for v in graph:
                d(v)
            top = max(depth.values(), default=0)
            print(f'{src}: no cycles; layers, top first:')
            for k in range(top, -1, -1):
                print(f'    {k}: {", ".join(sorted(v or "(root)" for v in graph if depth[v] == k))}')
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
