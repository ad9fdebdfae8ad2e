//! The viewer's modes, one at a time, as a Bevy [`States`]: watching the round (the
//! default), building or changing the encounter, predicting before each beat, and entering
//! the dice rolled at the table. A key or a top-bar box switches a mode on, and again back
//! to watching; entering one leaves the one before (the edits of the editor stay, unsaved
//! and autosaved, while another mode is on).

use bevy::prelude::*;
use bevy::state::state::StateTransition;

/// What the DM is doing in the viewer.
#[derive(States, Default, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ViewerMode {
    /// Watching the round, step by step.
    #[default]
    View,
    /// Building or changing the encounter on the map (B).
    Edit,
    /// Predict, then see: the playback holds before each beat a question asks about (K).
    Predict,
    /// The dice rolled at the table are typed in as the round asks for them (X).
    TableDice,
}

impl ViewerMode {
    /// The mode after switching `to`: on, or back to watching if it was already on.
    pub fn switched(self, to: ViewerMode) -> ViewerMode {
        if self == to { ViewerMode::View } else { to }
    }
}

/// The mode on now.
pub fn mode(world: &World) -> ViewerMode {
    world
        .get_resource::<State<ViewerMode>>()
        .map_or(ViewerMode::View, |s| *s.get())
}

/// Sets the mode at once, from an exclusive system or a test: the state changes now, not
/// at the next frame's transition.
pub fn set_now(world: &mut World, to: ViewerMode) {
    world.resource_mut::<NextState<ViewerMode>>().set(to);
    world.run_schedule(StateTransition);
}

/// A run condition: not `m` (the opposite of `in_state(m)`).
pub fn not_in(m: ViewerMode) -> impl Fn(Res<State<ViewerMode>>) -> bool + Clone {
    move |s: Res<State<ViewerMode>>| *s.get() != m
}

/// Switches `to` on (or back to watching) from a system: at the next frame's transition.
pub fn switch(now: &State<ViewerMode>, next: &mut NextState<ViewerMode>, to: ViewerMode) {
    next.set(now.get().switched(to));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mode_switches_on_and_back_to_watching() {
        use ViewerMode::*;
        assert_eq!(View.switched(Edit), Edit);
        assert_eq!(Edit.switched(Edit), View);
        assert_eq!(Edit.switched(Predict), Predict, "one mode at a time");
        assert_eq!(Predict.switched(TableDice), TableDice);
    }
}
