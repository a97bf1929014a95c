#!/usr/bin/env python3
"""Sums a wasm file's code by crate, from `twiggy top --format csv` (names section needed).

usage: wasm-by-crate.py FILE.wasm [TWIGGY]

Prints the bytes of each crate's functions (before wasm-opt), the data segments and the rest, largest
first. Generic code is counted where it was instantiated from: `<a::T as b::Trait>::f` counts for `a`.
"""
import csv
import io
import re
import subprocess
import sys
from collections import Counter


def crate_of(name):
    if name.startswith('"') or name.startswith('custom section') or name.startswith('data segment'):
        return 'data and sections: ' + name.split('"')[1] if '"' in name else name
    # Nightly's names carry each crate's disambiguator: `orbis_web[cdd064e2e948db7b]::app::…`.
    m = re.search(r'([A-Za-z_][A-Za-z0-9_]*)(?:\[[0-9a-f]+\])?::', name.lstrip('<&*'))
    if not m:
        return '(unnamed)'
    return m.group(1)


def main():
    wasm = sys.argv[1]
    twiggy = sys.argv[2] if len(sys.argv) > 2 else 'twiggy'
    out = subprocess.run([twiggy, 'top', '-n', '1000000', '--format', 'csv', wasm],
                         check=True, capture_output=True, text=True).stdout
    sums = Counter()
    total = 0
    for row in csv.DictReader(io.StringIO(out)):
        name = row['Name']
        if name.startswith('Σ') or name.startswith('...'):
            continue
        size = int(row['ShallowSize'])
        if ('function names' in name or 'wasm_bindgen_unstable' in name or 'producers' in name
                or 'wbindgen_describe' in name or 'WasmDescribe' in name):
            continue  # stripped by wasm-bindgen from the published file
        total += size
        sums[crate_of(name)] += size
    print(f'{wasm}: {total} bytes of code and data before wasm-opt, by crate:')
    for k, v in sums.most_common(25):
        print(f'  {v:>9}  {100 * v / total:5.1f}%  {k}')


if __name__ == '__main__':
    main()
