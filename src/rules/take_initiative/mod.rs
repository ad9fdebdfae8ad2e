//! "Take Initiative!" — the d10, 20-segment variant (the project's rules text
//! `take-initiative-d10-variant.md`), a second rules system beside the book's.
//!
//! Every figure rolls a d10 (its base initiative) and adds the modifiers of what it does
//! (Appendix B, `assets/take_initiative.ron`): the total is the ordering segment it acts on,
//! lower first, equal totals together; a total over 20 acts next round at total − 20
//! without rolling (Basics). The round's 20 segments order events; they are not equal
//! spans of time.
//!
//! Where to look: the total and its carry-over here; changing an action [`change`];
//! expecting an event [`expect`]; parrying [`parry`]; fleeing, pursuit and withdrawal
//! [`flee`]; missiles [`ranged`]; the charge and two figures coming together [`charge`];
//! the race and the fireball's window [`location`]; spells and their failure save [`spell`].

pub mod action;
pub mod change;
pub mod charge;
pub mod combine;
pub mod expect;
pub mod flee;
pub mod hide;
pub mod location;
pub mod parry;
pub mod ranged;
pub mod spell;

use super::cite::{self, Rule};
use serde::{Deserialize, Serialize};

/// Ordering segments in a round.
pub const SEGMENTS: u32 = 20;

/// How an Appendix B modifier is worked out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Value {
    /// A fixed number.
    Fixed(i32),
    /// The weapon's speed factor (a missile: its speed from note 1).
    WeaponSpeed,
    /// This much plus the spell's level.
    SpellLevel(i32),
    /// The whole round: nothing to add, the act is done at the round's end (and takes
    /// nothing from the next round).
    WholeRound,
    /// This much for each target.
    PerTarget(i32),
    /// The potion works d4+1 segments later.
    PotionDelay,
    /// Half the current rate of moving and attacking.
    Slowed,
    /// This much plus a new d10 plus the new action's modifier.
    Reroll(i32),
}

/// One row of Appendix B.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModifierRow {
    /// Stable id, as scenes and `first` name it.
    pub id: String,
    /// What the row says, in our words.
    pub words: String,
    /// Its group: Movement, Environment, Weapon, Magic, Other.
    pub group: String,
    /// How its number is made.
    pub value: Value,
    /// A primary action: nothing more that round.
    #[serde(default)]
    pub primary: bool,
    /// A minor action (Appendix A): two make a normal action, and one takes away multiple
    /// attacks that round (note 4).
    #[serde(default)]
    pub minor: bool,
    /// Its number for a master of iaijutsu (notes 2, 3, 5), if that differs.
    #[serde(default)]
    pub iaijutsu: Option<i32>,
    /// That number needs iaijutsu in both weapons (note 3: changing weapons).
    #[serde(default)]
    pub iaijutsu_both: bool,
}

/// Iaijutsu, the quick-draw art of Oriental Adventures (App. B notes 2, 3, 5): drawing a
/// weapon costs a master nothing, sheathing half, and changing weapons +5 instead of +10
/// for a master of both weapons.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Iaijutsu {
    /// No iaijutsu.
    #[default]
    None,
    /// Iaijutsu in the weapon it uses.
    One,
    /// Iaijutsu in both the weapons it changes between.
    Both,
}

impl Iaijutsu {
    /// The number a row takes for this figure: the iaijutsu value where the row has one
    /// and the figure masters what it needs (notes 2, 3, 5), else the row's own.
    pub fn applied(self, row: &ModifierRow, value: i32) -> (i32, bool) {
        match (row.iaijutsu, self) {
            (Some(v), Iaijutsu::Both) => (v, true),
            (Some(v), Iaijutsu::One) if !row.iaijutsu_both => (v, true),
            _ => (value, false),
        }
    }
}

/// One missile speed of note 1.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissileSpeed {
    /// Stable id.
    pub id: String,
    /// What it is.
    pub words: String,
    /// Its speed.
    pub speed: i32,
}

/// Appendix B as data.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// The modifiers.
    pub modifiers: Vec<ModifierRow>,
    /// Missile speeds.
    pub missile_speeds: Vec<MissileSpeed>,
}

/// One modifier applied: its id, its words and its number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Modifier {
    /// The row's id (or a name for a number the text gives outside the table).
    pub id: String,
    /// What it is.
    pub words: String,
    /// Its number.
    pub value: i32,
}

impl Modifier {
    /// A modifier with these words.
    pub fn new(id: &str, words: &str, value: i32) -> Modifier {
        Modifier {
            id: id.into(),
            words: words.into(),
            value,
        }
    }
}

/// A figure's initiative: its d10 and each modifier by name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Total {
    /// The base initiative, a d10.
    pub base: u32,
    /// The modifiers, in the order applied.
    pub modifiers: Vec<Modifier>,
}

impl Total {
    /// The base die with these modifiers.
    pub fn new(base: u32, modifiers: Vec<Modifier>) -> Total {
        Total { base, modifiers }
    }

    /// The total: the d10 plus every modifier (Basics).
    pub fn value(&self) -> i64 {
        i64::from(self.base)
            + self
                .modifiers
                .iter()
                .map(|m| i64::from(m.value))
                .sum::<i64>()
    }

    /// "d10 9 + weapon speed 5 = 14".
    pub fn describe(&self) -> String {
        let mut s = format!("d10 {}", self.base);
        for m in &self.modifiers {
            let sign = if m.value < 0 { '-' } else { '+' };
            s.push_str(&format!(" {sign} {} {}", m.words, m.value.unsigned_abs()));
        }
        format!("{s} = {}", self.value())
    }
}

/// When a total acts: in which round from now (0 this round) and on which ordering segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ActsAt {
    /// Rounds from now: 0 this round, 1 the next, ...
    pub rounds_later: u32,
    /// Ordering segment, 1-20.
    pub segment: u32,
}

/// When a total acts (Basics): on its own number, at least segment 1; over 20, in the next
/// round at total − 20 without rolling again (and so on for a total over 40).
pub fn acts_at(total: i64) -> (ActsAt, Rule) {
    let t = total.max(1);
    let s = i64::from(SEGMENTS);
    let rounds_later = ((t - 1) / s) as u32;
    let segment = ((t - 1) % s + 1) as u32;
    let rule = if rounds_later > 0 {
        cite::TI_CARRY_OVER
    } else {
        cite::TI_TOTAL
    };
    (
        ActsAt {
            rounds_later,
            segment,
        },
        rule,
    )
}

/// Whether a melee declaration names several targets at once: the Appendix B row
/// "multiple melee targets" (+1 for each), whose attacks come at the end of the round.
/// Under this variant a melee that names two or more targets attacks them all, its
/// routines in turn (our reading: the book's list of targets in order of preference has
/// no place here; name one target to strike one).
pub fn multiple_targets(targets: usize) -> Option<Rule> {
    (targets >= 2).then_some(cite::TI_MULTIPLE_TARGETS)
}

/// Whether the row for several melee targets may be named beside a melee at `targets`
/// foes (App. B, Weapon): only at two or more. Else why not, in words.
pub fn row_for_targets(targets: usize) -> Result<(), &'static str> {
    match multiple_targets(targets) {
        Some(_) => Ok(()),
        None => Err(
            "multiple_targets is the row for a melee at two or more targets (Take Initiative! App. B, Weapon); at one the attack strikes on its own total",
        ),
    }
}

/// When a total acts that attacks several melee targets (App. B, Weapon): at the end of
/// the round, on its last ordering segment after every other total (those of several
/// attackers among themselves lower first); a total over 20 still carries into the next
/// round as any total does.
pub fn acts_at_round_end(total: i64) -> (ActsAt, Rule) {
    let (at, rule) = acts_at(total);
    if at.rounds_later > 0 {
        return (at, rule);
    }
    (
        ActsAt {
            rounds_later: 0,
            segment: SEGMENTS,
        },
        cite::TI_MULTIPLE_TARGETS,
    )
}

/// Whether the rows given take the whole round (App. B, Movement: standing up is "Round"),
/// with the rule: the act fills this round and is done at its end, on its last ordering
/// segment, whatever the d10; the figure rolls afresh next round (our reading: a total of
/// d10 + 20 would also take the next round, which the row does not say).
pub fn takes_the_round(table: &Table, ids: &[&str]) -> Option<Rule> {
    ids.iter()
        .any(|id| {
            table
                .modifiers
                .iter()
                .any(|r| r.id == *id && r.value == Value::WholeRound)
        })
        .then_some(cite::TI_WHOLE_ROUND)
}

/// When an act that takes the whole round is done: on the last ordering segment of this
/// round, never carried into the next.
pub fn acts_at_whole_round() -> (ActsAt, Rule) {
    (
        ActsAt {
            rounds_later: 0,
            segment: SEGMENTS,
        },
        cite::TI_WHOLE_ROUND,
    )
}

/// How two totals order (Basics, Glossary): the lower acts first, equal totals together.
pub fn before(a: i64, b: i64) -> (std::cmp::Ordering, Rule) {
    (a.max(1).cmp(&b.max(1)), cite::TI_TOTAL)
}

/// Looks a modifier up in the table and works out its number for this figure.
pub fn modifier(table: &Table, id: &str, ctx: &ModifierContext) -> Result<Modifier, String> {
    let row = table
        .modifiers
        .iter()
        .find(|r| r.id == id)
        .ok_or_else(|| format!("no initiative modifier '{id}' in Appendix B"))?;
    let value = match row.value {
        Value::Fixed(n) => n,
        Value::WeaponSpeed => ctx
            .weapon_speed
            .ok_or_else(|| format!("'{id}' needs the weapon's speed"))?,
        Value::SpellLevel(n) => n.saturating_add(
            ctx.spell_level
                .ok_or_else(|| format!("'{id}' needs the spell's level"))? as i32,
        ),
        Value::PerTarget(n) => n.saturating_mul(ctx.targets.max(1) as i32),
        Value::WholeRound => 0,
        Value::PotionDelay | Value::Slowed | Value::Reroll(_) => {
            return Err(format!(
                "'{id}' is not a number to add: {}",
                row.words.to_lowercase()
            ));
        }
    };
    if row.value == Value::WholeRound {
        let words = format!("{} (the whole round)", row.words);
        return Ok(Modifier::new(id, &words, value));
    }
    let (value, master) = ctx.iaijutsu.applied(row, value);
    if master {
        let words = format!("{} (iaijutsu)", row.words);
        return Ok(Modifier::new(id, &words, value));
    }
    Ok(Modifier::new(id, &row.words, value))
}

/// What a modifier's number may depend on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModifierContext {
    /// The weapon's speed (or missile speed).
    pub weapon_speed: Option<i32>,
    /// The spell's level.
    pub spell_level: Option<u32>,
    /// Melee targets.
    pub targets: u32,
    /// The figure's iaijutsu (notes 2, 3, 5).
    pub iaijutsu: Iaijutsu,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_over_twenty_carry_into_the_next_round() {
        assert_eq!(
            acts_at(14).0,
            ActsAt {
                rounds_later: 0,
                segment: 14
            }
        );
        assert_eq!(
            acts_at(20).0,
            ActsAt {
                rounds_later: 0,
                segment: 20
            }
        );
        // Change Action's example: 23 acts next round on segment 3.
        assert_eq!(
            acts_at(23).0,
            ActsAt {
                rounds_later: 1,
                segment: 3
            }
        );
        assert_eq!(acts_at(-3).0.segment, 1);
    }

    #[test]
    fn a_total_describes_itself() {
        let t = Total::new(9, vec![Modifier::new("weapon", "weapon speed", 5)]);
        assert_eq!(t.value(), 14);
        assert_eq!(t.describe(), "d10 9 + weapon speed 5 = 14");
    }
}
