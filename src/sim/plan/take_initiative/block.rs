//! Blocking a charge's way (§9b). A figure charging for a point whose straight path comes
//! within the reach of a foe blocking it (`Block(against)`) reaches that foe on its total
//! and stops there: the two trade blows by weapon length — the blocker's free armed blow,
//! the charger's shove (unarmed, so after any weapon). A shove that lands knocks the
//! blocker aside and the charger runs on toward its point with what is left of its charge,
//! striking no blow at its end; one that fails ends the charge.

use super::{Build, allowance, push_rule, reach_key};
use crate::rules::cite;
use crate::rules::take_initiative::charge::blocked_at;
use crate::scene::Act;
use crate::sim::components::Position;
use crate::sim::plan::{MoveTo, Planned};

/// Plans figure `i`'s charge, arriving on segment `s`, if a blocker stands in its way.
pub(super) fn blocked(b: &mut Build, i: usize, s: u32) -> bool {
    let f = &b.figs[i];
    let Act::Charge {
        to: Some(to),
        targets,
        ..
    } = f.act
    else {
        return false;
    };
    if !targets.is_empty() {
        return false;
    }
    let from = (f.pos.x, f.pos.y);
    let first = (0..b.figs.len())
        .filter_map(|k| {
            let kf = &b.figs[k];
            let blocks = kf.up()
                && kf.side() != f.side()
                && matches!(kf.act, Act::Block { against } if against.iter().any(|a| a == f.name()));
            let reach = kf.reach().max(f.reach());
            blocks
                .then(|| blocked_at(from, *to, (kf.pos.x, kf.pos.y), reach).0)
                .flatten()
                .map(|d| (d, k))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0));
    let Some((along, k)) = first else {
        return false;
    };
    let charge = allowance(b, i, true);
    if along > charge {
        return false;
    }
    let goal = Position { x: to.0, y: to.1 };
    let (stop, beyond) = (f.pos.toward(&goal, along), f.pos.toward(&goal, charge));
    b.changes
        .moving_to
        .insert(i, MoveTo(stop, along / f64::from(s.max(1)), 0));
    let (name, kname) = (f.name().to_string(), b.figs[k].name().to_string());
    // The blocker's free armed blow at the charger, by its weapon's length.
    b.changes.intent.insert(k, Act::melee(vec![name.clone()]));
    let blow = Planned::single_blow(Vec::new());
    let why = format!("blocks {name}'s way: a free armed blow as it tries to pass");
    let key = -reach_key(&b.figs[k]);
    push_rule(b, k, s, key, blow, why, cite::TI_BLOCK);
    let left = crate::rules::take_initiative::SEGMENTS
        .saturating_sub(s)
        .max(1);
    let shove = Planned::Shove {
        past: kname.clone(),
        to: (beyond.x, beyond.y),
        feet_per_segment: stop.distance(&beyond) / f64::from(left),
    };
    let why = format!("reaches {kname}, who blocks its way: tries to shove past");
    push_rule(b, i, s, 0, shove, why, cite::TI_BLOCK);
    true
}
