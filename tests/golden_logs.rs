//! Every library scene's JSON log, as `firststrike run SCENE --format json` prints it,
//! held to the logs saved in `tests/golden/` (the 200-figure scene, 39 MB, to a digest of
//! its log). The engine is redesigned under this test: a change to what any scene logs
//! must be meant, and is made by saving the logs again with `GOLDEN=save cargo test --test
//! golden_logs`, in its own commit that says why.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Scenes whose log is too large to keep whole: a digest is kept instead.
const DIGEST_ONLY: &[&str] = &["stress_200.ron"];

/// FNV-1a, 64 bits: a digest that needs no crate and never changes.
fn fnv(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("fnv1a64 {h:016x} {} bytes\n", bytes.len())
}

fn golden_path(scene: &Path) -> PathBuf {
    let rel = scene.strip_prefix("scenes").unwrap_or(scene);
    let name = rel.to_string_lossy().replace(['/', '\\'], "__");
    let digest = DIGEST_ONLY.iter().any(|d| name.ends_with(d));
    Path::new("tests/golden").join(if digest {
        format!("{name}.digest")
    } else {
        format!("{name}.jsonl")
    })
}

#[test]
fn every_library_scene_logs_what_it_logged_before() {
    let save = std::env::var("GOLDEN").is_ok_and(|v| v == "save");
    let mut differ = Vec::new();
    for scene in firststrike::testing::library_scenes() {
        let out = Command::new(env!("CARGO_BIN_EXE_firststrike"))
            .args(["run", scene.to_str().unwrap(), "--format", "json"])
            .output()
            .expect("the binary runs");
        assert!(
            out.status.success(),
            "{}: {}",
            scene.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let golden = golden_path(&scene);
        let now = if golden.extension().is_some_and(|e| e == "digest") {
            fnv(&out.stdout).into_bytes()
        } else {
            out.stdout
        };
        if save {
            std::fs::create_dir_all("tests/golden").unwrap();
            std::fs::write(&golden, &now).unwrap();
            continue;
        }
        let before = std::fs::read(&golden).unwrap_or_else(|_| {
            panic!("no saved log {}: GOLDEN=save to make it", golden.display())
        });
        if before != now {
            let (b, n) = (
                String::from_utf8_lossy(&before),
                String::from_utf8_lossy(&now),
            );
            let line = b.lines().zip(n.lines()).position(|(x, y)| x != y);
            let first = match line {
                Some(i) => format!(
                    "line {}:\n  saved: {}\n  now:   {}",
                    i + 1,
                    b.lines().nth(i).unwrap_or(""),
                    n.lines().nth(i).unwrap_or("")
                ),
                None => format!(
                    "{} lines saved, {} now",
                    b.lines().count(),
                    n.lines().count()
                ),
            };
            differ.push(format!("{}: {first}", scene.display()));
        }
    }
    assert!(differ.is_empty(), "logs changed:\n{}", differ.join("\n"));
}
