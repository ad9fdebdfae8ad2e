//! Sight: after movement in each segment, who sees whom on the map, by light or by
//! infravision (DMG p.62). A figure that starts or stops seeing another gets a `sight`
//! event with the reason and the rule, so the log shows the moment a lurker first makes out
//! the torchlight. Fields of view come from [`Vision`], cached by cell and radius; the
//! decision for each pair is [`rules::sight::sees`].

use super::components::{Combatant, HitPoints, Infravision, Light, Position, SpellArea};
use super::log::{self, EventKind, LogEvent, Payload};
use super::sight_look::Look;
use super::sight_scan::{self as scan, Frame, Looker};
use super::{MapGrid, SegmentClock, SimScene};
use crate::bounded::{BoundedCache, heap_bytes};
use crate::map::{LightSource, Vision, distance_ft};
use crate::rules::combat::Condition;
use crate::rules::effect::{self, Effect};
use crate::rules::sight::{SeenBy, SightReason};
use crate::scene::FigureId;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use std::sync::Arc;

/// The map's vision with its field-of-view cache (none without a map).
#[derive(Resource, Clone, Debug, Default)]
pub struct MapVision(pub Option<Vision>);

/// Who sees whom, and why: (viewer, seen) scene indices in order.
use super::sight_scan::SeenList;

/// Sight already worked out, by what it was worked out from ([`SightInputs`]): sight is a
/// function of those inputs and the fixed map, and the odds' trials meet the same
/// arrangements of figures again and again. Kept across restarts (the map does not change
/// within an app); emptied when it grows past [`SIGHT_MEMO_LIMIT`] arrangements or
/// [`SIGHT_MEMO_BYTES`] (one arrangement of a crowd holds every pair: 200 figures make
/// 40,000, over a megabyte, so a count alone let `odds` grow by gigabytes).
/// Beside it, the last look, which the next starts from when it is not met before.
#[derive(Resource)]
pub(super) struct SightMemo {
    met: BoundedCache<SightKey, Arc<SeenList>>,
    last: Option<Look>,
}

impl Default for SightMemo {
    fn default() -> Self {
        SightMemo {
            met: BoundedCache::new(SIGHT_MEMO_LIMIT, SIGHT_MEMO_BYTES),
            last: None,
        }
    }
}

/// The most arrangements [`SightMemo`] keeps.
const SIGHT_MEMO_LIMIT: usize = 1024;

/// The most bytes [`SightMemo`] keeps.
pub const SIGHT_MEMO_BYTES: usize = 32 << 20;

/// The memory one arrangement and its pairs hold, in bytes.
fn memo_bytes(key: &SightKey, pairs: &SeenList) -> usize {
    heap_bytes(&key.0) + heap_bytes(&key.1) + heap_bytes(pairs)
}

/// Who sees whom now, by figure index (viewer, seen) in order, with how: the list the last
/// look worked out (shared with the memo, never copied).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Sightings(Arc<SeenList>);

impl Sightings {
    /// Whether figure `a` sees figure `b`.
    pub fn sees(&self, a: usize, b: usize) -> bool {
        self.0.binary_search_by_key(&(a, b), |p| p.0).is_ok()
    }

    /// Each (viewer, seen) pair with how, in order.
    pub fn iter(&self) -> impl Iterator<Item = ((usize, usize), SeenBy)> + '_ {
        self.0.iter().copied()
    }

    /// How many pairs see.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no one sees anyone.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Every light shining now: fixed ones from the map, then those figures carry, then those
/// spells made (PHB p.44).
pub fn lights_now<'a>(
    scene: &SimScene,
    carried: impl Iterator<Item = (&'a Position, &'a Light)>,
    areas: impl Iterator<Item = &'a SpellArea>,
) -> Vec<LightSource> {
    let fixed = scene
        .0
        .map
        .iter()
        .flat_map(|m| m.lights.iter())
        .map(|l| LightSource {
            at: l.at,
            radius_ft: l.radius(),
        });
    let carried = carried.map(|(p, l)| LightSource {
        at: (p.x, p.y),
        radius_ft: l.radius_ft,
    });
    let spells = areas
        .filter(|a| matches!(a.effect, Effect::Light { .. }))
        .map(|a| LightSource {
            at: (a.at.x, a.at.y),
            radius_ft: a.radius_ft,
        });
    fixed.chain(carried).chain(spells).collect()
}

/// Whether a point is inside some spell's darkness.
pub fn in_darkness<'a>(mut areas: impl Iterator<Item = &'a SpellArea>, at: &Position) -> bool {
    areas.any(|a| {
        matches!(a.effect, Effect::Darkness { .. })
            && effect::inside(at.distance(&a.at), a.radius_ft)
    })
}

type Figure<'a> = (
    &'a Combatant,
    &'a Position,
    &'a HitPoints,
    Option<&'a Light>,
    Option<&'a Infravision>,
);

/// What sight was last worked out from: each figure's place, state, light and
/// infravision, and the spells' lights and darknesses. Sight is a function of these alone
/// (and the fixed map), so when they have not changed nor has who sees whom.
#[derive(Resource, Clone, Debug, Default)]
pub struct SightInputs {
    last: Option<SightKey>,
    changed: bool,
}

/// Figures by index (place, state, light radius, infravision), then light and darkness
/// areas (darkness?, centre, radius), sorted; positions as bits so equal means equal.
type SightKey = (
    Vec<(usize, (u64, u64), Condition, Option<u64>, Option<u64>)>,
    Vec<(bool, (u64, u64), u64)>,
);

/// Notes what sight depends on now, and whether it changed since sight was last worked
/// out.
pub(super) fn note_sight_inputs(
    figures: Query<Figure>,
    areas: Query<&SpellArea>,
    mut inputs: ResMut<SightInputs>,
) {
    let mut list: Vec<_> = figures
        .iter()
        .map(|(c, p, hp, light, infra)| {
            (
                c.index,
                (p.x.to_bits(), p.y.to_bits()),
                hp.condition,
                light.map(|l| l.radius_ft.to_bits()),
                infra.map(|i| i.0.to_bits()),
            )
        })
        .collect();
    list.sort_by_key(|f| f.0);
    let mut shine: Vec<_> = areas
        .iter()
        .filter(|a| matches!(a.effect, Effect::Light { .. } | Effect::Darkness { .. }))
        .map(|a| {
            (
                matches!(a.effect, Effect::Darkness { .. }),
                (a.at.x.to_bits(), a.at.y.to_bits()),
                a.radius_ft.to_bits(),
            )
        })
        .collect();
    shine.sort();
    let key = Some((list, shine));
    inputs.changed = inputs.last != key;
    inputs.last = key;
}

/// Run condition: what sight depends on has changed since it was last worked out.
pub(super) fn sight_inputs_changed(inputs: Res<SightInputs>) -> bool {
    inputs.changed
}

/// Whether gains and losses of sight are logged as events (on unless turned off). Who
/// sees whom is worked out either way; `odds`, `compare` and `quiz` read nothing of sight
/// and turn the events off: a crowd of torch-bearers gains millions of sightings at once,
/// and keeping them as events only to drop them took gigabytes.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SightEvents {
    /// Each gain and loss is an event.
    #[default]
    Made,
    /// Counted, not made: each batch stands as one event that keeps the numbers of its
    /// segment (`run --hide sight`, where the other events keep their `seq`).
    Counted,
    /// Neither made nor counted (`odds`, `compare`, `quiz`).
    Off,
}

/// What working sight out needs: the scene's lights, the map's vision, and what was
/// worked out before.
#[derive(SystemParam)]
pub(super) struct SightWork<'w> {
    events: Res<'w, SightEvents>,
    scene: Res<'w, SimScene>,
    vision: ResMut<'w, MapVision>,
    inputs: Res<'w, SightInputs>,
    memo: ResMut<'w, SightMemo>,
}

impl SightWork<'_> {
    /// Who sees whom among `list` (in index order), and the light they were seen by: from
    /// the memo if this arrangement was met before, else worked out and remembered. None
    /// without a map.
    fn pairs<'a>(
        &mut self,
        (list, expect): (&[Looker], usize),
        carried: impl Iterator<Item = (&'a Position, &'a Light)>,
        areas: impl Iterator<Item = &'a SpellArea>,
    ) -> Option<(Arc<SeenList>, Frame)> {
        let vision = self.vision.0.as_mut()?;
        let daylight = self.scene.0.map.as_ref().is_some_and(|m| m.daylight);
        let lights = lights_now(&self.scene, carried, areas);
        let frame = Frame::new(vision, daylight, &lights, list);
        if let Some(p) = self.inputs.last.as_ref().and_then(|k| self.memo.met.get(k)) {
            let p = p.clone();
            self.memo.last = Some(Look::new(list, &frame, p.clone()));
            return Some((p, frame));
        }
        // From the last look when few figures changed, else every pair.
        let since = self
            .memo
            .last
            .as_ref()
            .and_then(|l| l.next(vision, &frame, list));
        let p = Arc::new(since.unwrap_or_else(|| scan::seen_pairs(vision, &frame, list, expect)));
        self.memo.last = Some(Look::new(list, &frame, p.clone()));
        // A list too big to be worth keeping (a vast crowd's, whose arrangements never
        // come again: a lit 1,000-figure hall's is 7 MB a segment) is not kept: it would
        // only push out the rest and hold memory `run` never reads again. A crowd of 200
        // keeps every list (at most 40,000 pairs, 1.3 MB).
        if let Some(k) = &self.inputs.last
            && let bytes = memo_bytes(k, &p)
            && bytes <= SIGHT_MEMO_BYTES / 16
        {
            self.memo.met.insert(k.clone(), p.clone(), bytes);
        }
        Some((p, frame))
    }
}

/// Recomputes who sees whom and logs each change. Its events go straight into the log,
/// after the step's events so far ([`log::LogNow::flush`]): a crowd's encounter gains hundreds of
/// thousands of sightings at once, and passing them through the message queue held them
/// twice (a lit 1,000-figure hall: 64 MB more at the peak).
pub(super) fn update_sight(
    clock: Res<SegmentClock>,
    mut work: SightWork,
    mut sightings: ResMut<Sightings>,
    figures: Query<Figure>,
    areas: Query<&SpellArea>,
    mut log: log::LogNow,
) {
    let mut list: Vec<Figure> = figures.iter().collect();
    list.sort_by_key(|f| f.0.index);
    let lookers: Vec<Looker> = list
        .iter()
        .map(|f| Looker {
            index: f.0.index,
            at: (f.1.x, f.1.y),
            condition: f.2.condition,
            light_ft: f.3.map(|l| l.radius_ft),
            infravision_ft: f.4.map(|i| i.0),
            in_darkness: in_darkness(areas.iter(), f.1),
        })
        .collect();
    let carried = list.iter().filter_map(|f| Some((f.1, f.3?)));
    let expect = sightings.len();
    let Some((pairs, frame)) = work.pairs((&lookers, expect), carried, areas.iter()) else {
        return;
    };
    // Nothing gained or lost (the common case): nothing to log or store.
    if Arc::ptr_eq(&sightings.0, &pairs) || *sightings.0 == *pairs {
        return;
    }
    let before = std::mem::replace(&mut sightings.0, pairs.clone());
    if *work.events == SightEvents::Off {
        return;
    }
    let (gained, lost) = changes(&before, &pairs);
    // The old list is not needed past here: let it go before the events are made.
    drop(before);
    let when = clock.round_segment();
    // Scene index -> place in the list (the list is in index order).
    let pos = |index: usize| lookers.binary_search_by_key(&index, |l| l.index).ok();
    let name = |k: usize| list[k].0.name.clone();
    let Some(vision) = work.vision.0.as_mut() else {
        return;
    };
    // The losses worth saying: a viewer who fell, or a target who died, is covered by
    // the `down` event.
    let lost: Vec<_> = lost
        .into_iter()
        .filter_map(|(a, b)| {
            let (pa, pb) = (pos(a)?, pos(b)?);
            if !lookers[pa].condition.is_up() || lookers[pb].condition == Condition::Dead {
                return None;
            }
            let (not, rule) = scan::why_not(vision, &frame, &lookers, pa, pb)?;
            Some((pa, pb, not, rule))
        })
        .collect();
    let gained: SeenList = gained
        .into_iter()
        .filter_map(|((a, b), by)| Some(((pos(a)?, pos(b)?), by)))
        .collect();
    let log = log.flush();
    if *work.events == SightEvents::Counted {
        // One event in the place of the batch, taking its numbers.
        let n = (gained.len() + lost.len()) as u32;
        if let (Some(more), Some(first)) = (n.checked_sub(1), lookers.first()) {
            let mut e = sight_event(
                when,
                (first, first),
                (name(0), name(0)),
                String::new(),
                crate::rules::cite::SIGHT_LIGHT,
                (true, SightReason::Seen(SeenBy::Lit)),
            );
            e.stands_for_more = more;
            log.push(e);
        }
        return;
    }
    // Room for this batch and for the rest of the step's events (a few a figure): else
    // the step's next event after a crowd's hundreds of thousands of sightings moves the
    // whole log to one twice its size.
    log.reserve(gained.len() + lost.len() + STEP_ROOM_PER_FIGURE * lookers.len());
    log.extend(gained.into_iter().map(|((pa, pb), by)| {
        // Whole feet: the same words as the rounded float, without formatting one.
        let feet = distance_ft(lookers[pa].at, lookers[pb].at).round() as i64;
        let detail = sees_words(&list[pb].0.name, feet, by);
        sight_event(
            when,
            (&lookers[pa], &lookers[pb]),
            (name(pa), name(pb)),
            detail,
            by.rule(),
            (true, SightReason::Seen(by)),
        )
    }));
    for (pa, pb, not, rule) in lost {
        let detail = crate::words!("loses sight of {}: {}", name(pb), not.describe());
        let why = (false, SightReason::Unseen(not));
        let who = (&lookers[pa], &lookers[pb]);
        log.push(sight_event(
            when,
            who,
            (name(pa), name(pb)),
            detail,
            rule,
            why,
        ));
    }
}

/// Events a figure may still log in a step after sight is worked out (blows, damage, a
/// fall, a spell): room kept for them beside a big batch of sightings.
const STEP_ROOM_PER_FIGURE: usize = 8;

/// "sees NAME N ft away, HOW" (nothing while quiet), put together piece by piece: the
/// general formatting machinery was a tenth of a lit crowd's round.
fn sees_words(name: &str, feet: i64, by: SeenBy) -> String {
    if !crate::narrate::narrating() {
        return String::new();
    }
    use std::fmt::Write;
    let mut out = String::with_capacity(name.len() + 48);
    out.push_str("sees ");
    out.push_str(name);
    // Writing to a String cannot fail.
    let _ = write!(out, " {feet} ft away, ");
    by.write_words(&mut out);
    out
}

/// The pairs in `now` and not `before` (sight gained, with how), and those in `before` and
/// not `now` (lost), each in order: one walk along the two ordered lists. A pair in both
/// is neither, even if how it is seen changed.
fn changes(before: &SeenList, now: &SeenList) -> (SeenList, Vec<(usize, usize)>) {
    // Room for a whole list's worth each way: an encounter gains every pair at once.
    let room = now
        .len()
        .abs_diff(before.len())
        .max(now.len().min(before.len()) / 8);
    let (mut gained, mut lost) = (Vec::with_capacity(room), Vec::with_capacity(room));
    let (mut i, mut j) = (0, 0);
    while i < before.len() || j < now.len() {
        match (before.get(i), now.get(j)) {
            (Some(b), Some(n)) if b.0 == n.0 => (i, j) = (i + 1, j + 1),
            (Some(b), Some(n)) if b.0 < n.0 => {
                lost.push(b.0);
                i += 1;
            }
            (Some(b), None) => {
                lost.push(b.0);
                i += 1;
            }
            (_, Some(&n)) => {
                gained.push(n);
                j += 1;
            }
            (None, None) => break,
        }
    }
    (gained, lost)
}

/// Builds the vision from the map grid when the simulation starts.
/// A restart keeps the vision already built: its cache depends on the map alone.
pub(super) fn init_vision(grid: Res<MapGrid>, mut vision: ResMut<MapVision>) {
    if vision.0.is_none() {
        vision.0 = grid.0.as_ref().map(Vision::new);
    }
}

/// A gain (`gained`) or loss of sight of `b` by `a`, with its reason in words.
fn sight_event(
    when: (u32, u32),
    (viewer, seen): (&Looker, &Looker),
    (a, b): (crate::name::Name, crate::name::Name),
    detail: String,
    rule: crate::rules::cite::Rule,
    (gained, reason): (bool, SightReason),
) -> LogEvent {
    let mut e = LogEvent::new(when, a, EventKind::Sight, Some(b), detail, rule)
        .with(Payload::Sight { gained, reason });
    // The figures are known here: no lookup by name when recorded.
    e.who = Some(FigureId(viewer.index as u32));
    e.whom = Some(FigureId(seen.index as u32));
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn list(pairs: BTreeSet<(usize, usize)>) -> SeenList {
        pairs.into_iter().map(|p| (p, SeenBy::Lit)).collect()
    }

    proptest! {
        /// The walk along two ordered lists finds exactly the pairs only in the new one
        /// (gained) and only in the old one (lost), each in order.
        #[test]
        fn changes_are_the_two_differences(
            before in prop::collection::btree_set((0usize..12, 0usize..12), 0..40),
            now in prop::collection::btree_set((0usize..12, 0usize..12), 0..40),
        ) {
            let (gained, lost) = changes(&list(before.clone()), &list(now.clone()));
            let gained: Vec<_> = gained.into_iter().map(|p| p.0).collect();
            prop_assert_eq!(gained, now.difference(&before).copied().collect::<Vec<_>>());
            prop_assert_eq!(lost, before.difference(&now).copied().collect::<Vec<_>>());
        }
    }
}
