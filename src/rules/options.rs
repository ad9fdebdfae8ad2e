//! Named interpretations of places where the rules text reads two ways.
//!
//! Each option has one default reading (the one the worked examples in the rules text follow)
//! and at least one alternative. Scenes switch them with `rules: (...)`; the viewer and the
//! event log always say which reading is in force. Rules functions take the option they
//! depend on as a parameter, so no reading is ever mixed silently with another.

use serde::{Deserialize, Serialize};

/// How a 3/2 or 5/2 attack rate alternates (DMG p.63).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AlternatingRate {
    /// The extra routine comes in the figure's odd-numbered rounds of attacking: 3/2 gives
    /// 2, 1, 2, 1… counting each round (or surprise segment) in which the figure makes
    /// routines. This is how the Otis-vs-Robilar example and the ranger's 2-1-2 bolts in the
    /// Example of Melee count (DMG p.63: "twice in every odd numbered melee round").
    #[default]
    ExtraInOddRounds,
    /// The extra routine comes in even-numbered rounds: 3/2 gives 1, 2, 1, 2…
    ExtraInEvenRounds,
}

/// What decides the order of blows in the first round of melee after a round spent closing
/// (DMG p.66).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FirstRoundTiebreak {
    /// Weapon length decides (the longer first), as in Zagyg's demi-plane, round 2.
    #[default]
    WeaponLength,
    /// Nothing breaks the tie: the blows land at the same time.
    Simultaneous,
}

/// When a spell's casting segments start counting (DMG p.65).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SpellStart {
    /// Casting starts with the round: a spell of N segments completes in segment N, whoever
    /// won initiative (Bigby's 7-segment spell completes in segment 7; every example in the
    /// rules text counts this way).
    #[default]
    RoundStart,
    /// A caster whose side lost initiative starts casting after the segment shown by the
    /// winning die: a spell of N segments completes in segment (winner's die + N).
    AfterWinningDie,
}

/// How hesitation in declaring is turned into segments of delay (DMG p.71).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HesitationRounding {
    /// Only whole 6-second spans count: 20 seconds is 3 segments (Otto's example).
    #[default]
    WholeSegments,
    /// Any part of a 6-second span counts: 20 seconds is 4 segments.
    PartSegmentsCount,
}

/// How the speed factor is compared with a casting time when initiative is tied
/// (DMG p.66-67).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TiedSpeedFactor {
    /// The raw speed factor is read as the segment of the blow (the wand-of-frost and
    /// power-word-kill examples).
    #[default]
    Raw,
    /// The tied die is subtracted too, as when the attacker loses: |speed factor - die|.
    MinusTiedDie,
}

/// Where the later routines of a multi-routine attacker fall against a spell whose
/// completion its first routine was timed against (DMG p.65).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LaterRoutines {
    /// After the completion: only the first routine can disrupt, so the rest come after
    /// the spell (the archers' second volley follows the cure, DMG p.65).
    #[default]
    AfterCompletion,
    /// Left unordered against the completion: the rules time only the first routine.
    Unordered,
}

/// Whether the speed-factor double (or triple) blow is granted to the first routine when
/// both opponents have the same number of routines above one (DMG p.66).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ExtraBlows {
    /// The faster weapon's first routine gets the extra blows whenever the routines are
    /// even (the rule is stated for the blows that decide who strikes first).
    #[default]
    FirstRoutine,
    /// Only when both have a single routine.
    SingleRoutinesOnly,
}

/// How a missile user's several shots in a round are placed (DMG p.63).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MissileVolley {
    /// Like melee routines: a rate of fire of 2 shoots first and last (DMG p.63, VII A 5).
    #[default]
    SpreadLikeRoutines,
    /// The whole volley at once, where a single routine would fall.
    OneBlock,
}

/// A charge against a missile user (DMG p.66 and the table's chart).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MissileVsCharge {
    /// A missile's first volley comes before a charger's blow: a missile outreaches any weapon.
    #[default]
    MissilesFirst,
    /// The dice decide: a charger whose side wins reaches the archer before any arrow
    /// flies, and shots not yet loosed are lost at contact; a tie goes to the missiles.
    ByInitiative,
}

/// An action that takes no time (casting or activation time 0) against an attacker who won
/// initiative (DMG p.65-67).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum InstantActions {
    /// The winner strikes first, as against any casting (DMG p.65-67).
    #[default]
    AttackerFirst,
    /// The instant action goes off first, at the very start of the round.
    InstantFirst,
}

/// A charge declared when the foe is already within 1" (DMG p.66 gives the charge as the
/// alternative to a round of closing when foes start more than 1" apart).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ChargeWithinInch {
    /// Fought as normal melee: initiative decides, no charge bonus.
    #[default]
    AsMelee,
    /// Still a charge: contact at once, the longer reach first, +2 to hit.
    AsCharge,
}

/// The rules system a scene is played under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RulesSystem {
    /// The book's: side initiative on d6, rounds of ten 6-second segments (DMG p.61-67).
    #[default]
    Book,
    /// "Take Initiative!": each figure's d10 plus its action's modifiers, rounds of 20
    /// ordering segments (the variant text; [`super::take_initiative`]).
    TakeInitiative,
}

impl RulesSystem {
    /// How a round's segments are named: "segment" (six seconds) under the book, "ordering
    /// segment" under "Take Initiative!" (they order events; they are not equal spans).
    pub fn segment_word(self) -> &'static str {
        match self {
            RulesSystem::Book => "segment",
            RulesSystem::TakeInitiative => "ordering segment",
        }
    }
}

/// All interpretation options in force for a scene or a calculation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RulesOptions {
    /// See [`AlternatingRate`].
    #[serde(skip_serializing_if = "crate::text::is_default")]
    pub alternating_rate: AlternatingRate,
    /// See [`FirstRoundTiebreak`].
    #[serde(skip_serializing_if = "crate::text::is_default")]
    pub first_round_tiebreak: FirstRoundTiebreak,
    /// See [`SpellStart`].
    #[serde(skip_serializing_if = "crate::text::is_default")]
    pub spell_start: SpellStart,
    /// See [`HesitationRounding`].
    #[serde(skip_serializing_if = "crate::text::is_default")]
    pub hesitation: HesitationRounding,
    /// See [`TiedSpeedFactor`].
    #[serde(skip_serializing_if = "crate::text::is_default")]
    pub tied_speed_factor: TiedSpeedFactor,
    /// See [`LaterRoutines`].
    #[serde(skip_serializing_if = "crate::text::is_default")]
    pub later_routines: LaterRoutines,
    /// See [`ExtraBlows`].
    #[serde(skip_serializing_if = "crate::text::is_default")]
    pub extra_blows: ExtraBlows,
    /// See [`MissileVolley`].
    #[serde(skip_serializing_if = "crate::text::is_default")]
    pub missile_volley: MissileVolley,
    /// See [`MissileVsCharge`].
    #[serde(skip_serializing_if = "crate::text::is_default")]
    pub missile_vs_charge: MissileVsCharge,
    /// See [`InstantActions`].
    #[serde(skip_serializing_if = "crate::text::is_default")]
    pub instant_actions: InstantActions,
    /// See [`ChargeWithinInch`].
    #[serde(skip_serializing_if = "crate::text::is_default")]
    pub charge_within_inch: ChargeWithinInch,
    /// See [`RulesSystem`].
    #[serde(skip_serializing_if = "crate::text::is_default")]
    pub system: RulesSystem,
    /// Where two figures moving at each other meet under "Take Initiative!" (9g).
    #[serde(skip_serializing_if = "crate::text::is_default")]
    pub come_together: super::take_initiative::charge::ComeTogether,
    /// What a figure moving off does when a charge catches it first (9f).
    #[serde(skip_serializing_if = "crate::text::is_default")]
    pub charged_mover: super::take_initiative::charge::ChargedMover,
    /// What a pursuer does when a withdrawing figure wins and its blocker has not yet
    /// acted (7b).
    #[serde(skip_serializing_if = "crate::text::is_default")]
    pub blocked_pursuer: super::take_initiative::flee::BlockedPursuer,
    /// Whether the table plays with spell cards (App. B note 6).
    #[serde(skip_serializing_if = "crate::text::is_default")]
    pub spell_cards: super::take_initiative::spell::SpellCards,
    /// The table's house rules switched on (none by default; see [`super::house`]).
    #[serde(skip_serializing_if = "crate::text::is_default")]
    pub house: super::house::HouseRules,
}

impl RulesOptions {
    /// Each reading in force in plain words, for a DM reading the viewer: (what it
    /// decides, the reading).
    pub fn plain(&self) -> Vec<(&'static str, &'static str)> {
        let mut v = vec![
            (
                "Rules",
                match self.system {
                    RulesSystem::Book => "the book's (side d6, 10 segments)",
                    RulesSystem::TakeInitiative => {
                        "Take Initiative! (each d10, 20 ordering segments)"
                    }
                },
            ),
            (
                "3/2 attack rates",
                match self.alternating_rate {
                    AlternatingRate::ExtraInOddRounds => {
                        "the extra routine in odd rounds (2, 1, 2...)"
                    }
                    AlternatingRate::ExtraInEvenRounds => {
                        "the extra routine in even rounds (1, 2, 1...)"
                    }
                },
            ),
            (
                "First blows after closing",
                match self.first_round_tiebreak {
                    FirstRoundTiebreak::WeaponLength => "the longer weapon first",
                    FirstRoundTiebreak::Simultaneous => "together",
                },
            ),
            (
                "A loser's spell starts",
                match self.spell_start {
                    SpellStart::RoundStart => "with the round",
                    SpellStart::AfterWinningDie => "after the winner's die",
                },
            ),
            (
                "Hesitation counts",
                match self.hesitation {
                    HesitationRounding::WholeSegments => "whole 6-second spans",
                    HesitationRounding::PartSegmentsCount => "any part of a span",
                },
            ),
            (
                "Speed factor on a tie",
                match self.tied_speed_factor {
                    TiedSpeedFactor::Raw => "read as the segment",
                    TiedSpeedFactor::MinusTiedDie => "less the tied die",
                },
            ),
            (
                "Later routines against a spell",
                match self.later_routines {
                    LaterRoutines::AfterCompletion => "after it completes",
                    LaterRoutines::Unordered => "unordered",
                },
            ),
            (
                "Extra blows of a fast weapon",
                match self.extra_blows {
                    ExtraBlows::FirstRoutine => "on the first routine",
                    ExtraBlows::SingleRoutinesOnly => "single routines only",
                },
            ),
            (
                "Missile volleys",
                match self.missile_volley {
                    MissileVolley::SpreadLikeRoutines => "spread like routines",
                    MissileVolley::OneBlock => "in one block",
                },
            ),
            (
                "Missiles against a charge",
                match self.missile_vs_charge {
                    MissileVsCharge::MissilesFirst => "the missiles first",
                    MissileVsCharge::ByInitiative => "by the dice",
                },
            ),
            (
                "Instant actions",
                match self.instant_actions {
                    InstantActions::AttackerFirst => "after a winning attacker",
                    InstantActions::InstantFirst => "first",
                },
            ),
            (
                "A charge from within 1\"",
                match self.charge_within_inch {
                    ChargeWithinInch::AsMelee => "fought as melee",
                    ChargeWithinInch::AsCharge => "still a charge",
                },
            ),
        ];
        if self.system == RulesSystem::TakeInitiative {
            v.push((
                "Chargers meeting",
                match self.come_together {
                    super::take_initiative::charge::ComeTogether::AsWritten => "the text's formula",
                    super::take_initiative::charge::ComeTogether::Proportional => {
                        "in proportion to their moves"
                    }
                },
            ));
            v.push((
                "A mover a charge catches",
                match self.charged_mover {
                    super::take_initiative::charge::ChargedMover::StandsAndStrikes => {
                        "stands and strikes back"
                    }
                    super::take_initiative::charge::ChargedMover::GoesOn => "goes on its way",
                },
            ));
            v.push((
                "Casting a spell",
                match self.spell_cards {
                    super::take_initiative::spell::SpellCards::With => {
                        "+6 + its level (spell cards)"
                    }
                    super::take_initiative::spell::SpellCards::Without => {
                        "+8 + its level, at most 20 (no spell cards)"
                    }
                },
            ));
            v.push((
                "A pursuer past a withdrawal",
                match self.blocked_pursuer {
                    super::take_initiative::flee::BlockedPursuer::Follows => "follows it",
                    super::take_initiative::flee::BlockedPursuer::TurnsOnBlocker => {
                        "turns on the blocker"
                    }
                },
            ));
        }
        // House rules are what a reader least expects: right after the system.
        v.splice(1..1, self.house.on().map(|r| (r.name, r.what)));
        v
    }

    /// Where the rules text decides what a line of [`Self::plain`] is about.
    pub fn page(what: &str) -> &'static str {
        if let Some(r) = super::house::RULES.iter().find(|r| r.name == what) {
            return r.page;
        }
        match what {
            "Rules" => "DMG p.61-67; Take Initiative! §Basics",
            "3/2 attack rates" | "Missile volleys" => "DMG p.63",
            "A loser's spell starts" | "Later routines against a spell" => "DMG p.65",
            "Hesitation counts" => "DMG p.71",
            "Speed factor on a tie" => "DMG p.66-67",
            "Instant actions" => "DMG p.65-67",
            "Chargers meeting" => "Take Initiative! §9g",
            "A mover a charge catches" => "Take Initiative! §9f",
            "A pursuer past a withdrawal" => "Take Initiative! §7b",
            "Casting a spell" => "Take Initiative! App. B note 6",
            _ => "DMG p.66",
        }
    }

    /// One line per option, naming the reading in force (for the viewer and `--help`):
    /// the readings of the system in force — under "Take Initiative!" the book's orderings
    /// are not played, only its attack rates (and the surprise segments, played by the book).
    pub fn describe(&self) -> Vec<String> {
        if self.system == RulesSystem::TakeInitiative {
            return [
                format!("system: {:?}", self.system),
                format!("alternating_rate: {:?}", self.alternating_rate),
                format!("come_together: {:?}", self.come_together),
                format!("charged_mover: {:?}", self.charged_mover),
                format!("blocked_pursuer: {:?}", self.blocked_pursuer),
                format!("spell_cards: {:?}", self.spell_cards),
            ]
            .into_iter()
            .chain(self.house.describe())
            .collect();
        }
        vec![
            format!("alternating_rate: {:?}", self.alternating_rate),
            format!("first_round_tiebreak: {:?}", self.first_round_tiebreak),
            format!("spell_start: {:?}", self.spell_start),
            format!("hesitation: {:?}", self.hesitation),
            format!("tied_speed_factor: {:?}", self.tied_speed_factor),
            format!("later_routines: {:?}", self.later_routines),
            format!("extra_blows: {:?}", self.extra_blows),
            format!("missile_volley: {:?}", self.missile_volley),
            format!("missile_vs_charge: {:?}", self.missile_vs_charge),
            format!("instant_actions: {:?}", self.instant_actions),
            format!("charge_within_inch: {:?}", self.charge_within_inch),
        ]
        .into_iter()
        .chain(self.house.describe())
        .collect()
    }
}
