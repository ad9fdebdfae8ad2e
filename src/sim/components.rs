//! The components of a combatant entity: what the figure is, where it stands and what it
//! is doing. Each names one thing the timing rules look at.

use crate::dice::DiceExpr;
use crate::rules::attack_rate::AttackRate as Rate;
use crate::rules::charge::Body;
use crate::rules::combat::Condition;
use crate::scene::Act;
use bevy::prelude::*;

/// A figure of the scene; `index` is its place in the scene file, which orders everything
/// the engine does so that runs are deterministic. Every figure starts the same way in
/// what it is doing — not surprised, holding, nothing on it — so those components come
/// with it ([`Surprised`], [`Intent`], [`Affected`]); its numbers come from its resolved
/// [`FigureStats`](crate::scene::figure::FigureStats) ([`crate::sim::spawn`]).
#[derive(Component, Clone, Debug)]
#[require(Surprised, Intent, Affected, CastingWounds, Moved)]
pub struct Combatant {
    /// Place in the scene's list.
    pub index: usize,
    /// Name (shared with every event and plan entry that names it).
    pub name: crate::name::Name,
    /// Size (S, M, L).
    pub size: crate::rules::size::Size,
}

/// The side a figure fights for.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Side(pub String);

/// Position in feet (x east, y south).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Position {
    /// Feet east.
    pub x: f64,
    /// Feet south.
    pub y: f64,
}

impl Position {
    /// Straight-line distance in feet.
    pub fn distance(&self, other: &Position) -> f64 {
        ((self.x - other.x).powi(2) + (self.y - other.y).powi(2)).sqrt()
    }

    /// The point `feet` along the straight line to `to`, never past it (nor behind here).
    pub fn toward(&self, to: &Position, feet: f64) -> Position {
        let d = self.distance(to);
        let k = if d > 0.0 {
            (feet.max(0.0) / d).min(1.0)
        } else {
            0.0
        };
        Position {
            x: self.x + (to.x - self.x) * k,
            y: self.y + (to.y - self.y) * k,
        }
    }

    /// The point on the straight line to `to` that stops `keep` feet short of it (here, if
    /// already that close).
    pub fn short_of(&self, to: &Position, keep: f64) -> Position {
        self.toward(to, self.distance(to) - keep)
    }
}

/// Movement rate in inches (PHB p.101-102).
#[derive(Component, Clone, Copy, Debug)]
pub struct MovementRate {
    /// Inches.
    pub inches: u32,
    /// Biped or quadruped (outdoor charge bonus).
    pub body: Body,
    /// Too loaded to charge.
    pub encumbered: bool,
}

/// The main weapon's timing numbers.
#[derive(Component, Clone, Debug)]
pub struct WeaponSpeed {
    /// Weapon name.
    pub weapon: Option<String>,
    /// Speed factor.
    pub speed_factor: Option<u32>,
    /// Length in feet.
    pub length_ft: Option<f64>,
    /// A missile weapon.
    pub missile: bool,
    /// An item of speed.
    pub of_speed: bool,
    /// Missile ready at the start.
    pub ready: bool,
    /// A weapon specialist (UA p.18): a readied bow or crossbow shoots before initiative.
    pub specialist: bool,
    /// Iaijutsu with its weapons ("Take Initiative!" App. B notes 2, 3, 5).
    pub iaijutsu: crate::rules::take_initiative::Iaijutsu,
}

impl WeaponSpeed {
    /// The weapon's limits of short, medium and long range in feet, if it can be fired
    /// or thrown (the weapons table).
    pub fn range_ft(&self, setting: crate::rules::distance::Setting) -> Option<(f64, f64, f64)> {
        let w = crate::tables::weapon(self.weapon.as_deref()?).ok()?;
        w.range_ft(setting)
    }
}

/// Melee reach, centre to centre, in feet.
#[derive(Component, Clone, Copy, Debug)]
pub struct Reach(pub f64);

/// Attack routines per round and how many rounds (or surprise segments) of attacking the
/// figure has had, which decides where a 3/2 rate is in its cycle.
#[derive(Component, Clone, Copy, Debug)]
pub struct AttackRate {
    /// The rate.
    pub rate: Rate,
    /// The rate of a melee weapon thrown, if it can be and none was given (a dagger 2,
    /// PHB p.38).
    pub thrown: Option<Rate>,
    /// Rounds of attacking so far.
    pub rounds_attacking: u32,
}

impl AttackRate {
    /// The rate of its declared attack: thrown, a weapon's rate of fire; else its rate.
    pub fn of(&self, missile: bool) -> Rate {
        match self.thrown {
            Some(t) if missile => t,
            _ => self.rate,
        }
    }

    /// Haste or slow on both its rates.
    pub fn change(&mut self, how: impl Fn(Rate) -> Rate) {
        self.rate = how(self.rate);
        self.thrown = self.thrown.map(&how);
    }
}

/// Dexterity and its adjustments.
#[derive(Component, Clone, Copy, Debug)]
pub struct Dexterity {
    /// Score.
    pub score: u32,
    /// Reaction/attacking adjustment (PHB p.11).
    pub reaction: i32,
    /// Light gear, which bonuses need (PHB p.101).
    pub light_gear: bool,
}

impl Dexterity {
    /// The adjustment to the initiative die that applies (a bonus needs light gear): from
    /// [`crate::rules::dexterity::effective_adjustment`], the one place it is decided.
    pub fn adjustment(&self) -> i32 {
        crate::rules::dexterity::effective_adjustment(self.score, self.light_gear)
    }
}

/// To-hit and damage numbers.
#[derive(Component, Clone, Debug)]
pub struct Fighting {
    /// Roll needed to hit AC 0.
    pub thac0: i32,
    /// Standing to-hit bonus.
    pub to_hit_bonus: i32,
    /// Standing damage bonus.
    pub damage_bonus: i32,
    /// Main weapon damage.
    pub damage: DiceExpr,
    /// Off-hand weapon and its damage.
    pub off_hand: Option<(String, DiceExpr)>,
    /// A monster's natural attacks, each its own roll within a routine (DMG p.63).
    pub natural_attacks: Vec<DiceExpr>,
    /// Initiative die.
    pub initiative_die: u32,
    /// A single-classed fighter (its parry under "Take Initiative!").
    pub fighter: bool,
    /// The main weapon's magic bonus (a fumble's second roll adds it).
    pub weapon_magic: i32,
    /// A monk: real damage with hands and feet (house rules, "Weaponless Combat").
    pub monk: bool,
    /// A monk doing all its weaponless damage as subdual, by choice.
    pub all_subdual: bool,
}

impl Fighting {
    /// The attacks of one melee routine, each rolled on its own: a monster's claw, claw and
    /// bite (or its one weapon), and a weapon in the other hand.
    pub fn melee_attacks(&self) -> u32 {
        (self.natural_attacks.len() as u32).max(1) + u32::from(self.off_hand.is_some())
    }
}

/// Armor class and armor type.
#[derive(Component, Clone, Copy, Debug)]
pub struct ArmorClass {
    /// AC.
    pub ac: i32,
    /// Armor type (PHB p.38).
    pub ac_type: i32,
}

/// Hit points and what they mean.
#[derive(Component, Clone, Copy, Debug)]
pub struct HitPoints {
    /// Current.
    pub current: i32,
    /// At the start.
    pub max: i32,
    /// Up, unconscious or dead.
    pub condition: Condition,
    /// The round it fell in (0 for surprise).
    pub fell_in_round: Option<u32>,
    /// Subdual damage taken, kept apart from the hit points (house rules, "Weaponless
    /// Combat").
    pub subdual: i32,
}

/// A light carried.
#[derive(Component, Clone, Debug)]
pub struct Light {
    /// Source.
    pub source: String,
    /// Radius in feet.
    pub radius_ft: f64,
}

/// Infravision range in feet.
#[derive(Component, Clone, Copy, Debug)]
pub struct Infravision(pub f64);

/// How long the figure is surprised.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Surprised {
    /// Its own segments of surprise (after Dexterity).
    pub segments: u32,
    /// Segments its side stays surprised: its die's, or longer while any member is still
    /// surprised (a Dexterity penalty); a figure awake before then is "on guard" (DMG p.71).
    pub side_segments: u32,
}

/// What the figure has declared and is doing.
#[derive(Component, Clone, Debug)]
pub struct Intent {
    /// The action.
    pub act: Act,
    /// The global tick it was declared in.
    pub since: u32,
}

impl Default for Intent {
    /// Holding, from the start.
    fn default() -> Self {
        Intent {
            act: Act::Hold,
            since: 0,
        }
    }
}

/// The round in which a figure last cast a spell (not a device or potion): under "Take
/// Initiative!" it has no Dexterity bonus to AC for that whole round (§9d), even after the
/// spell went off.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastsInRound(pub u32);

/// A spell, device or potion under way.
#[derive(Component, Clone, Debug)]
pub struct Casting {
    /// What it is.
    pub what: String,
    /// The target, if any.
    pub target: Option<String>,
    /// Casting or delay in segments.
    pub segments: u32,
    /// Tick it started.
    pub started: u32,
    /// Tick it completes.
    pub completes: u32,
    /// A device (not ruined by a hit unless the wielder falls).
    pub device: bool,
    /// A potion.
    pub potion: bool,
    /// The point an area spell is cast at, in feet (none: round its target).
    pub at: Option<(f64, f64)>,
}

/// Under "Take Initiative!": the damage a caster has taken in the casting of its spell,
/// before it goes off (Basics: the save to keep the spell counts all of it — wounds taken
/// earlier in the round it changed its action to casting, and a spell carried into the
/// next round included).
#[derive(Component, Clone, Debug, Default)]
pub struct CastingWounds {
    /// The tick the casting the damage counts for began.
    pub since: u32,
    /// Hit points lost, counted for that casting.
    pub hp: u32,
    /// A save for that casting was rolled (a hit on it while casting).
    pub rolled: bool,
    /// Wounds of the round under way: (tick, hit points), to count those taken before a
    /// casting begun mid-round (a change of action).
    pub this_round: Vec<(u32, u32)>,
}

impl CastingWounds {
    /// Notes a wound of `hp` at `tick`; `same_round` tells which earlier ticks are of the
    /// round under way (older wounds are forgotten).
    pub fn wound(&mut self, tick: u32, hp: u32, same_round: impl Fn(u32) -> bool) {
        self.this_round.retain(|w| same_round(w.0));
        if hp > 0 {
            self.this_round.push((tick, hp));
        }
    }

    /// The wounds of the round a casting began in (`same_round` tells its ticks) taken
    /// before tick `until`: under "Take Initiative!" a casting is under way from its
    /// round's start, a change of action to casting included.
    pub fn before(&self, until: u32, same_round: impl Fn(u32) -> bool) -> u32 {
        self.this_round
            .iter()
            .filter(|w| w.0 < until && same_round(w.0))
            .map(|w| w.1)
            .sum()
    }

    /// Adds `hp` taken in the casting begun at tick `since` (another casting starts afresh
    /// from `earlier`, the round's wounds before it began); the whole since it began.
    pub fn take(&mut self, since: u32, earlier: u32, hp: u32) -> u32 {
        if self.since != since {
            self.since = since;
            self.hp = earlier;
            self.rolled = false;
        }
        self.hp += hp;
        self.rolled = true;
        self.hp
    }
}

/// A figure's cantrips ruined in this round (a hit before they were done, DMG p.65): the
/// rest of them do not complete.
#[derive(Component, Clone, Copy, Debug)]
pub struct CantripsRuined(pub u32);

/// A charge or closing move under way this round.
#[derive(Component, Clone, Debug)]
pub struct Closing {
    /// The figure approached.
    pub target: Entity,
    /// Feet per segment.
    pub feet_per_segment: f64,
    /// A charge (not a plain approach).
    pub charge: bool,
    /// Segment of arrival in this round or surprise segment.
    pub arrival: Option<u32>,
    /// Feet covered so far.
    pub covered: f64,
    /// Segments to wait before setting off (hesitation, DMG p.71).
    pub wait: u32,
    /// A step into reach by a figure whose foe started the round within 1" (DMG p.66): part
    /// of the round's fighting, taken at its start, not a move timed by its rate.
    pub step_in: bool,
}

/// Charging this round: no Dexterity bonus to its armor class, or one class worse without
/// one (DMG p.66).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Charging;

/// A wall stopped its move or charge this round (round, segment): it comes no nearer, and a
/// blow planned for its arrival is not struck (said so, not "out of reach").
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blocked {
    /// The round.
    pub round: u32,
    /// The segment it was stopped in.
    pub segment: u32,
    /// What stopped it, in words ("a wall", "a closed door", "a pillar").
    pub by: &'static str,
}

/// Slowed: it acts as if its side lost initiative (reading `spell.slow`); its halved attacks
/// and movement are in its [`AttackRate`] and [`MovementRate`].
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Slowed;

/// Hasted (PHB p.74): its doubled attacks and movement are in its [`AttackRate`] and
/// [`MovementRate`]; a slow on it only undoes the haste, as a haste undoes a slow.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Hasted;

/// The last round in which a figure took any step (a move, a close, a charge; 0 for the
/// surprise segments): under the house rule of move or strike, several attacks only from
/// the second round standing still.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Moved {
    /// The round of its last step, if it ever moved.
    pub round: Option<u32>,
}

/// Set when a figure closed or charged in the round before: speed factors do not apply in
/// its first round of blows after (DMG p.66).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct JustClosed {
    /// Closed (or charged) in the last round.
    pub last_round: bool,
    /// Closing or charging this round.
    pub this_round: bool,
}

/// A hand a spell has put between this figure (its caster) and one opponent, which cannot
/// strike the caster past it (PHB p.86).
#[derive(Component, Clone, Debug)]
pub struct Interposed {
    /// The opponent held off.
    pub against: Entity,
    /// The spell.
    pub spell: String,
}

/// What completed spells have done to this figure, in order: (spell, outcome word), e.g.
/// ("hold person", "held"). The viewer marks the figure with them.
#[derive(Component, Clone, Debug, Default)]
pub struct Affected(pub Vec<(String, Mark)>);

/// What the map marks on a figure's token: a spell's outcome, or a weapon lost to a fumble.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mark {
    /// What a spell did to it.
    Spell(crate::rules::effect::Outcome),
    /// It fumbled its weapon away (house rules).
    Disarmed,
}

impl Mark {
    /// The mark in a word, as shown on the map ("held", "disarmed").
    pub fn word(self) -> &'static str {
        match self {
            Mark::Spell(o) => o.word(),
            Mark::Disarmed => "disarmed",
        }
    }
}

/// Hit dice, or level for a character, where the scene gives them (death spell, sleep),
/// and the points added to or taken from them ("1+1": `HitDice(1, 1)`), which sleep's
/// table reads (PHB p.68).
#[derive(Component, Clone, Copy, Debug)]
pub struct HitDice(pub u32, pub i32);

/// The spells a figure's kind ignores (MM: the undead are not put to sleep or held).
#[derive(Component, Clone, Copy, Debug)]
pub struct Immune(pub crate::rules::monster::Immunities);

/// No person (PHB p.45): a monster not of the kinds hold person works on.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct NotAPerson;

/// The d20 roll a figure needs to save against spells (DMG p.79).
#[derive(Component, Clone, Copy, Debug)]
pub struct SavingThrow(pub u32);

/// An area a spell fills: silence, light or darkness, around a figure (moving with it) or
/// a point.
#[derive(Component, Clone, Debug)]
pub struct SpellArea {
    /// The spell.
    pub spell: String,
    /// What it does.
    pub effect: crate::rules::effect::Effect,
    /// Its radius in feet.
    pub radius_ft: f64,
    /// The figure it is centred on, if any (it moves with it).
    pub on: Option<Entity>,
    /// Where its centre is now.
    pub at: Position,
}

/// Under "Take Initiative!": running from its foes, its back turned (§5): a pursuer's blow
/// at it is from behind.
#[derive(Component, Clone, Copy, Debug)]
pub struct Fleeing;

/// Under "Take Initiative!": the round a fleer last gained 1" × its initiative on its
/// pursuers (§5: once a turn of 10 rounds).
#[derive(Component, Clone, Copy, Debug)]
pub struct PursuitBurst(pub u32);

/// Under "Take Initiative!": the round the figure last charged (§9: once a turn of 10
/// rounds).
#[derive(Component, Clone, Copy, Debug)]
pub struct LastCharge(pub u32);

/// Hidden in shadows (§10): its foes are unaware of it until it acts.
#[derive(Component, Clone, Copy, Debug)]
pub struct Hidden;

/// Struck by a foe it did not know was there (§10a-c), in this (round, segment): it may
/// change its action then.
#[derive(Component, Clone, Copy, Debug)]
pub struct CaughtUnaware(pub u32, pub u32);

/// A thief's chance to hide in shadows, in percent (PHB p.28).
#[derive(Component, Clone, Copy, Debug)]
pub struct HideChance(pub u32);

/// Under "Take Initiative!": a total over 20 last round, to act on this round without a
/// new roll (total − 20).
#[derive(Component, Clone, Copy, Debug)]
pub struct CarriedInitiative(pub u32);

/// Under "Take Initiative!": the d10 rolled this round (its base initiative), up to which
/// the figure may still change its action.
#[derive(Component, Clone, Copy, Debug)]
pub struct BaseInitiative(pub u32);

/// A weapon lost to a fumble (house rules, "Critical Misses"): the figure strikes no more
/// with it. Where it lies, if it was thrown rather than broken.
#[derive(Component, Clone, Debug)]
pub struct Disarmed {
    /// The weapon.
    pub weapon: String,
    /// Where it landed, in feet (none: broken).
    pub lies_at: Option<(f64, f64)>,
}

/// A psionic's strengths now (DMG p.76-78): spent on modes, lost to attacks, never below 0.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Psionic {
    /// Attack strength.
    pub attack: u32,
    /// Defense strength.
    pub defense: u32,
}

/// A non-psionic's saving throw when a psionic blast's area takes it in (DMG p.78).
#[derive(Component, Clone, Copy, Debug)]
pub struct SaveVsPsionics(pub u32);

/// A mundane attack struck this figure in (round, segment): a psionic's psionic combat
/// ends then (PHB p.39).
#[derive(Component, Clone, Copy, Debug)]
pub struct MundaneHit(pub u32, pub u32);

/// Where a charge made contact with its target: the (round, segment) it reached it. Its
/// blow lands at contact though the target walks on in that segment (DMG p.66).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChargeContact(pub u32, pub u32);
