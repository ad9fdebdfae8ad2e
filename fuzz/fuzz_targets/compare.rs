//! Any bytes as a scene for `compare`: played under the book's rules and under "Take
//! Initiative!", summarised and compared. A panic or a hang is a bug.
#![no_main]

#[path = "play.rs"]
mod play;

use firststrike::calc::compare::{differences, summary, to_text};
use firststrike::rules::options::RulesSystem;
use firststrike::sim::Runner;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(scene) = play::scene(data) {
        let play = |system| {
            let mut s = scene.clone();
            s.rules.system = system;
            let mut run = Runner::new(s, None, None);
            run.run_to_end();
            summary(run.log())
        };
        let (book, ti) = (play(RulesSystem::Book), play(RulesSystem::TakeInitiative));
        let d = differences(&book, &ti);
        let _ = to_text(&book, &ti, &d);
    }
});
