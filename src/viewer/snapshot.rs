//! A snapshot: everything the viewer shows of one segment, copied out of the simulation
//! world after the segment was played. The playback keeps one per segment, so stepping
//! back shows exactly what was there (the simulation is never rewound).

use crate::map::LightSource;
use crate::rules::cite;
use crate::rules::effect::Effect;
use crate::rules::sight::SeenBy;
use crate::sim::components::*;
use crate::sim::{EventLog, MapVision, Phase, Plan, SegmentClock, Sightings, SimScene, lights_now};
use bevy::prelude::*;
use std::collections::BTreeSet;

/// One figure as shown.
#[derive(Clone, Debug, PartialEq)]
pub struct FigureView {
    /// Index in the scene.
    pub index: usize,
    /// Name.
    pub name: String,
    /// Side.
    pub side: String,
    /// Position in feet.
    pub at: (f64, f64),
    /// Hit points now and at full.
    pub hp: (i32, i32),
    /// Up, unconscious or dead.
    pub up: bool,
    /// Dead.
    pub dead: bool,
    /// Armor class.
    pub ac: i32,
    /// Movement rate in inches, and whether encumbered.
    pub movement: (u32, bool),
    /// Weapon, speed factor, length in feet, missile.
    pub weapon: Option<(String, Option<u32>, f64, bool)>,
    /// Reach in feet.
    pub reach_ft: f64,
    /// Size (S, M, L): how big its token is drawn.
    pub size: crate::rules::size::Size,
    /// Attack rate (e.g. "3/2") and rounds attacking so far.
    pub rate: (String, u32),
    /// Dexterity score, reaction adjustment, and the adjustment in force (light gear).
    pub dexterity: (u32, i32, i32),
    /// Segments of surprise it suffers.
    pub surprised: u32,
    /// What it is doing: verb and targets.
    pub intent: Option<String>,
    /// A spell, device or potion under way: what, start tick, completion tick, segments.
    pub casting: Option<(String, u32, u32, u32)>,
    /// Whom the spell under way is aimed at (its area is drawn round that figure).
    pub casting_at: Option<String>,
    /// The point an area spell under way is cast at, in feet (its area is drawn there).
    pub casting_point: Option<(f64, f64)>,
    /// Closing on someone: target, charge, feet per segment, arrival segment.
    pub closing: Option<(String, bool, f64, Option<u32>)>,
    /// Light carried: source and radius.
    pub light: Option<(String, f64)>,
    /// Infravision range.
    pub infravision: Option<f64>,
    /// What spells have done to it, as (spell, outcome): ("hold person", "held").
    pub marks: Vec<(String, Mark)>,
    /// A psionic's attack and defense strengths now.
    pub psionic: Option<(u32, u32)>,
}

impl FigureView {
    /// The marks in a few words: "held by hold person".
    pub fn marks_text(&self) -> String {
        self.marks
            .iter()
            .map(|(what, mark)| match mark {
                // A fumble's mark names the weapon lost, not a spell.
                Mark::Disarmed => format!("disarmed: {what} lost"),
                Mark::Spell(o) => format!("{} by {what}", o.word()),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// An area a spell fills, as shown.
#[derive(Clone, Debug, PartialEq)]
pub struct AreaView {
    /// The spell.
    pub spell: String,
    /// Silence, light or darkness.
    pub kind: &'static str,
    /// Centre in feet.
    pub at: (f64, f64),
    /// Radius in feet.
    pub radius_ft: f64,
}

/// A weapon lost to a fumble (house rules), where it lies on the map.
#[derive(Clone, Debug, PartialEq)]
pub struct DroppedView {
    /// The weapon.
    pub weapon: String,
    /// Whose it was (its index).
    pub owner: usize,
    /// Where it lies, in feet.
    pub at: (f64, f64),
}

/// Everything shown of one segment.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// Where the clock stands.
    pub phase: Phase,
    /// Round and segment (0, 0 for the encounter).
    pub when: (u32, u32),
    /// Running segment count.
    pub tick: u32,
    /// Surprise segments in this encounter.
    pub surprise_segments: u32,
    /// Segments in a round: 10, or 20 ordering segments under "Take Initiative!".
    pub per_round: u32,
    /// Played under "Take Initiative!": its segments order events, not equal time.
    pub ordering: bool,
    /// Rounds the scene plays.
    pub rounds: u32,
    /// The figures, by index.
    pub figures: Vec<FigureView>,
    /// Who sees whom, with why, in (viewer, seen) order.
    pub sightings: Vec<(usize, usize, SeenBy)>,
    /// Lights shining.
    pub lights: Vec<LightSource>,
    /// Areas spells fill.
    pub areas: Vec<AreaView>,
    /// Weapons lying where fumbles threw them.
    pub dropped: Vec<DroppedView>,
    /// Cells lit, row-major (empty without a map).
    pub lit: Vec<bool>,
    /// Events in the log so far.
    pub log_len: usize,
    /// Dice the seed rolled so far, not fixed by the scene (the table-dice mode asks them).
    pub rolled_len: usize,
    /// The round's (or surprise segment's) plan.
    pub plan: PlanView,
}

/// A plan entry as shown.
#[derive(Clone, Debug, PartialEq)]
pub struct BeatView {
    /// Segment (nominal unless `fixed`).
    pub segment: u32,
    /// Whether a rule fixes the segment.
    pub fixed: bool,
    /// Order of play (equal beats happen together).
    pub beat: usize,
    /// The fight it belongs to.
    pub fight: usize,
    /// What the rules put directly before it.
    pub after: Vec<String>,
    /// A completion that was ruined (so far in the round).
    pub ruined: bool,
    /// Who.
    pub name: String,
    /// What.
    pub what: String,
    /// Why, with the page.
    pub why: String,
}

/// The plan as shown.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlanView {
    /// Round (0 for a surprise segment).
    pub round: u32,
    /// Each side's initiative die.
    pub initiative: Vec<(String, u32)>,
    /// The beats in order.
    pub beats: Vec<BeatView>,
    /// Each fight's figures (empty in a surprise segment).
    pub fights: Vec<Vec<String>>,
    /// Under "Take Initiative!": each figure's total, built ("d10 3 + charging 4 = 7").
    pub totals: Vec<(String, String)>,
}

impl PlanView {
    fn of(plan: &Plan, log: &EventLog) -> PlanView {
        use crate::sim::{EventKind, Payload, Planned};
        let ruined = |who: crate::scene::FigureId, what: &str| {
            log.events.iter().rev().take_while(|e| e.round == plan.round).any(|e| {
                e.kind == EventKind::SpellDisrupted
                    && e.by(who)
                    && matches!(&e.payload, Payload::SpellDisrupted { spell, .. } if spell == what)
            })
        };
        // Under "Take Initiative!" each figure's total is in the log, built in words.
        let totals = log
            .events
            .iter()
            .filter(|e| e.round == plan.round && plan.round > 0)
            .filter(|e| matches!(e.payload, Payload::TakeInitiative { .. }))
            .map(|e| (e.actor.to_string(), e.detail.clone()))
            .collect();
        PlanView {
            totals,
            fights: plan
                .sequence
                .fights
                .iter()
                .map(|f| f.members.clone())
                .collect(),
            round: plan.round,
            initiative: plan
                .initiative
                .iter()
                .map(|(k, v)| (k.clone(), *v))
                .collect(),
            beats: plan
                .entries
                .iter()
                .map(|e| BeatView {
                    segment: e.segment,
                    fixed: e.fixed,
                    beat: e.beat,
                    fight: e.fight,
                    after: e.after.clone(),
                    ruined: matches!(&e.what, Planned::Complete { what } if ruined(e.figure, what)),
                    name: e.name.to_string(),
                    what: match &e.what {
                        Planned::Strike {
                            routine,
                            of,
                            blow,
                            charge,
                            set,
                            second,
                            free,
                            ..
                        } => {
                            let extra = if *blow > 1 {
                                format!(", extra blow {blow}")
                            } else {
                                String::new()
                            };
                            match (*charge, *of) {
                                _ if *second => "its normal attack after the speed shot".into(),
                                _ if free.is_some() && e.rule == cite::HOUSE_PARTING_SHOT => {
                                    "a parting shot at +4 as its foe leaves".into()
                                }
                                _ if free.is_some() => {
                                    "a free attack at +4 on the fleeing foe".into()
                                }
                                _ if *set => "set against the charge (double damage)".to_string(),
                                (true, _) => "the charge's blow".to_string(),
                                (false, 1) => format!("blow{extra}"),
                                _ => format!("routine {routine} of {of}{extra}"),
                            }
                        }
                        Planned::Complete { what } => format!("{what} takes effect"),
                        Planned::Turn => "turns undead".to_string(),
                        Planned::Act { what } => what.clone(),
                        Planned::Shove { past, .. } => format!("tries to shove past {past}"),
                        Planned::Hide => "tries to hide in shadows".into(),
                    },
                    why: format!("{} — {} ({})", e.why, e.rule.summary, e.rule.page_ref()),
                })
                .collect(),
        }
    }
}

type Row<'a> = (
    &'a Combatant,
    &'a Side,
    &'a Position,
    &'a HitPoints,
    &'a ArmorClass,
    &'a MovementRate,
    &'a WeaponSpeed,
    &'a Reach,
    &'a AttackRate,
    &'a Dexterity,
    Option<&'a Surprised>,
);

type Extras<'a> = (
    Option<&'a Intent>,
    Option<&'a Casting>,
    Option<&'a Closing>,
    Option<&'a Light>,
    Option<&'a Infravision>,
    Option<&'a Affected>,
    Option<&'a Disarmed>,
    Option<&'a Psionic>,
);

impl Snapshot {
    /// Copies what is shown out of a simulation world.
    pub fn capture(world: &mut World) -> Snapshot {
        let clock = world.resource::<SegmentClock>().clone();
        let mut q = world.query::<(Entity, Row, Extras)>();
        let mut rows: Vec<_> = q.iter(world).collect();
        rows.sort_by_key(|r| r.1.0.index);
        let name_of = |e: Entity| {
            rows.iter()
                .find(|r| r.0 == e)
                .map(|r| r.1.0.name.to_string())
                .unwrap_or_default()
        };
        let figures: Vec<FigureView> = rows
            .iter()
            .map(
                |(_, (c, side, p, hp, ac, mv, w, reach, rate, dex, sur), extras)| {
                    let (intent, casting, closing, light, infra, affected, disarmed, psionic) =
                        extras;
                    let mut marks = affected.map(|a| a.0.clone()).unwrap_or_default();
                    // Fallen (unconscious or dead), it is no longer held or asleep: the
                    // fall is what the panels and the label say.
                    let fallen = !hp.condition.is_up() && !hp.condition.is_helpless();
                    if fallen {
                        use crate::rules::effect::Outcome;
                        marks.retain(|m| {
                            !matches!(m.1, Mark::Spell(Outcome::Held | Outcome::Asleep))
                        });
                    }
                    if let Some(d) = disarmed {
                        marks.push((d.weapon.clone(), Mark::Disarmed));
                    }
                    FigureView {
                        index: c.index,
                        name: c.name.to_string(),
                        side: side.0.clone(),
                        at: (p.x, p.y),
                        hp: (hp.current, hp.max),
                        up: hp.condition.is_up(),
                        dead: hp.condition == crate::rules::combat::Condition::Dead,
                        ac: ac.ac,
                        movement: (mv.inches, mv.encumbered),
                        weapon: w
                            .weapon
                            .clone()
                            .map(|n| (n, w.speed_factor, w.length_ft.unwrap_or(0.0), w.missile)),
                        reach_ft: reach.0,
                        size: c.size,
                        rate: (rate.rate.to_string(), rate.rounds_attacking),
                        dexterity: (dex.score, dex.reaction, dex.adjustment()),
                        surprised: sur.map(|s| s.segments).unwrap_or(0),
                        // A figure that cannot act (fallen, held, asleep) is doing nothing.
                        intent: intent.filter(|_| hp.condition.is_up()).map(|i| {
                            let t = i.act.targets();
                            if t.is_empty() {
                                i.act.verb()
                            } else {
                                format!("{} -> {}", i.act.verb(), t.join(", "))
                            }
                        }),
                        casting: casting
                            .map(|k| (k.what.clone(), k.started, k.completes, k.segments)),
                        casting_at: casting.and_then(|k| k.target.clone()),
                        casting_point: casting.and_then(|k| k.at),
                        closing: closing
                            .map(|k| (name_of(k.target), k.charge, k.feet_per_segment, k.arrival)),
                        light: light.map(|l| (l.source.clone(), l.radius_ft)),
                        infravision: infra.map(|i| i.0),
                        marks,
                        psionic: psionic.map(|p| (p.attack, p.defense)),
                    }
                },
            )
            .collect();
        let carried: Vec<(Position, Light)> = rows
            .iter()
            .filter_map(|r| Some((*r.1.2, r.2.3?.clone())))
            .collect();
        let dropped = rows
            .iter()
            .filter_map(|r| {
                let d = r.2.6?;
                Some(DroppedView {
                    weapon: d.weapon.clone(),
                    owner: r.1.0.index,
                    at: d.lies_at?,
                })
            })
            .collect();
        let scene = world.resource::<SimScene>().clone();
        let spell_areas: Vec<SpellArea> =
            world.query::<&SpellArea>().iter(world).cloned().collect();
        let areas = spell_areas
            .iter()
            .map(|a| AreaView {
                spell: a.spell.clone(),
                kind: match a.effect {
                    Effect::Silence { .. } => "silence",
                    Effect::Darkness { .. } => "darkness",
                    _ => "light",
                },
                at: (a.at.x, a.at.y),
                radius_ft: a.radius_ft,
            })
            .collect();
        let lights = lights_now(
            &scene,
            carried.iter().map(|(p, l)| (p, l)),
            spell_areas.iter(),
        );
        let lit = match world.resource_mut::<MapVision>().0.as_mut() {
            Some(v) => {
                let (w, h) = (v.sight_map().width(), v.sight_map().height());
                let mut lit = vec![false; (w * h) as usize];
                let daylight = scene.0.map.as_ref().is_some_and(|m| m.daylight);
                let cells: BTreeSet<(i32, i32)> = if daylight {
                    (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).collect()
                } else {
                    let mut cells = BTreeSet::new();
                    for &l in &lights {
                        cells.extend(v.lit_cells(l).iter().copied());
                    }
                    cells
                };
                for (x, y) in cells {
                    if x >= 0 && y >= 0 && x < w && y < h {
                        lit[(y * w + x) as usize] = true;
                    }
                }
                lit
            }
            None => Vec::new(),
        };
        let sightings = world
            .resource::<Sightings>()
            .iter()
            .map(|((a, b), by)| (a, b, by))
            .collect();
        Snapshot {
            phase: clock.phase,
            when: clock.round_segment(),
            tick: clock.tick(),
            surprise_segments: clock.surprise_segments,
            per_round: clock.per_round,
            ordering: clock.system == crate::rules::options::RulesSystem::TakeInitiative,
            rounds: clock.rounds,
            figures,
            sightings,
            lights,
            areas,
            dropped,
            lit,
            log_len: world.resource::<EventLog>().events.len(),
            rolled_len: world.resource::<crate::sim::Dice>().rolled().len(),
            plan: PlanView::of(world.resource::<Plan>(), world.resource::<EventLog>()),
        }
    }

    /// The figure with this index.
    pub fn figure(&self, index: usize) -> Option<&FigureView> {
        // Figures are kept in index order, and indices normally count from 0.
        self.figures
            .get(index)
            .filter(|f| f.index == index)
            .or_else(|| self.figures.iter().find(|f| f.index == index))
    }

    /// The stretch of the encounter it belongs to, for round-by-round stepping: the
    /// encounter itself (0), the surprise segments (1), or round r (r + 1).
    pub fn period(&self) -> u32 {
        match self.phase {
            Phase::Ready | Phase::Encounter => 0,
            Phase::Surprise(_) => 1,
            Phase::Round { round, .. } => round + 1,
            Phase::Over => u32::MAX,
        }
    }

    /// A label for the clock: "Encounter", "Surprise segment 2", "Round 1, segment 4".
    pub fn label(&self) -> String {
        match self.phase {
            Phase::Ready | Phase::Encounter => "Encounter".into(),
            Phase::Surprise(k) => format!("Surprise segment {k}"),
            Phase::Round { round, segment } if self.ordering => {
                format!("Round {round}, ordering segment {segment}")
            }
            Phase::Round { round, segment } => format!("Round {round}, segment {segment}"),
            Phase::Over => "Over".into(),
        }
    }
}
