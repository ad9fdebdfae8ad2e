//! Any bytes as a scene for `odds`: a few trials with every die re-rolled, counted. A
//! panic or a hang is a bug.
#![no_main]

#[path = "play.rs"]
mod play;

use firststrike::calc::odds::{self, Reroll};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(scene) = play::scene(data) {
        let o = odds::run(&scene, 4, scene.seed, &Reroll::All, None);
        let _ = odds::to_text(&scene.name, &o);
    }
});
