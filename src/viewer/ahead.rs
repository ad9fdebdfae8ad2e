//! The selected figure's round played ahead (made by [`super::preview`]), as the map and
//! the figure panel read it.

use bevy::prelude::*;

/// The selected figure's round ahead.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Preview {
    /// Whose, in which round, for which scene load: what it was made for.
    pub key: Option<(usize, u32, u32)>,
    /// Where it starts the round, in feet.
    pub from: (f64, f64),
    /// Where it is at the end of each segment it moves in: (segment, point).
    pub ticks: Vec<(u32, (f64, f64))>,
    /// How far it could move this round, and charge, in feet.
    pub reach_ft: (f64, f64),
    /// Where it meets its target, and the target's reach, if it does.
    pub contact: Option<((f64, f64), f64)>,
    /// The segment it arrives in this round, as the engine played it.
    pub arrival: Option<u32>,
}
