//! What the fuzz targets that play a scene share: any bytes as a scene file, parsed; a
//! scene that parses is handed on, an error must be located and render. The scene's size
//! is kept to what a trial can play quickly (the fuzzer looks for panics, not slowness).

use firststrike::scene::{Scene, parse};

/// The scene the bytes make, if they make one small enough to play many times.
pub fn scene(data: &[u8]) -> Option<Scene> {
    let src = std::str::from_utf8(data).ok()?;
    match parse("fuzz.ron", src) {
        Err(errors) => {
            for e in &errors.0 {
                assert!(e.line >= 1 && e.column >= 1, "unlocated: {e}");
            }
            assert!(errors.render().len() < 100_000, "errors echo the input back");
            None
        }
        Ok(scene) => (scene.combatants.len() <= 24 && scene.rounds.len() <= 6).then_some(scene),
    }
}
