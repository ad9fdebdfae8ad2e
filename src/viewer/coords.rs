//! Feet on the map and points in the world: y runs down the map (south) and up the world.

use bevy::prelude::Vec2;

/// Where a point in feet sits in the world.
pub fn world_of(p: (f64, f64)) -> Vec2 {
    Vec2::new(p.0 as f32, -p.1 as f32)
}

/// Feet of a world point.
pub fn feet_of(w: Vec2) -> (f64, f64) {
    (f64::from(w.x), f64::from(-w.y))
}
