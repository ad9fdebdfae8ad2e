//! A declared action as the timing rules see it: what kind, how many routines, speed
//! factor, reach, casting or arrival time, and the initiative die it rolls with.

use super::chart::Category;
use serde::{Deserialize, Serialize};

/// What a figure does this round, in the terms the timing rules need.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum ActionKind {
    /// Melee: with a weapon (give a speed factor) or natural attacks (none).
    Melee,
    /// Missile fire or thrown weapons.
    Missile,
    /// A charge that makes contact in `arrival_segment`.
    Charge {
        /// The segment the charger reaches striking distance.
        arrival_segment: u32,
    },
    /// A spell, potion, scroll or device that completes after `segments`.
    Cast {
        /// Casting or activation time in segments.
        segments: u32,
        /// A device (rod, staff, wand): not ruined by a hit unless the wielder falls (DMG p.65).
        device: bool,
    },
    /// Turning undead.
    Turn,
    /// A non-combat act (search a pack, pull a lever, bar a door): it aims at no one, so it
    /// is a fight of its own, placed among the others by its side's initiative (DMG p.61-62).
    Other,
}

/// What starts a figure's round late, besides hesitating (DMG p.71): house rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LateBy {
    /// Segments lost to surprise, carried into this round (house rules, "Determine
    /// Surprise").
    Surprise,
    /// Waiting on another figure's action (house rules, "Delay Action").
    Awaiting,
    /// Moving up to its foe first: half a move and a blow (house rules, "Combat Actions").
    Moving,
    /// Meeting a charge that has no blow of its own (a house rule ruled the charger's
    /// weapon out): the blow struck back waits for contact (DMG p.66).
    MeetingCharge,
}

impl LateBy {
    /// The rule that makes it late.
    pub fn rule(self) -> super::cite::Rule {
        use super::cite;
        match self {
            LateBy::Surprise => cite::HOUSE_SURPRISE_CARRIES,
            LateBy::Awaiting => cite::HOUSE_AWAIT,
            LateBy::Moving => cite::HOUSE_MOVE_OR_STRIKE,
            LateBy::MeetingCharge => cite::CHARGE_STRIKE_BACK,
        }
    }

    /// Why, in a few words.
    pub fn why(self) -> &'static str {
        match self {
            LateBy::Surprise => "segments lost to surprise carried over",
            LateBy::Awaiting => "waiting on another's action",
            LateBy::Moving => "moving up to its foe first",
            LateBy::MeetingCharge => "waiting for the charge to make contact",
        }
    }
}

/// One figure's declared action with everything that decides its timing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Declared {
    /// The figure's name.
    pub name: String,
    /// Its side; figures on one side share the initiative die.
    pub side: String,
    /// What it does.
    pub kind: ActionKind,
    /// Its side's initiative die.
    pub die: u32,
    /// Its Dexterity attacking adjustment as it applies (gear already considered); counted
    /// only for missile fire (DMG p.64).
    pub dex_adjustment: i32,
    /// Attack routines this round (1 for spells, charges and turning).
    pub routines: u32,
    /// The weapon's speed factor, if it has one.
    pub speed_factor: Option<u32>,
    /// Weapon length or reach in feet.
    pub reach_ft: f64,
    /// Armed with an item that strikes first regardless of initiative (DMG p.168).
    pub strikes_first: bool,
    /// The spell's whole casting time when it is longer than what is left of it this round
    /// (a spell carried over): a spell of a full round or more can be disrupted by later
    /// routines too (DMG p.65).
    #[serde(default)]
    pub casting_total: Option<u32>,
    /// Segments of delay from hesitating to declare (DMG p.71): its first blow comes no
    /// earlier than segment 1 + delay (a spell's or a charge's delay is in its segments).
    #[serde(default)]
    pub delay: u32,
    /// What made it late, when not hesitation: a house rule that starts its round late.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub late_by: Option<LateBy>,
    /// Its `Cast` segments are already the segment it completes in this round, placed by
    /// the engine (a spell begun after the winner's die, late, or in an earlier round; a
    /// cantrip's second): no reading of when spells start moves it again. Otherwise they
    /// are its casting time, and [`crate::rules::spell::completion_segment`] places it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub completion_placed: bool,
    /// A spear or pole arm set against a charge: it strikes the charger first.
    #[serde(default)]
    pub set_vs_charge: bool,
    /// Slowed: acts as if its side lost initiative (reading `spell.slow`).
    #[serde(default)]
    pub slowed: bool,
}

impl Declared {
    /// A melee action with sensible defaults, for tests and builders.
    pub fn melee(name: &str, die: u32) -> Declared {
        Declared {
            name: name.into(),
            side: name.into(),
            kind: ActionKind::Melee,
            die,
            dex_adjustment: 0,
            routines: 1,
            speed_factor: None,
            reach_ft: 0.0,
            strikes_first: false,
            casting_total: None,
            delay: 0,
            late_by: None,
            completion_placed: false,
            set_vs_charge: false,
            slowed: false,
        }
    }

    /// Sets the side.
    pub fn side(mut self, side: &str) -> Self {
        self.side = side.into();
        self
    }
    /// Sets the kind.
    pub fn kind(mut self, kind: ActionKind) -> Self {
        self.kind = kind;
        self
    }
    /// Sets the speed factor.
    pub fn sf(mut self, sf: u32) -> Self {
        self.speed_factor = Some(sf);
        self
    }
    /// Sets the routines this round.
    pub fn routines(mut self, n: u32) -> Self {
        self.routines = n;
        self
    }
    /// Sets the reach or weapon length in feet.
    pub fn reach(mut self, ft: f64) -> Self {
        self.reach_ft = ft;
        self
    }
    /// Sets the Dexterity adjustment (used for missile fire).
    pub fn dex(mut self, adj: i32) -> Self {
        self.dex_adjustment = adj;
        self
    }
    /// Marks an item of speed.
    pub fn of_speed(mut self) -> Self {
        self.strikes_first = true;
        self
    }

    /// The figure's initiative score: the die, plus Dexterity for missile fire (DMG p.64).
    pub fn initiative(&self) -> i32 {
        if self.slowed {
            // As if it lost initiative: below any die.
            return 0;
        }
        match self.kind {
            ActionKind::Missile => self.die as i32 + self.dex_adjustment,
            _ => self.die as i32,
        }
    }

    /// Casting or activation time, if the action has one.
    pub fn casting(&self) -> Option<u32> {
        match self.kind {
            ActionKind::Cast { segments, .. } => Some(segments),
            _ => None,
        }
    }

    /// The whole casting time: [`Declared::casting_total`], else what is left this round.
    pub fn whole_casting_time(&self) -> Option<u32> {
        self.casting().map(|c| self.casting_total.unwrap_or(c))
    }

    /// The chart category of the action.
    pub fn category(&self) -> Category {
        match self.kind {
            ActionKind::Melee if self.routines > 1 => Category::MeleeMulti,
            ActionKind::Melee if self.speed_factor.is_some() => Category::MeleeSf,
            ActionKind::Melee => Category::Melee,
            ActionKind::Missile if self.routines > 1 => Category::MissileMulti,
            ActionKind::Missile => Category::Missile,
            ActionKind::Charge { .. } => Category::Charge,
            ActionKind::Cast { .. } => Category::Spell,
            ActionKind::Turn => Category::Turn,
            // Never charted: it faces no one. Timed like a blow without a speed factor.
            ActionKind::Other => Category::Melee,
        }
    }

    /// The heading shown for the action: its chart category's, or OTHER for a non-combat
    /// act, which no chart covers.
    pub fn heading(&self) -> &'static str {
        match self.kind {
            ActionKind::Other => "OTHER",
            _ => self.category().heading(),
        }
    }

    /// The same action with a single routine: how one routine of a multi-routine attacker
    /// is timed (the charts' "as MELEE or MELEE W/ SF").
    pub fn single(&self) -> Declared {
        let mut s = self.clone();
        s.routines = s.routines.min(1);
        s
    }
}
