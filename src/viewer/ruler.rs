//! The ruler's state: a drag across the map measures feet (drawn by the map, labelled by
//! the panels).

use bevy::prelude::*;

/// The ruler: a drag from one point to another, in feet.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct Ruler {
    /// Start and end in feet, when measuring.
    pub line: Option<((f64, f64), (f64, f64))>,
    /// Where its label goes, in window pixels: where the drag is, or ended.
    pub label_px: Option<Vec2>,
}
