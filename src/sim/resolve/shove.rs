//! A charger shoving past a figure that blocks its way ("Take Initiative!" §9b): an
//! unarmed attack roll against the blocker's armor (our reading; the text's close-combat
//! check is not given). If it lands the blocker is knocked aside and the charger runs on
//! toward its point; if not, the charge ends there.

use super::Play;
use crate::rules::combat;
use crate::rules::take_initiative::charge::shoves_past;
use crate::scene::DieKind;
use crate::sim::plan::{MoveTo, PlanEntry, Planned};
use bevy::prelude::*;

/// Plays one shove of `actor`.
pub(super) fn shove(p: &mut Play, entry: &PlanEntry, actor: Entity) {
    let Planned::Shove {
        ref past,
        to,
        feet_per_segment,
    } = entry.what
    else {
        return;
    };
    let Ok(a) = p.figures.get(actor) else { return };
    let (name, thac0) = (a.figure.name.clone(), a.fighting.thac0);
    let Some(ac) = p
        .figures
        .iter()
        .find(|o| &o.figure.name == past)
        .map(|o| o.ac.ac)
    else {
        return;
    };
    let (need, _) = combat::needed_to_hit(thac0, ac);
    let (d20, fixed) = p.dice.roll(DieKind::ToHit, &name, 20);
    let (through, rule) = shoves_past(d20, need);
    let rolled = if fixed { "" } else { " (rolled)" };
    let why = if through {
        p.commands.entity(actor).insert(MoveTo(
            crate::sim::components::Position { x: to.0, y: to.1 },
            feet_per_segment,
            entry.segment,
        ));
        format!(
            "shoves past {past}: d20 {d20}{rolled} vs {need} for AC {ac}: {past} is knocked aside and the charge runs on, with no blow at its end"
        )
    } else {
        format!(
            "fails to shove past {past}: d20 {d20}{rolled} vs {need} for AC {ac}: the charge stops here"
        )
    };
    super::act_event(p, entry, (name, Some(past.as_str().into())), why, rule);
}
