//! Test helpers: the headless runner under the name the tests know.

pub use crate::sim::Runner as SceneRun;

/// The viewer's core without a window (`MinimalPlugins` and input), on `core`'s scene,
/// after its first frame: what the viewer tests drive with messages and keys.
#[cfg(feature = "viewer")]
pub fn viewer_app(core: crate::viewer::ViewerCorePlugin) -> bevy::prelude::App {
    use bevy::prelude::*;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::input::InputPlugin))
        .add_plugins(core);
    app.update();
    app
}

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
pub mod crowd;
