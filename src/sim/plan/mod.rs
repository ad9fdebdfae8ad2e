//! Initiative and the plan of a round or surprise segment: who does what, in which segment
//! and in what order. The order comes from the rules core — [`round_sequence_with`] for a
//! round, [`segment_beats`] for a surprise segment — and is turned into a list of
//! [`PlanEntry`]s that the resolve step plays segment by segment.
//!
//! A round is planned in [`round`]: [`initiative`], then each figure's declaration by
//! kind ([`melee`], [`charge`], [`cast`], moves here), then [`order`] turns the rules'
//! order into entries. A surprise segment is planned in [`surprise`].
//!
//! [`round_sequence_with`]: crate::rules::sequence::round_sequence_with
//! [`segment_beats`]: crate::rules::surprise::segment_beats

mod before_the_move;
mod build;
mod cast;
mod charge;
mod house;
mod initiative;
mod melee;
mod order;
mod pre_initiative;
mod round;
mod second;
mod surprise;
mod take_initiative;

pub(super) use round::{plan_round, round_starts};
pub(super) use surprise::{in_surprise, plan_surprise_segment};
pub(super) use take_initiative::{
    change_actions, in_a_round, plan_round as take_initiative_round, under_take_initiative,
    under_the_book,
};

use super::components::*;
use super::dice::Dice;
use super::log::{EventKind, LogEvent};
use super::{SegmentClock, SimScene};
use crate::rules::action::Declared;
use crate::rules::cite::{self, Rule};
use crate::rules::combat::Condition;
use crate::rules::sequence::{PairDecision, Sequence};
use crate::scene::{Act, FigureId};
use crate::tables;
use bevy::ecs::query::QueryData;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;

/// What a plan entry does.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Planned {
    /// An attack routine (one blow, or a blow with each weapon).
    Strike {
        /// 1-based routine.
        routine: u32,
        /// Routines this round or segment.
        of: u32,
        /// 1-based blow within the routine (speed-factor extra blows).
        blow: u32,
        /// The blow that ends a charge.
        charge: bool,
        /// A weapon set against a charge: double damage.
        set: bool,
        /// The figure's second action this round (the attack after an item of speed's
        /// shot), made with its other weapon at the targets of [`Plan::then`].
        second: bool,
        /// A free attack at +4 on this figure as it turns to flee ("Take Initiative!" §4).
        free: Option<String>,
        /// To-hit adjustments the plan found (from behind, a hurl's range...), each with
        /// the rule that gives it.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        adjust: Vec<Adjust>,
    },
    /// A spell, device or potion takes effect.
    Complete {
        /// What completes.
        what: String,
    },
    /// A cleric turns undead (its outcome is not modelled).
    Turn,
    /// A non-combat act takes place.
    Act {
        /// What it is, as declared.
        what: String,
    },
    /// A figure tries to hide in shadows ("Take Initiative!" §10).
    Hide,
    /// A charger tries to shove past a figure blocking its way ("Take Initiative!" §9b):
    /// if it does, it runs on toward its point.
    Shove {
        /// The blocker.
        past: String,
        /// Where it runs on to, in feet, if it gets past.
        to: (f64, f64),
        /// Its pace for the rest of the round, feet a segment.
        feet_per_segment: f64,
    },
}

impl Planned {
    /// One blow on its own — routine 1 of 1 — with these adjustments to hit.
    pub fn single_blow(adjust: Vec<Adjust>) -> Planned {
        Planned::routine(1, 1, adjust)
    }

    /// Routine `routine` of `of` this round, a plain blow with these adjustments to hit.
    pub fn routine(routine: u32, of: u32, adjust: Vec<Adjust>) -> Planned {
        Planned::Strike {
            routine,
            of,
            blow: 1,
            charge: false,
            set: false,
            second: false,
            free: None,
            adjust,
        }
    }
}

/// A to-hit adjustment the plan found for a blow, with its rule.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Adjust {
    /// Added to the roll.
    pub value: i32,
    /// Why, in a few words ("from behind").
    pub why: String,
    /// The rule that gives it.
    pub rule: Rule,
}

/// The to-hit adjustment of a shot at `d` feet with these limits of short, medium and
/// long range in feet ("Take Initiative!" §8); an error beyond long range.
pub(crate) fn range_adjust(
    system: crate::rules::options::RulesSystem,
    d: f64,
    limits: (f64, f64, f64),
) -> Result<Adjust, String> {
    let (value, why, rule) = crate::rules::missile_range::penalty_at(system, d, limits)?;
    Ok(Adjust { value, why, rule })
}

/// One thing planned for a segment.
#[derive(Clone, Debug, Serialize)]
pub struct PlanEntry {
    /// Segment (0: the very beginning of the round).
    pub segment: u32,
    /// Order of play: entries with equal beats happen together.
    pub beat: usize,
    /// The fight it belongs to (figures joined by who aims at whom).
    pub fight: usize,
    /// Whether a rule fixes its segment; otherwise `segment` is only nominal, the earliest
    /// its fight's order allows.
    pub fixed: bool,
    /// What the rules put directly before it in its fight ("Orc's routine 1").
    pub after: Vec<String>,
    /// The figure.
    #[serde(skip)]
    pub actor: Option<Entity>,
    /// The figure's id.
    #[serde(skip)]
    pub figure: FigureId,
    /// Its name.
    pub name: crate::name::Name,
    /// What it does.
    #[serde(flatten)]
    pub what: Planned,
    /// The rule that placed it.
    pub rule: Rule,
    /// Why it is here.
    pub why: String,
}

impl PlanEntry {
    /// Whether figure `e` acts in it.
    pub fn by(&self, e: Entity) -> bool {
        self.actor == Some(e)
    }

    /// Whether it is a blow of figure `e`'s.
    pub fn is_blow_by(&self, e: Entity) -> bool {
        self.by(e) && matches!(self.what, Planned::Strike { .. })
    }
}

/// The plan of the current round (or surprise segment).
#[derive(Resource, Clone, Debug, Default, Serialize)]
pub struct Plan {
    /// Round (0 for a surprise segment).
    pub round: u32,
    /// Each side's initiative die this round.
    pub initiative: BTreeMap<String, u32>,
    /// The entries in order.
    pub entries: Vec<PlanEntry>,
    /// The actions the rules core ordered this round, as it saw them.
    pub declared: Vec<Declared>,
    /// The round's order as the rules core gave it: fights, beats, relations.
    pub sequence: Sequence,
    /// Second actions this round, by figure name.
    pub then: BTreeMap<String, Act>,
    /// Under "Take Initiative!": the parries in time this round, one per attack parried,
    /// as ((attacker, its routine, the attack within it), parrier, penalty to hit).
    pub parries: Vec<((String, u32, u32), String, i32)>,
    /// Under "Take Initiative!": each move this round, for the area window of §11b.
    pub moves: Vec<TiMove>,
    /// Under "Take Initiative!": who turns to flee this round, and on which total (§4b: a
    /// foe it ran from may change to pursue).
    #[serde(skip)]
    pub flights: Vec<(Entity, u32)>,
    /// Under "Take Initiative!": who had a standing foe within 1" at the round's start,
    /// and so may not charge this round, by a change of action either (§4b note a, §9).
    #[serde(skip)]
    pub engaged: Vec<Entity>,
    /// Under "Take Initiative!": whose change of action was refused this round (said once;
    /// the figure keeps its action).
    #[serde(skip)]
    pub refused: Vec<Entity>,
}

/// Under "Take Initiative!": a figure's move this round, as the area-spell window reads it.
#[derive(Clone, Debug, Serialize)]
pub struct TiMove {
    /// Who moves.
    pub name: String,
    /// From, in feet.
    pub from: (f64, f64),
    /// To, in feet.
    pub to: (f64, f64),
    /// Its total: the segment it completes the move on.
    pub total: u32,
    /// Its move this round in feet (the window compares the area with a tenth of it).
    pub move_ft: f64,
}

impl Plan {
    /// The pairwise decisions behind the order.
    pub fn decisions(&self) -> &[PairDecision] {
        &self.sequence.decisions
    }
}

/// A plain move toward a point at so many feet a segment, setting off after the first so
/// many segments of the round (a move after a potion waits for the drink).
#[derive(Component, Clone, Copy, Debug)]
pub struct MoveTo(pub Position, pub f64, pub u32);

/// A figure as the planner reads it: the query's view of its components, with a method
/// for each thing the rules ask of it.
#[derive(QueryData)]
pub(super) struct PlanFigure {
    /// The figure.
    pub e: Entity,
    figure: &'static Combatant,
    side_of: &'static Side,
    /// Where it stands, in feet.
    pub pos: &'static Position,
    reach_of: &'static Reach,
    /// Its movement rate.
    pub movement: &'static MovementRate,
    /// Its weapon and that weapon's speed factor.
    pub weapon: &'static WeaponSpeed,
    /// Its attack routines and where it is in a 3/2 cycle.
    pub rate: &'static AttackRate,
    /// Its Dexterity.
    pub dex: &'static Dexterity,
    hp: &'static HitPoints,
    /// Its surprise.
    pub surprised: &'static Surprised,
    intent: &'static Intent,
    /// The spell it is casting, if any.
    pub casting: Option<&'static Casting>,
    /// The figure or point it is closing on, if any.
    pub closing: Option<&'static Closing>,
    /// Where it is walking or running to, if anywhere.
    pub moving_to: Option<&'static MoveTo>,
    closed: &'static JustClosed,
    moved: &'static super::components::Moved,
    fighting: &'static Fighting,
    /// Slowed: its attacks and movement halved.
    pub slowed: Has<Slowed>,
    carried_of: Option<&'static CarriedInitiative>,
    hit_dice: Option<&'static HitDice>,
    /// Under "Take Initiative!": running from its foes since last round (§5).
    pub fleeing: Has<Fleeing>,
    /// Hidden in shadows (§10).
    pub hidden: Has<Hidden>,
    burst_of: Option<&'static PursuitBurst>,
    charged_of: Option<&'static LastCharge>,
}

impl PlanFigureItem<'_, '_> {
    /// Its name, for words and for matching the scene's declarations.
    pub fn name(&self) -> &crate::name::Name {
        &self.figure.name
    }

    /// Its place in the scene's list.
    pub fn index(&self) -> usize {
        self.figure.index
    }

    /// Its id.
    pub fn id(&self) -> FigureId {
        FigureId(self.figure.index as u32)
    }

    /// Its side.
    pub fn side(&self) -> &str {
        &self.side_of.0
    }

    /// Its reach in feet.
    pub fn reach(&self) -> f64 {
        self.reach_of.0
    }

    /// Standing and able to act.
    pub fn up(&self) -> bool {
        self.hp.condition.is_up()
    }

    /// Dead.
    pub fn dead(&self) -> bool {
        self.hp.condition == Condition::Dead
    }

    /// Closed (or charged) in the last round.
    pub fn closed_last_round(&self) -> bool {
        self.closed.last_round
    }

    /// It took a step in the round before `round` (a move, a close or a charge; before
    /// round 1, in the surprise segments).
    pub fn moved_before(&self, round: u32) -> bool {
        self.moved.round.is_some_and(|r| r + 1 == round) || self.closed.last_round
    }

    /// Its own initiative die, where one is rolled per figure.
    pub fn init_die(&self) -> u32 {
        self.fighting.initiative_die
    }

    /// The attacks of one of its routines in melee, each rolled on its own: a monster's
    /// claw, claw and bite, or a weapon in each hand.
    pub fn attacks_per_routine(&self) -> u32 {
        self.fighting.melee_attacks()
    }

    /// The weapon in its other hand, if it fights with two.
    pub fn off_hand(&self) -> Option<&str> {
        self.fighting.off_hand.as_ref().map(|o| o.0.as_str())
    }

    /// Under "Take Initiative!": the segment carried over from last round.
    pub fn carried(&self) -> Option<u32> {
        self.carried_of.map(|c| c.0)
    }

    /// Level or hit dice, where given.
    pub fn level(&self) -> Option<u32> {
        self.hit_dice.map(|h| h.0)
    }

    /// A monk (it may parry missiles, "Take Initiative!" §3).
    pub fn monk(&self) -> bool {
        self.fighting.monk
    }

    /// A single-classed fighter.
    pub fn fighter(&self) -> bool {
        self.fighting.fighter
    }

    /// Its melee as "Take Initiative!" costs it: its weapon's speed, the unarmed row for
    /// its size (hands, feet, or no weapon for one that is not a monster), or nothing for
    /// a monster's natural weapons ([`melee_action`](crate::rules::take_initiative::action::melee_action)).
    pub fn melee_action(&self) -> crate::rules::take_initiative::action::Action {
        let brawling = self
            .weapon
            .weapon
            .as_deref()
            .and_then(|w| crate::tables::weapon(w).ok())
            .is_some_and(|w| w.brawling);
        crate::rules::take_initiative::action::melee_action(
            self.weapon.speed_factor,
            brawling,
            self.hit_dice.is_some(),
            self.figure.size,
        )
    }

    /// Its shot as "Take Initiative!" costs it (note 1): the missile's speed (nocked and
    /// ready when it is, standing), less its Dexterity.
    pub fn missile_action(&self) -> crate::rules::take_initiative::action::Action {
        use crate::rules::take_initiative::action::{Action, missile_speed};
        let weapon = self.weapon.weapon.as_deref().unwrap_or("");
        // Nocked and ready once: the shot (or volley) that looses it leaves the next to be
        // nocked or loaded (App. B note 1) — in the surprise segments too.
        let ready = self.weapon.ready && self.rate.rounds_attacking == 0;
        Action::Missile {
            speed: missile_speed(crate::tables::take_initiative(), weapon, ready),
            dexterity: self.dex.reaction,
        }
    }

    /// The round it last gained on its pursuers (§5).
    pub fn burst(&self) -> Option<u32> {
        self.burst_of.map(|b| b.0)
    }

    /// Its attack routines this round at its rate (its next round of attacking).
    pub fn routines_this_round(&self, alternating: crate::rules::options::AlternatingRate) -> u32 {
        let missile = matches!(self.intent.act, Act::Missile { .. });
        self.rate
            .of(missile)
            .routines_in(self.rate.rounds_attacking + 1, alternating)
            .0
    }

    /// The round it last charged (§9).
    pub fn last_charge(&self) -> Option<u32> {
        self.charged_of.map(|c| c.0)
    }
}

/// What planning needs.
#[derive(SystemParam)]
pub(super) struct Planning<'w, 's> {
    scene: Res<'w, SimScene>,
    clock: Res<'w, SegmentClock>,
    dice: ResMut<'w, Dice>,
    plan: ResMut<'w, Plan>,
    figures: Query<'w, 's, PlanFigure>,
    commands: Commands<'w, 's>,
    log: MessageWriter<'w, LogEvent>,
    /// Who sees whom (a specialist's shot before initiative needs its target in sight).
    sight: Option<Res<'w, crate::sim::Sightings>>,
    /// The map's vision: none without a map, where every target is in sight.
    vision: Option<Res<'w, crate::sim::MapVision>>,
}

/// A figure as the planner sees it while it looks at everyone at once: its components as
/// the query reads them (borrowed, not copied), and the act it plans with — its
/// declaration, or the action it changes to mid-round (§1).
pub(super) struct Fig<'a> {
    view: PlanFigureItem<'a, 'a>,
    /// The action it plans with.
    pub act: &'a Act,
}

impl<'a> std::ops::Deref for Fig<'a> {
    type Target = PlanFigureItem<'a, 'a>;

    fn deref(&self) -> &Self::Target {
        &self.view
    }
}

/// Everyone, in the scene's order.
fn everyone<'a>(q: &'a Query<PlanFigure>) -> Vec<Fig<'a>> {
    let mut figs: Vec<Fig<'a>> = q
        .iter()
        .map(|view| Fig {
            act: &view.intent.act,
            view,
        })
        .collect();
    figs.sort_by_key(|f| f.index());
    figs
}

/// The first target of an action that is still standing, with its index in `figs`;
/// failing that, the first that is not dead (a helpless foe may still be struck).
fn first_standing(figs: &[Fig], act: &Act) -> Option<usize> {
    let find = |ok: &dyn Fn(&Fig) -> bool| {
        act.targets()
            .into_iter()
            .find_map(|t| figs.iter().position(|f| f.name() == t && ok(f)))
    };
    find(&|f| f.up()).or_else(|| find(&|f| !f.dead()))
}

/// Feet still to cover before `f` can strike `t` (a hair's breadth counts as none).
fn gap(f: &Fig, t: &Fig) -> f64 {
    let g = f.pos.distance(t.pos) - f.reach();
    if g < 1e-6 { 0.0 } else { g }
}

/// A spell's casting time (the scene's, else the table's), whether it is a device (the
/// scene says so, or the table), and a note when the time is not the table's.
fn spell_info(spell: &str, over: Option<u32>, device: bool) -> (u32, bool, Option<String>) {
    let t = tables::find_spell(spell);
    let segments = over.or(t.map(|s| s.segments)).unwrap_or(1);
    let note = match (t, over) {
        (None, _) => Some(format!(
            "{spell} is not in the spell table: {segments} segments as the scene gives"
        )),
        (Some(s), Some(o)) if o != s.segments => Some(format!(
            "the scene's {o} segments override the table's {} ({})",
            s.segments, s.page
        )),
        _ => None,
    };
    (segments, device || t.is_some_and(|s| s.device), note)
}

/// A figure that does nothing this round or segment, and why.
fn idle(when: (u32, u32), f: &Fig, target: Option<String>, why: String, rule: Rule) -> LogEvent {
    LogEvent::new(
        when,
        f.name(),
        EventKind::Idle,
        target.map(Into::into),
        why,
        rule,
    )
}

/// A figure with no one to strike.
fn no_target(when: (u32, u32), f: &Fig) -> LogEvent {
    idle(
        when,
        f,
        None,
        "no target is standing".into(),
        cite::DECLARE_ACTIONS,
    )
}

/// What the planner decided for the figures, applied after planning.
#[derive(Default)]
struct Changes {
    closing: BTreeMap<usize, Option<Closing>>,
    casting: BTreeMap<usize, Option<Casting>>,
    moving_to: BTreeMap<usize, MoveTo>,
    /// A declaration replaced by what the rules make of it (a set spear striking a charger).
    intent: BTreeMap<usize, Act>,
    attacked: Vec<usize>,
    closing_now: Vec<usize>,
    /// Figures charging this round.
    charging: Vec<usize>,
}

impl Changes {
    /// A plain move toward a figure (stopping at reach) or a point.
    fn start_move(
        &mut self,
        figs: &[Fig],
        i: usize,
        (toward, to): (&Option<String>, &Option<(f64, f64)>),
        fps: f64,
        wait: u32,
    ) {
        if let Some(t) = toward
            .as_ref()
            .and_then(|t| figs.iter().find(|g| g.name() == t))
        {
            self.closing.insert(
                i,
                Some(Closing {
                    target: t.e,
                    feet_per_segment: fps,
                    charge: false,
                    arrival: None,
                    covered: 0.0,
                    wait,
                    step_in: false,
                }),
            );
        } else if let Some(p) = to {
            self.moving_to
                .insert(i, MoveTo(Position { x: p.0, y: p.1 }, fps, wait));
        }
    }

    /// Writes the changes onto the figures; at a round's start, who closed.
    fn apply(self, commands: &mut Commands, figs: &[Fig], round: bool) {
        for (i, c) in self.closing {
            match c {
                Some(c) => commands.entity(figs[i].e).insert(c),
                None => commands.entity(figs[i].e).remove::<Closing>(),
            };
        }
        for (i, c) in self.casting {
            match c {
                Some(c) => commands.entity(figs[i].e).insert(c),
                None => commands.entity(figs[i].e).remove::<Casting>(),
            };
        }
        for (i, m) in self.moving_to {
            commands.entity(figs[i].e).insert(m);
        }
        for (i, act) in self.intent {
            commands.entity(figs[i].e).insert(Intent { act, since: 0 });
        }
        // A charge lasts its round; one that ended in a surprise segment is over when the
        // first round begins (its AC is the figure's own again, DMG p.66).
        if round {
            for (i, f) in figs.iter().enumerate() {
                if !self.charging.contains(&i) {
                    commands.entity(f.e).remove::<Charging>();
                }
            }
        }
        for i in self.charging {
            commands.entity(figs[i].e).insert(Charging);
        }
        for i in self.attacked {
            let mut rate = *figs[i].rate;
            rate.rounds_attacking += 1;
            commands.entity(figs[i].e).insert(rate);
        }
        if round {
            for (i, f) in figs.iter().enumerate() {
                commands.entity(f.e).insert(JustClosed {
                    last_round: f.closed_last_round(),
                    this_round: self.closing_now.contains(&i),
                });
            }
        }
    }
}
