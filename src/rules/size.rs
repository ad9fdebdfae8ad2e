//! A creature's size (Monster Manual: S smaller than a man, M man-sized, L larger), as the
//! map draws it and as rules that count attackers on a target will read it.

use serde::{Deserialize, Serialize};

/// Small, man-sized, large or huge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Size {
    /// Smaller than a man (a halfling, a kobold).
    S,
    /// Man-sized.
    #[default]
    M,
    /// Larger than a man (an ogre, a giant, a horse).
    L,
    /// Huge (a dragon, a titan, a purple worm): the Monster Manual writes L for these too,
    /// so a scene marks one H where a rule reads it (ganging up: room for 8).
    H,
}

impl Size {
    /// How much bigger than a man-sized token its token is drawn.
    pub fn token_scale(self) -> f32 {
        match self {
            Size::S => 0.75,
            Size::M => 1.0,
            Size::L => 1.6,
            Size::H => 2.4,
        }
    }

    /// Its letter, as the Monster Manual writes it.
    pub fn letter(self) -> char {
        match self {
            Size::S => 'S',
            Size::M => 'M',
            Size::L => 'L',
            Size::H => 'H',
        }
    }
}
