//! A table's house rules (the house-rules text in the project's rules texts): each one
//! named, off by default, and switched on per scene with `rules: (house: (...))`, under
//! either initiative system. Each function here returns the rule that decided, cited to
//! the house-rules text; the book's own rule is what applies when the switch is off.
//!
//! In force so far:
//! - **Critical hits** ([`critical_multiplier`]): a natural 20 to hit does double damage.
//!   The book gives a natural 20 no extra damage (its combat tables, DMG p.74-75, only
//!   make 20 a hit).

use super::cite::{self, Rule};
use serde::{Deserialize, Serialize};

/// The house rules a scene switches on (all off: the book's rules).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HouseRules {
    /// A natural 20 to hit does double damage (house rules, "Critical Hits").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub critical_hits: bool,
}

impl HouseRules {
    /// Whether any house rule is on.
    pub fn any(&self) -> bool {
        *self != HouseRules::default()
    }

    /// The house rules in force, in plain words, each with where the text says it:
    /// (name, what it does, where).
    pub fn plain(&self) -> Vec<(&'static str, &'static str, &'static str)> {
        let mut v = Vec::new();
        if self.critical_hits {
            v.push((
                "Critical hits",
                "a natural 20 does double damage",
                "house rules, Critical Hits (the book: no extra damage)",
            ));
        }
        v
    }

    /// One line per house rule switched on, as a scene writes it.
    pub fn describe(&self) -> Vec<String> {
        let mut v = Vec::new();
        if self.critical_hits {
            v.push("house.critical_hits: true".to_string());
        }
        v
    }
}

/// Every house rule a scene can switch on, with what it does: for `first --help` and the
/// scene format's documentation.
pub const ALL: &[(&str, &str)] = &[(
    "critical_hits",
    "a natural 20 to hit does double damage (house rules, Critical Hits)",
)];

/// How many times its damage a blow does, for the natural d20 it rolled: twice on a
/// natural 20 under the house rule of critical hits, else once (and no rule to cite).
pub fn critical_multiplier(natural: i32, house: HouseRules) -> (i32, Option<Rule>) {
    if house.critical_hits && natural == 20 {
        (2, Some(cite::HOUSE_CRITICAL_HIT))
    } else {
        (1, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_natural_20_doubles_and_only_when_switched_on() {
        let on = HouseRules {
            critical_hits: true,
        };
        for d in 1..=20 {
            let (m, rule) = critical_multiplier(d, on);
            assert_eq!(m, if d == 20 { 2 } else { 1 }, "d20 {d}");
            assert_eq!(rule.is_some(), d == 20);
            assert_eq!(critical_multiplier(d, HouseRules::default()), (1, None));
        }
        assert!(on.any() && !HouseRules::default().any());
    }
}
