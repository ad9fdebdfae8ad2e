//! Checks of a scene's guided tour: each caption at a round the scene plays and a segment
//! of a round, with words of a caption's length.

use super::{Checker, q};
use crate::scene::Scene;

/// The longest caption, in characters: a few sentences fit the caption box.
pub const MAX_CAPTION: usize = 400;

/// Checks the tour's captions.
pub(super) fn check(c: &mut Checker, scene: &Scene) {
    let rounds = (scene.rounds.len() as u32).max(1);
    for (i, stop) in scene.tour.iter().enumerate() {
        let (r, s) = stop.at;
        let at = vec!["tour".to_string(), q(&stop.text)];
        let problem = if r > rounds {
            Some(format!(
                "a caption at round {r}, but the scene plays {rounds}"
            ))
        } else if s > 10 {
            Some(format!(
                "a caption at segment {s}: a round has segments 0 to 10"
            ))
        } else if stop.text.trim().is_empty() {
            Some("an empty caption".to_string())
        } else if stop.text.chars().count() > MAX_CAPTION {
            Some(format!(
                "a caption of {} characters: at most {MAX_CAPTION}",
                stop.text.chars().count()
            ))
        } else {
            None
        };
        if let Some(m) = problem {
            c.add(&at, format!("tour[{i}]"), m, None);
        }
    }
}
