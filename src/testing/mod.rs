//! Test helpers: the headless runner under the name the tests know.

pub use crate::sim::Runner as SceneRun;

/// Every scene file in `scenes/` and its folders (such as `scenes/take_initiative/`),
/// sorted.
pub fn library_scenes() -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
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
    let mut out = Vec::new();
    walk(std::path::Path::new("scenes"), &mut out);
    out.sort();
    out
}

pub mod battle;
