//! Builds the scene library into the binary: every `.ron` file under `scenes/`, by its
//! path inside that folder, so `firststrike run lizard_man_lair` and `firststrike view`
//! work from any folder (`src/scene/library.rs`).

use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "ron") {
            out.push(p);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let scenes = root.join("scenes");
    println!("cargo::rerun-if-changed=scenes");
    let mut files = Vec::new();
    walk(&scenes, &mut files);
    files.sort();
    let mut table = String::from("&[\n");
    for f in &files {
        println!("cargo::rerun-if-changed={}", f.display());
        let name = f
            .strip_prefix(&scenes)
            .expect("under scenes/")
            .to_string_lossy()
            .replace('\\', "/");
        table.push_str(&format!(
            "    ({name:?}, include_str!({:?})),\n",
            f.display().to_string()
        ));
    }
    table.push(']');
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("library.rs");
    std::fs::write(out, table).expect("OUT_DIR is writable");
}
