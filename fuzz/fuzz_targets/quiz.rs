//! Any bytes as a scene for `quiz`: the lesson is played, every question asked and
//! answered (with a choice taken from the bytes, in range or not), the score kept. A
//! panic or a hang is a bug.
#![no_main]

#[path = "play.rs"]
mod play;

use firststrike::teach::{Lesson, Quiz};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(scene) = play::scene(data) {
        let lesson = Lesson::play(scene, None);
        let mut quiz = Quiz::new(&lesson);
        let mut picks = data.iter().rev();
        while let Some((i, q)) = quiz.next() {
            let n = q.choices.len();
            let pick = usize::from(*picks.next().unwrap_or(&0)) % n.max(1);
            let _ = quiz.answer(i, pick);
        }
        let (right, asked) = quiz.score();
        assert!(right <= asked);
    }
});
