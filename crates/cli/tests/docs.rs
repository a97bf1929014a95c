//! The commands the README and `docs/` show still work (issue 63): every line of a ```sh block that
//! runs `orbis` (as `cargo run … -p orbis-cli -- …`) is run here against the built binary, through
//! bash so that the examples' shell syntax is what is tested; every `bash scripts/…` line names a
//! script that exists. A reader who copies an example gets what the docs say.

use std::path::{Path, PathBuf};
use std::process::Command;

const CARGO_ORBIS: &str = "cargo run --release -p orbis-cli --";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every line inside a ```sh fence of the README and the docs, with the file it came from.
fn sh_lines() -> Vec<(String, String)> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let mut inside = false;
        for line in text.lines() {
            let t = line.trim();
            if t.starts_with("```") {
                inside = !inside && t == "```sh";
                continue;
            }
            if inside && !t.is_empty() && !t.starts_with('#') {
                // A comment after the command (two spaces and `#`) is the docs' explanation.
                let cmd = t.split("  #").next().unwrap().trim().to_string();
                out.push((f.file_name().unwrap().to_string_lossy().into_owned(), cmd));
            }
        }
    }
    out
}

#[test]
fn every_orbis_example_in_the_docs_runs() {
    let lines = sh_lines();
    let orbis: Vec<_> = lines
        .iter()
        .filter(|(_, c)| c.starts_with(CARGO_ORBIS))
        .collect();
    assert!(
        orbis.len() >= 3,
        "the docs lost their orbis examples: {lines:?}"
    );
    for (file, cmd) in orbis {
        let script = cmd.replacen(CARGO_ORBIS, "\"$ORBIS\"", 1);
        let o = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .env("ORBIS", env!("CARGO_BIN_EXE_orbis"))
            .output()
            .expect("run bash");
        assert!(
            o.status.success() && !o.stdout.is_empty(),
            "{file}: `{cmd}` failed: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn every_script_the_docs_run_exists() {
    let lines = sh_lines();
    let scripts: Vec<_> = lines
        .iter()
        .filter_map(|(f, c)| Some((f, c.strip_prefix("bash ")?.split_whitespace().next()?)))
        .collect();
    assert!(scripts.len() >= 2, "the README lost its two commands");
    for (file, s) in scripts {
        assert!(root().join(s).is_file(), "{file}: {s} does not exist");
    }
}
