//! Psionic combat (DMG p.76-78, PHB p.39; section V of the initiative and combat table):
//! fought segment by segment. Each segment every psionic in the fight picks an attack mode
//! and a defense mode and pays their cost out of its attack and defense strengths; every
//! attack meets its target's defense at once — all of a segment's attacks and defenses are
//! simultaneous — and the attack/defense matrix says what comes of it. It goes on until it
//! is decided, until a mundane attack affects a psionic in it, or for ten segments.
//!
//! The numbers are **data**: the mode costs, a blast's area and the matrix live in
//! `assets/psionics.ron`, each entry with its page. The rules texts give only part of the
//! tables (the matrix entry of psychic crush against mind blank, 9% instant death, DMG
//! p.76), so the rest is the DM's to fill — in that file, or in a scene's own `psionics`
//! table, whose entries take the place of the file's. The engine works from whatever the
//! table holds: an entry it lacks is logged as the DM's to rule, and costs nothing.
//!
//! Readings of ours, where the texts are silent: points an attack takes come off the
//! target's defense strength, and what the defense cannot absorb off its attack strength;
//! no strength goes below zero; a psionic that cannot pay for its attack mode makes no
//! attack, and one that cannot pay for its defense mode is undefended.

use super::cite::{self, Rule};
use serde::{Deserialize, Serialize};

/// The psionic tables: modes and the matrix.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PsionicTable {
    /// Attack modes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attacks: Vec<Mode>,
    /// Defense modes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub defenses: Vec<Mode>,
    /// Outcomes of attack against defense.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub matrix: Vec<Cell>,
}

/// One attack or defense mode.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mode {
    /// Its name, lower case.
    pub name: String,
    /// Strength points it costs a segment (none: not in the texts, the DM's to fill).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<u32>,
    /// For an attack that fills an area (psionic blast): how far from the attacker it
    /// reaches, in feet; non-psionics within it save.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area_ft: Option<f64>,
    /// What befalls a non-psionic in the area that fails its save ("death", or words for
    /// the DM; none: the DM rules).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_failed_save: Option<String>,
    /// Where the entry comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<String>,
}

/// One entry of the matrix.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cell {
    /// The attack mode.
    pub attack: String,
    /// The defense mode ("none" for an undefended target).
    pub defense: String,
    /// What it comes to.
    pub outcome: Outcome,
    /// Where the entry comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<String>,
}

/// What an attack against a defense comes to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Outcome {
    /// The target loses so many strength points.
    Points(u32),
    /// A chance in percent, rolled on d%, of an effect ("death" kills; other words are
    /// logged for the DM).
    Chance {
        /// Percent.
        percent: u32,
        /// The effect.
        effect: String,
    },
}

impl PsionicTable {
    /// This table with `over`'s entries in place of (or beside) its own: a scene's own
    /// entries over the assets' table.
    pub fn merged(&self, over: &PsionicTable) -> PsionicTable {
        fn modes(base: &[Mode], over: &[Mode]) -> Vec<Mode> {
            let mut out: Vec<Mode> = base
                .iter()
                .filter(|m| !over.iter().any(|o| o.name == m.name))
                .cloned()
                .collect();
            out.extend(over.iter().cloned());
            out
        }
        let mut matrix: Vec<Cell> = self
            .matrix
            .iter()
            .filter(|c| {
                !over
                    .matrix
                    .iter()
                    .any(|o| o.attack == c.attack && o.defense == c.defense)
            })
            .cloned()
            .collect();
        matrix.extend(over.matrix.iter().cloned());
        PsionicTable {
            attacks: modes(&self.attacks, &over.attacks),
            defenses: modes(&self.defenses, &over.defenses),
            matrix,
        }
    }

    /// The attack mode of this name.
    pub fn attack(&self, name: &str) -> Option<&Mode> {
        self.attacks.iter().find(|m| m.name == name)
    }

    /// The defense mode of this name.
    pub fn defense(&self, name: &str) -> Option<&Mode> {
        self.defenses.iter().find(|m| m.name == name)
    }

    /// The matrix entry of this attack against this defense (none: "none").
    pub fn cell(&self, attack: &str, defense: Option<&str>) -> Option<&Cell> {
        let d = defense.unwrap_or("none");
        self.matrix
            .iter()
            .find(|c| c.attack == attack && c.defense == d)
    }

    /// Whether every matrix entry names known modes and every chance is a percentage.
    pub fn check(&self) -> Result<(), String> {
        for c in &self.matrix {
            if self.attack(&c.attack).is_none() {
                return Err(format!(
                    "the matrix names an attack mode '{}' that is not in the table",
                    c.attack
                ));
            }
            if c.defense != "none" && self.defense(&c.defense).is_none() {
                return Err(format!(
                    "the matrix names a defense mode '{}' that is not in the table",
                    c.defense
                ));
            }
            if let Outcome::Chance { percent, .. } = c.outcome
                && percent > 100
            {
                return Err(format!(
                    "{} against {}: a chance of {percent}%, more than 100",
                    c.attack, c.defense
                ));
            }
        }
        Ok(())
    }
}

/// Pays a mode's `cost` out of `strength`: the strength left, or None when it cannot pay
/// (a cost the table lacks is paid as 0).
pub fn pay(strength: u32, cost: Option<u32>) -> Option<u32> {
    strength.checked_sub(cost.unwrap_or(0))
}

/// Takes `points` from a psionic's strengths: off defense first, the rest off attack,
/// neither below zero. Returns (attack, defense).
pub fn lose(attack: u32, defense: u32, points: u32) -> (u32, u32) {
    let from_defense = points.min(defense);
    let rest = points - from_defense;
    (attack.saturating_sub(rest), defense - from_defense)
}

/// Whether a chance of `percent` happens on a d% roll of `d100` (1-100): it does when the
/// roll is no more than the chance (a roll of 05 against 9%).
pub fn chance_happens(percent: u32, d100: u32) -> (bool, Rule) {
    (d100 <= percent, cite::PSI_MATRIX)
}

/// A non-psionic's save in a blast's area: the d20 against the number needed.
pub fn saves(d20: u32, needed: u32) -> (bool, Rule) {
    (d20 >= needed, cite::PSI_SAVE)
}

/// Why a psionic combat ended (in JSON its word: decided, mundane_attack, ten_segments).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PsiEnd {
    /// Fewer than two psionics can still fight.
    Decided,
    /// A psionic was struck by a mundane attack.
    MundaneAttack,
    /// Ten segments have passed.
    TenSegments,
}

impl PsiEnd {
    /// The rule that ends it: the segment's outcome when it is decided, else the rule of
    /// its ending.
    pub fn rule(self) -> Rule {
        match self {
            PsiEnd::Decided => cite::PSI_SEGMENT,
            PsiEnd::MundaneAttack | PsiEnd::TenSegments => cite::PSI_END,
        }
    }
}

/// What one psionic attack came to by the table (in JSON its word).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PsiOutcome {
    /// Strength points lost.
    Points,
    /// A chance of a dire result, rolled on d%.
    Chance,
    /// No entry in the table: the DM's to rule.
    #[default]
    Unknown,
}

/// Why a psionic combat ends after a segment, if it does: a psionic was struck by a
/// mundane attack in it, fewer than two psionics can still fight, or it was the tenth.
pub fn ends(segment: u32, mundane_hit: bool, fighting: usize) -> Option<(PsiEnd, Rule)> {
    let end = if mundane_hit {
        PsiEnd::MundaneAttack
    } else if fighting < 2 {
        PsiEnd::Decided
    } else if segment >= super::charge::SEGMENTS_PER_ROUND {
        PsiEnd::TenSegments
    } else {
        return None;
    };
    Some((end, end.rule()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strength_never_goes_below_zero_and_points_are_kept() {
        for a in 0..=20 {
            for d in 0..=20 {
                for p in 0..=50 {
                    let (na, nd) = lose(a, d, p);
                    assert!(na <= a && nd <= d);
                    assert_eq!((a - na) + (d - nd), p.min(a + d), "{a}/{d} lose {p}");
                    if p <= d {
                        assert_eq!(na, a, "the defense absorbs first");
                    }
                }
                for cost in 0..=25 {
                    assert_eq!(pay(a, Some(cost)), a.checked_sub(cost));
                }
                assert_eq!(pay(a, None), Some(a));
            }
        }
    }

    #[test]
    fn a_roll_of_05_against_9_percent() {
        assert!(chance_happens(9, 5).0);
        for d in 1..=100 {
            assert_eq!(chance_happens(9, d).0, d <= 9);
        }
        assert!(saves(5, 5).0 && !saves(4, 5).0);
    }

    #[test]
    fn the_scene_table_replaces_entries_by_name() {
        let base = crate::tables::psionics().clone();
        let over = PsionicTable {
            attacks: vec![Mode {
                name: "psionic blast".into(),
                cost: Some(20),
                ..Mode::default()
            }],
            ..PsionicTable::default()
        };
        let m = base.merged(&over);
        assert_eq!(m.attack("psionic blast").and_then(|a| a.cost), Some(20));
        assert_eq!(m.attacks.len(), base.attacks.len());
        assert!(m.cell("psychic crush", Some("mind blank")).is_some());
        assert!(base.check().is_ok());
    }
}
