//! What a completed spell does to the fight, for the spells whose effect changes timing or
//! who can act. The spells table (`assets/spells.ron`) names each spell's [`Effect`]; this
//! module decides, for one target, what the effect comes to — slain, held, asleep, saved,
//! too strong for it — and names the rule and page. Every other spell is timed only, and
//! its completion says so ([`cite::NOT_MODELLED`]).

use super::cite::{self, Rule};
use super::monster::{Immunities, Immunity};
use serde::Deserialize;

/// What a spell does when it completes, as far as the fight's timing is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Effect {
    /// Kills the target outright if it is within the limits (power word kill: up to 60 hp,
    /// PHB p.93; death spell: fewer than 9 hit dice, PHB p.83).
    Slay {
        /// The most hit points it can kill.
        #[serde(default)]
        max_hp: Option<i32>,
        /// The most hit dice it can kill.
        #[serde(default)]
        max_hit_dice: Option<u32>,
    },
    /// Holds the target rigid: no actions (hold person, PHB p.45). A save negates.
    Hold,
    /// Puts creatures to sleep: no actions (sleep, PHB p.68), no save, up to some hit dice.
    /// With a radius, those in the area around the target, weakest first, as many as the
    /// spell's strength allows ([`sleepers`]); without, the target alone.
    Sleep {
        /// The most hit dice it can put to sleep.
        max_hit_dice: u32,
        /// The area's radius in feet (0: the target alone).
        #[serde(default)]
        radius_ft: f64,
    },
    /// Doubles attacks and movement (haste, PHB p.74).
    Haste,
    /// Halves attacks and movement (slow, PHB p.76). No saving throw.
    Slow,
    /// A hand between the caster and the target: the target cannot strike the caster.
    Interpose,
    /// No sound in a radius around the target: no spell can be cast there (PHB p.45).
    Silence {
        /// Radius in feet.
        radius_ft: f64,
    },
    /// A globe of light around the target (PHB p.44).
    Light {
        /// Radius in feet.
        radius_ft: f64,
    },
    /// A globe of darkness around the target: no light and no infravision within (PHB p.69).
    Darkness {
        /// Radius in feet.
        radius_ft: f64,
    },
    /// A burst around the target: everyone within the radius is caught (fireball, PHB
    /// p.73). Under "Take Initiative!" a figure moving through it is caught by the window
    /// of §11b, not by where it happens to be drawn.
    Blast {
        /// Radius in feet.
        radius_ft: f64,
        /// Six-sided dice of damage per level of the caster (fireball: 1); a save vs.
        /// spells halves it. 0: damage not modelled.
        #[serde(default)]
        d6_per_level: u32,
    },
    /// Missiles that strike the target unerringly (magic missile, PHB p.67): d4+1 each,
    /// one missile for every two levels of the caster (1 at first, 2 at third...; the PHB
    /// sets no most, a table may: `max`). A caster struck before its own spell goes off
    /// loses it (DMG p.65).
    Missiles {
        /// The most missiles, if the table caps them.
        #[serde(default)]
        max: Option<u32>,
    },
    /// Improves the target's armor class (barkskin, PHB p.55).
    Armor {
        /// Classes better.
        bonus: i32,
    },
}

/// The target as the effect sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// Hit points now.
    pub hp: i32,
    /// Hit dice (or level), if the scene gives them.
    pub hit_dice: Option<u32>,
    /// The saving throw, if the effect allows one and the scene gives the number needed.
    pub save: Option<Save>,
    /// Its special defences (the undead are not put to sleep).
    pub immune: Immunities,
    /// A person: a human, a demi-human or a humanoid of man size or smaller (what hold
    /// person works on, PHB p.45).
    pub person: bool,
}

/// A saving throw: the d20 rolled and the number needed (DMG p.79).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Save {
    /// The roll.
    pub rolled: i32,
    /// The number needed or better.
    pub needed: u32,
}

impl Save {
    /// Whether the save is made.
    pub fn made(self) -> bool {
        i64::from(self.rolled) >= i64::from(self.needed)
    }
}

/// What an effect comes to on one target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    /// The target dies.
    Slain,
    /// Held: no actions, struck without a roll.
    Held,
    /// Asleep: no actions, struck without a roll.
    Asleep,
    /// Attacks and movement doubled.
    Hasted,
    /// Attacks and movement halved, acting as if it lost initiative.
    Slowed,
    /// The target cannot strike the caster.
    Interposed,
    /// An area around the target (silence, light, darkness).
    Area,
    /// Armor class improved by so many classes.
    Armor(i32),
    /// Caught in a burst.
    Caught,
    /// The target made its saving throw.
    Saved,
    /// The target is beyond the spell's limits (too many hit points or hit dice).
    TooStrong,
    /// The limit is in hit dice, and the scene gives the target none.
    HitDiceUnknown,
    /// Inside the area, but the spell was spent on weaker creatures first (sleep).
    Spent,
    /// A spell aimed at a foe was cast with no target.
    NoTarget,
    /// The target was already dead.
    AlreadyDead,
    /// The spell does not work on its kind (the undead are not put to sleep).
    Immune,
    /// Light cast at its eyes, its save failed (PHB p.44): blinded. What blindness does in
    /// the fight is not modelled.
    Blinded,
}

/// What a completed spell came to, as the log keeps it: an outcome the engine models, or
/// none (the spell is timed but its effect is not modelled). Written as its word in JSON.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum EffectOutcome {
    /// A modelled outcome.
    Modelled(Outcome),
    /// Timed, not modelled.
    #[default]
    NotModelled,
}

impl EffectOutcome {
    /// The word used in the log and in JSON.
    pub fn word(self) -> &'static str {
        match self {
            EffectOutcome::Modelled(o) => o.word(),
            EffectOutcome::NotModelled => "not_modelled",
        }
    }
}

impl From<Option<Outcome>> for EffectOutcome {
    fn from(o: Option<Outcome>) -> Self {
        o.map_or(EffectOutcome::NotModelled, EffectOutcome::Modelled)
    }
}

impl serde::Serialize for EffectOutcome {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.word())
    }
}

impl PartialEq<str> for EffectOutcome {
    fn eq(&self, other: &str) -> bool {
        self.word() == other
    }
}

impl PartialEq<&str> for EffectOutcome {
    fn eq(&self, other: &&str) -> bool {
        self.word() == *other
    }
}

impl Outcome {
    /// The word used in the log and in JSON.
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Slain => "slain",
            Outcome::Held => "held",
            Outcome::Asleep => "asleep",
            Outcome::Hasted => "hasted",
            Outcome::Slowed => "slowed",
            Outcome::Interposed => "interposed",
            Outcome::Area => "area",
            Outcome::Caught => "caught",
            Outcome::Armor(_) => "armor",
            Outcome::Saved => "saved",
            Outcome::TooStrong => "too_strong",
            Outcome::HitDiceUnknown => "hit_dice_unknown",
            Outcome::Spent => "spent",
            Outcome::NoTarget => "no_target",
            Outcome::AlreadyDead => "already_dead",
            Outcome::Immune => "immune",
            Outcome::Blinded => "blinded",
        }
    }

    /// Whether the effect took hold.
    pub fn took(self) -> bool {
        !matches!(
            self,
            Outcome::Saved
                | Outcome::TooStrong
                | Outcome::HitDiceUnknown
                | Outcome::Spent
                | Outcome::NoTarget
                | Outcome::AlreadyDead
                | Outcome::Immune
        )
    }
}

impl Effect {
    /// The special defence that turns it aside, if one does (MM: sleep and hold).
    pub fn warded_by(self) -> Option<Immunity> {
        match self {
            Effect::Sleep { .. } => Some(Immunity::Sleep),
            Effect::Hold => Some(Immunity::Hold),
            _ => None,
        }
    }

    /// Whether a figure with these defences ignores it (no save is rolled).
    pub fn ignored_by(self, immune: Immunities) -> bool {
        self.warded_by().is_some_and(|i| immune.has(i))
    }

    /// Whether it works on persons only (hold person, PHB p.45).
    pub fn persons_only(self) -> bool {
        matches!(self, Effect::Hold)
    }

    /// Whether it passes `target` by without a save: a special defence, or a target of the
    /// wrong kind.
    pub fn passes_by(self, target: &Target) -> bool {
        self.ignored_by(target.immune) || (self.persons_only() && !target.person)
    }

    /// Whether the target gets a saving throw against it: hold person's negates (PHB p.45);
    /// slow, like haste, allows none (PHB p.76; an outside tester found slow saved against).
    pub fn allows_save(self) -> bool {
        matches!(self, Effect::Hold)
    }

    /// The rule the effect follows.
    pub fn rule(self) -> Rule {
        match self {
            Effect::Slay { .. } => cite::SPELL_SLAY,
            Effect::Hold => cite::SPELL_HOLD,
            Effect::Sleep { .. } => cite::SPELL_SLEEP,
            Effect::Haste => cite::HASTE,
            Effect::Slow => cite::SLOW_SPELL,
            Effect::Interpose => cite::SPELL_INTERPOSE,
            Effect::Silence { .. } => cite::SPELL_SILENCE,
            Effect::Light { .. } => cite::SPELL_LIGHT,
            Effect::Darkness { .. } => cite::SPELL_DARKNESS,
            Effect::Armor { .. } => cite::SPELL_ARMOR,
            Effect::Blast { .. } => cite::SPELL_BLAST,
            Effect::Missiles { .. } => cite::SPELL_MISSILES,
        }
    }

    /// Whether, cast with no target, it works on its caster (haste, barkskin, an area round
    /// the caster); a spell aimed at a foe (slay, hold, sleep, slow, a hand) then does nothing.
    pub fn on_caster_without_target(self) -> bool {
        !matches!(
            self,
            Effect::Slay { .. }
                | Effect::Hold
                | Effect::Sleep { .. }
                | Effect::Slow
                | Effect::Interpose
                | Effect::Missiles { .. }
        )
    }

    /// The area's radius in feet, for the effects that fill an area.
    pub fn radius_ft(self) -> Option<f64> {
        match self {
            Effect::Silence { radius_ft }
            | Effect::Light { radius_ft }
            | Effect::Darkness { radius_ft }
            | Effect::Blast { radius_ft, .. } => Some(radius_ft),
            Effect::Sleep { radius_ft, .. } if radius_ft > 0.0 => Some(radius_ft),
            _ => None,
        }
    }
}

/// What `effect` comes to on `target`, and the rule that decided: a special defence first
/// (MM), then a saving throw
/// where one is allowed (DMG p.79), then the spell's limits, then the effect itself.
pub fn outcome(effect: Effect, target: Target) -> (Outcome, Rule) {
    if effect.ignored_by(target.immune) {
        return (Outcome::Immune, cite::MONSTER_IMMUNE);
    }
    if effect.persons_only() && !target.person {
        return (Outcome::Immune, cite::SPELL_PERSONS_ONLY);
    }
    if effect.allows_save()
        && let Some(save) = target.save
        && save.made()
    {
        return (Outcome::Saved, cite::SAVING_THROW);
    }
    let within = |max_hd: Option<u32>| match (max_hd, target.hit_dice) {
        (None, _) => Ok(()),
        (Some(max), Some(hd)) if hd <= max => Ok(()),
        (Some(_), Some(_)) => Err(Outcome::TooStrong),
        (Some(_), None) => Err(Outcome::HitDiceUnknown),
    };
    let rule = effect.rule();
    let o = match effect {
        Effect::Slay {
            max_hp,
            max_hit_dice,
        } => {
            if max_hp.is_some_and(|m| target.hp > m) {
                Outcome::TooStrong
            } else {
                within(max_hit_dice).map_or_else(|o| o, |()| Outcome::Slain)
            }
        }
        Effect::Hold => Outcome::Held,
        Effect::Sleep { max_hit_dice, .. } => {
            within(Some(max_hit_dice)).map_or_else(|o| o, |()| Outcome::Asleep)
        }
        Effect::Haste => Outcome::Hasted,
        Effect::Slow => Outcome::Slowed,
        Effect::Interpose => Outcome::Interposed,
        Effect::Silence { .. } | Effect::Light { .. } | Effect::Darkness { .. } => Outcome::Area,
        Effect::Blast { .. } | Effect::Missiles { .. } => Outcome::Caught,
        Effect::Armor { bonus } => Outcome::Armor(bonus),
    };
    (o, rule)
}

/// Light cast at a foe is cast at its eyes (PHB p.44): a save made and the globe goes
/// off behind it (still lighting the place), failed and it is blinded. A light on a
/// friend, or on the caster, is a lamp and asks no save.
pub fn light_at_the_eyes(save: Save) -> (Outcome, Rule) {
    match save.made() {
        true => (Outcome::Saved, cite::SAVING_THROW),
        false => (Outcome::Blinded, cite::SPELL_LIGHT),
    }
}

/// How many missiles a caster of `level` looses (PHB p.67): one, and one more for every
/// two levels past the first (at most `max`, if given).
pub fn missiles(level: u32, max: Option<u32>) -> (u32, Rule) {
    let n = level.max(1).div_ceil(2);
    (max.map_or(n, |m| n.min(m.max(1))), cite::SPELL_MISSILES)
}

/// The level a caster casts at: its hit dice (or level) if the scene gives them, else the
/// least level at which a magic-user can cast a spell of `spell_level` (1, 3, 5, 7, 9,
/// then 12, 14, 16, 18: PHB p.25; our reading for a caster with no level).
pub fn caster_level(hit_dice: Option<u32>, spell_level: Option<u32>) -> (u32, Rule) {
    match hit_dice {
        Some(hd) => (hd.max(1), cite::SPELL_BLAST_DAMAGE),
        None => super::class::magic_user_level_for(spell_level.unwrap_or(1)),
    }
}

/// A figure's save vs. spells: the scene's number, else a fighter's of its hit dice or level
/// — a 1st-level fighter's with neither (the DMG p.79 table, as monsters save; our reading
/// for a figure the scene gives no number).
pub fn save_vs_spell(given: Option<u32>, hit_dice: Option<u32>) -> (u32, Rule) {
    if let Some(n) = given {
        return (n, cite::SAVING_THROW);
    }
    let needed =
        super::class::group_save_vs_spell(super::class::Group::Fighter, hit_dice.unwrap_or(1));
    (needed, cite::SAVE_AS_FIGHTER)
}

/// The damage a blast does to one figure caught (fireball, PHB p.73): the dice rolled for
/// the whole blast, halved (rounded down) for a figure that makes its save vs. spells.
/// Returns the damage and whether the save was made.
pub fn blast_damage(rolled: i32, save: Option<Save>) -> (i32, bool, Rule) {
    match save {
        Some(s) if s.made() => (rolled / 2, true, cite::SPELL_BLAST_DAMAGE),
        _ => (rolled, false, cite::SPELL_BLAST_DAMAGE),
    }
}

/// The §11b window for an area `across_ft` wide and a move of `move_ft` a round
/// ("Take Initiative!"; rules::take_initiative::location).
pub fn window(across_ft: f64, move_ft: f64) -> (u32, Rule) {
    super::take_initiative::location::area_window(across_ft, move_ft)
}

/// Whether a mover on `total` is within `n` of the caster's `at`.
pub fn within_window(total: i64, at: i64, n: u32) -> (bool, Rule) {
    super::take_initiative::location::caught(total, at, n)
}

/// The row of PHB p.68's sleep table a creature falls in, by its hit dice and the points
/// added to them: 1 up to 1 HD, 2 from 1+1 to 2, 3 from 2+1 to 3, 4 from 3+1 to 4, 5 from
/// 4+1 to 4+4, and 6 for anything stronger (not affected). A creature with no hit dice
/// given counts as 1 (a man-at-arms; our reading); points taken away ("1-1") count as none.
pub fn sleep_band(hit_dice: Option<(u32, i32)>) -> u32 {
    let (dice, plus) = hit_dice.unwrap_or((1, 0));
    match (dice, plus) {
        (4, 1..=4) => 5,
        (d, p) if p > 0 && d < 4 => d + 1,
        (d, p) if d <= 4 && p <= 0 => d.max(1),
        _ => 6,
    }
}

/// A sleep band's hit dice in words, as the table heads its rows.
pub fn sleep_band_words(band: u32) -> &'static str {
    match band {
        1 => "up to 1 HD",
        2 => "1+1 to 2 HD",
        3 => "2+1 to 3 HD",
        4 => "3+1 to 4 HD",
        5 => "4+1 to 4+4 HD",
        _ => "over 4+4 HD",
    }
}

/// How many creatures of a sleep band one sleep spell puts to sleep, as dice to roll and a
/// number added — (count, sides, added): 4d4 up to 1 hit die, 2d4 to 2, 1d4 to 3, exactly
/// one to 4 (1d1), 0 or 1 from 4+1 to 4+4 (d2 - 1) — or none for stronger creatures
/// (PHB p.68).
pub fn sleep_dice(band: u32) -> (Option<(u32, u32, i32)>, Rule) {
    let dice = match band {
        1 => Some((4, 4, 0)),
        2 => Some((2, 4, 0)),
        3 => Some((1, 4, 0)),
        4 => Some((1, 1, 0)),
        5 => Some((1, 2, -1)),
        _ => None,
    };
    (dice, cite::SLEEP_COUNT)
}

/// Who a sleep spell puts to sleep among `candidates` (sleep band, [`sleep_band`];
/// distance from the centre in feet; in any order), given `rolled(band)`: the number
/// rolled on [`sleep_dice`] for that band (rolled once per spell). The weakest first, the
/// nearest first among equals; each uses its share of the spell (1 / the number rolled
/// for its band) until the spell is spent; none over 4+4 hit dice, and none of a band
/// whose roll came to nought (our reading for a mixed crowd,
/// [`cite::SLEEP_WEAKEST_FIRST`]). Returns the indices into `candidates` that sleep, in
/// that order.
pub fn sleepers(candidates: &[(u32, f64)], rolled: impl Fn(u32) -> u32) -> (Vec<usize>, Rule) {
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (candidates[a], candidates[b]);
        x.0.cmp(&y.0).then(x.1.total_cmp(&y.1)).then(a.cmp(&b))
    });
    // Shares in whole units: the spell is `whole`, one of n of a kind costs whole / n.
    let whole: u64 = 720_720; // divisible by every count from 1 to 16
    let mut left = whole;
    let mut asleep = Vec::new();
    for k in order {
        let hd = candidates[k].0;
        if sleep_dice(hd).0.is_none() {
            break;
        }
        let n = u64::from(rolled(hd).min(16));
        if n == 0 {
            break;
        }
        let share = whole / n;
        if share > left {
            break;
        }
        left -= share;
        asleep.push(k);
    }
    (asleep, cite::SLEEP_WEAKEST_FIRST)
}

/// Whether a figure at `distance_ft` from an area's centre is inside it.
pub fn inside(distance_ft: f64, radius_ft: f64) -> bool {
    distance_ft <= radius_ft
}

/// Whether a burst from a point (a fireball, a sleep) reaches a figure `distance_ft` from
/// it: within the radius, and along a clear straight line of open ground — a wall, closed
/// door or pillar between stops it (the fireball is held in by the space it is in, PHB
/// p.73; our reading for the others). It does not flow round corners.
pub fn burst_reaches(distance_ft: f64, radius_ft: f64, open_line: bool) -> (bool, Rule) {
    (
        open_line && inside(distance_ft, radius_ft),
        cite::AREA_WALLS,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(hp: i32, hit_dice: Option<u32>) -> Target {
        Target {
            hp,
            hit_dice,
            save: None,
            immune: Immunities::default(),
            person: true,
        }
    }

    const PWK: Effect = Effect::Slay {
        max_hp: Some(60),
        max_hit_dice: None,
    };
    const DEATH: Effect = Effect::Slay {
        max_hp: None,
        max_hit_dice: Some(8),
    };

    #[test]
    fn power_word_kill_slays_up_to_60_hp() {
        assert_eq!(outcome(PWK, target(60, None)).0, Outcome::Slain);
        assert_eq!(outcome(PWK, target(1, None)).0, Outcome::Slain);
        assert_eq!(outcome(PWK, target(61, None)).0, Outcome::TooStrong);
    }

    #[test]
    fn death_spell_needs_hit_dice_under_9() {
        assert_eq!(outcome(DEATH, target(90, Some(8))).0, Outcome::Slain);
        assert_eq!(outcome(DEATH, target(5, Some(9))).0, Outcome::TooStrong);
        assert_eq!(outcome(DEATH, target(5, None)).0, Outcome::HitDiceUnknown);
    }

    /// A special defence comes before the save and the hit dice, and only for its spell.
    #[test]
    fn a_defence_turns_its_own_spell_aside_and_no_other() {
        let immune = Immunities::of(&[Immunity::Sleep, Immunity::Hold]);
        let undead = Target {
            immune,
            ..target(8, Some(2))
        };
        let sleep = Effect::Sleep {
            max_hit_dice: 4,
            radius_ft: 0.0,
        };
        assert_eq!(outcome(sleep, undead).0, Outcome::Immune);
        assert_eq!(outcome(Effect::Hold, undead).0, Outcome::Immune);
        assert_eq!(outcome(Effect::Haste, undead).0, Outcome::Hasted);
        assert_eq!(outcome(DEATH, undead).0, Outcome::Slain);
        let sleepless = Target {
            immune: Immunities::of(&[Immunity::Sleep]),
            person: true,
            ..target(8, Some(2))
        };
        assert_eq!(outcome(Effect::Hold, sleepless).0, Outcome::Held);
    }

    #[test]
    fn a_made_save_negates_hold_but_not_sleep() {
        let saved = Target {
            hp: 10,
            hit_dice: Some(1),
            save: Some(Save {
                rolled: 14,
                needed: 14,
            }),
            immune: Immunities::default(),
            person: true,
        };
        assert_eq!(outcome(Effect::Hold, saved).0, Outcome::Saved);
        let sleep = Effect::Sleep {
            max_hit_dice: 4,
            radius_ft: 0.0,
        };
        assert_eq!(outcome(sleep, saved).0, Outcome::Asleep);
        let failed = Target {
            save: Some(Save {
                rolled: 13,
                needed: 14,
            }),
            ..saved
        };
        assert_eq!(outcome(Effect::Hold, failed).0, Outcome::Held);
    }
}
