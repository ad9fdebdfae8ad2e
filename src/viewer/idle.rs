//! An idle viewer sleeps. bevy_egui 0.42 tells egui that the modifier keys changed on every
//! frame, changed or not (`write_egui_input_system`); egui takes any input event as a
//! reason to paint again at once, so bevy_egui asks for a redraw every frame and the
//! reactive update mode never sleeps — an idle window kept lavapipe busy at 170% of a
//! core. Here the modifier events that repeat the last state are dropped before egui's
//! pass begins; a real change (Ctrl pressed or released) still reaches egui.

use bevy::prelude::*;
use bevy_egui::{EguiInput, EguiPreUpdateSet, egui};
use std::collections::HashMap;

/// Drops each egui context's modifier events that only repeat its last modifiers.
pub(super) fn drop_repeated_modifiers(
    mut inputs: Query<(Entity, &mut EguiInput)>,
    mut last: Local<HashMap<Entity, egui::Modifiers>>,
) {
    for (entity, mut input) in &mut inputs {
        let seen = last.get(&entity).copied();
        let mut now = seen;
        input.events.retain(|e| match e {
            egui::Event::ModifiersChanged(m) => {
                let repeat = now == Some(*m);
                now = Some(*m);
                !repeat
            }
            _ => true,
        });
        if let Some(m) = now {
            last.insert(entity, m);
        }
    }
}

/// The plugin: the filter runs after bevy_egui has written its input, before the pass.
pub(super) struct IdlePlugin;

impl Plugin for IdlePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            PreUpdate,
            drop_repeated_modifiers
                .after(EguiPreUpdateSet::ProcessInput)
                .before(EguiPreUpdateSet::BeginPass),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events_after(app: &mut App, e: Entity, sent: Vec<egui::Event>) -> Vec<egui::Event> {
        app.world_mut().get_mut::<EguiInput>(e).unwrap().events = sent;
        app.update();
        app.world().get::<EguiInput>(e).unwrap().events.clone()
    }

    /// The same modifiers frame after frame reach egui once; a change (Ctrl down, then up)
    /// reaches it each time; other events always pass.
    #[test]
    fn only_changes_of_the_modifiers_reach_egui() {
        let mut app = App::new();
        app.add_systems(Update, drop_repeated_modifiers);
        let e = app.world_mut().spawn(EguiInput::default()).id();
        let none = egui::Event::ModifiersChanged(egui::Modifiers::NONE);
        let ctrl = egui::Event::ModifiersChanged(egui::Modifiers::CTRL);
        assert_eq!(
            events_after(&mut app, e, vec![none.clone()]),
            vec![none.clone()]
        );
        for _ in 0..3 {
            assert!(events_after(&mut app, e, vec![none.clone()]).is_empty());
        }
        assert_eq!(
            events_after(&mut app, e, vec![ctrl.clone()]),
            vec![ctrl.clone()]
        );
        assert!(events_after(&mut app, e, vec![ctrl.clone()]).is_empty());
        assert_eq!(
            events_after(&mut app, e, vec![none.clone()]),
            vec![none.clone()]
        );
        let text = egui::Event::Text("a".into());
        assert_eq!(
            events_after(&mut app, e, vec![none.clone(), text.clone()]),
            vec![text]
        );
    }
}
