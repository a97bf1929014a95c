//! Converts the RON map files to the canonical bincode encoding at build time, so the engine (and
//! the wasm bundle) decodes maps with the codec it already has instead of carrying a RON parser.
//! A map file that does not parse fails the build with its path and the parser's message; the
//! engine still validates every map (adjacency, continents, coasts…) when it loads it.

#[path = "src/map_file.rs"]
#[allow(dead_code)]
mod classic_file;
#[path = "src/rules/economy/map_file.rs"]
#[allow(dead_code)]
mod economy_file;
#[path = "src/rules/orders/map_file.rs"]
#[allow(dead_code)]
mod orders_file;

use std::path::PathBuf;

fn convert<T: serde::de::DeserializeOwned + serde::Serialize>(name: &str) {
    let src = format!("maps/{name}.ron");
    println!("cargo:rerun-if-changed={src}");
    let text = std::fs::read_to_string(&src).unwrap_or_else(|e| panic!("{src}: {e}"));
    let file: T =
        ron::from_str(&text).unwrap_or_else(|e| panic!("{src} is not a valid map file: {e}"));
    let bytes =
        bincode::serde::encode_to_vec(&file, bincode::config::standard()).expect("encode map");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join(format!("{name}.bin"));
    std::fs::write(&out, bytes).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}

fn main() {
    println!("cargo:rerun-if-changed=src/map_file.rs");
    println!("cargo:rerun-if-changed=src/rules/orders/map_file.rs");
    println!("cargo:rerun-if-changed=src/rules/economy/map_file.rs");
    convert::<classic_file::MapFile>("classic");
    convert::<orders_file::MapFile>("europe-1901");
    convert::<orders_file::MapFile>("world");
    convert::<economy_file::MapFile>("economy");
}
