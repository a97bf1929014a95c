//! The worker's build id (`orbis_worker::BUILD`, issue 62): a hash of everything that decides a
//! computer player's choice -- the engine's and this crate's sources and manifests, and the
//! workspace's lock file. The page (which links this lib) and the worker (its bin) each carry
//! it; a page served with a worker of another build (a stale cache, a partial deploy) sees a
//! different id when the worker says it is ready, and thinks itself instead (crates/web's
//! think.rs), so it never plays moves its own engine would not.

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn main() {
    let here = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let here = std::fs::canonicalize(&here).unwrap_or(here);
    let root = here.join("../..");
    let root = std::fs::canonicalize(&root).unwrap_or(root);
    let watched = [
        root.join("crates/engine/src"),
        root.join("crates/engine/Cargo.toml"),
        here.join("src"),
        here.join("Cargo.toml"),
        root.join("Cargo.lock"),
    ];
    let mut all = vec![];
    for w in &watched {
        println!("cargo:rerun-if-changed={}", w.display());
        if w.is_dir() {
            files(w, &mut all);
        } else {
            all.push(w.clone());
        }
    }
    all.sort();
    // FNV-1a (64 bits) over each file's path inside the workspace and its bytes: the same id
    // on every machine for the same sources.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |b: &[u8]| {
        for &x in b {
            h ^= u64::from(x);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for f in &all {
        let rel = f.strip_prefix(&root).unwrap_or(f);
        eat(rel.to_string_lossy().replace('\\', "/").as_bytes());
        eat(&[0]);
        eat(&std::fs::read(f).unwrap_or_default());
        eat(&[0]);
    }
    println!("cargo:rustc-env=ORBIS_WORKER_BUILD={h:016x}");
}
