//! Attack rates (PHB p.25; DMG p.63): routines per round, including the alternating 3/2
//! and 5/2 rates.

use super::cite::{self, Rule};
use super::options::AlternatingRate;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Attack routines per round as a fraction: 1/1, 3/2, 2/1, 5/2, 3/1…
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct AttackRate {
    /// Routines…
    pub routines: u32,
    /// …per this many rounds (1 or 2).
    pub per_rounds: u32,
}

impl AttackRate {
    /// One routine a round.
    pub const ONE: AttackRate = AttackRate {
        routines: 1,
        per_rounds: 1,
    };

    /// Routines this figure makes in its `nth` round of attacking (1-based), by the reading
    /// in `alt` (DMG p.63). 3/2 gives 2,1,2,1… by default.
    pub fn routines_in(self, nth: u32, alt: AlternatingRate) -> (u32, Rule) {
        if self.per_rounds <= 1 {
            return (self.routines, cite::ATTACK_RATE);
        }
        if self.per_rounds > 2 {
            // Spread as evenly as the rate allows (a slowed 3/2 is 3 in 4 rounds: 1,1,1,0).
            let upto = |k: u32| {
                (u64::from(k) * u64::from(self.routines)).div_ceil(u64::from(self.per_rounds))
                    as u32
            };
            return (upto(nth) - upto(nth - 1), cite::ATTACK_RATE);
        }
        let low = self.routines / self.per_rounds;
        let extra = self.routines % self.per_rounds;
        let odd = nth % 2 == 1;
        let gets_extra = match alt {
            AlternatingRate::ExtraInOddRounds => odd,
            AlternatingRate::ExtraInEvenRounds => !odd,
        };
        let n = if gets_extra && extra > 0 {
            low + 1
        } else {
            low
        };
        (n, cite::ATTACK_RATE)
    }
}

impl AttackRate {
    /// Under haste (PHB p.74): the rate doubled — 1/1 becomes 2/1, a 3/2 fighter attacks
    /// three times every round (the table's example of Erac's Cousin).
    pub fn hasted(self) -> (AttackRate, Rule) {
        (
            self.reduced(self.routines.saturating_mul(2), self.per_rounds),
            cite::HASTE,
        )
    }

    /// Under slow: the rate halved — 1/1 becomes one routine every other round (reading
    /// `spell.slow`).
    pub fn slowed(self) -> (AttackRate, Rule) {
        (
            self.reduced(self.routines, self.per_rounds.saturating_mul(2)),
            cite::SLOW,
        )
    }

    fn reduced(self, r: u32, p: u32) -> AttackRate {
        // Euclid: the greatest common divisor, however large the numbers.
        let (mut a, mut b) = (r, p);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        let g = a.max(1);
        AttackRate {
            routines: r / g,
            per_rounds: p / g,
        }
    }
}

impl fmt::Display for AttackRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.routines, self.per_rounds)
    }
}

impl FromStr for AttackRate {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("attack rate '{s}' should look like 1/1, 3/2 or 2/1");
        let (a, b) = s.trim().split_once('/').unwrap_or((s.trim(), "1"));
        let routines: u32 = a.trim().parse().map_err(|_| bad())?;
        let per_rounds: u32 = b.trim().parse().map_err(|_| bad())?;
        if routines == 0 || per_rounds == 0 || per_rounds > 2 {
            return Err(bad());
        }
        Ok(AttackRate {
            routines,
            per_rounds,
        })
    }
}

impl TryFrom<String> for AttackRate {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<AttackRate> for String {
    fn from(r: AttackRate) -> String {
        r.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_halves_alternates() {
        let r: AttackRate = "3/2".parse().unwrap();
        let odd: Vec<u32> = (1..=5)
            .map(|n| r.routines_in(n, AlternatingRate::ExtraInOddRounds).0)
            .collect();
        assert_eq!(odd, vec![2, 1, 2, 1, 2]);
        let even: Vec<u32> = (1..=4)
            .map(|n| r.routines_in(n, AlternatingRate::ExtraInEvenRounds).0)
            .collect();
        assert_eq!(even, vec![1, 2, 1, 2]);
        let five: AttackRate = "5/2".parse().unwrap();
        assert_eq!(five.routines_in(1, AlternatingRate::ExtraInOddRounds).0, 3);
        assert_eq!(five.routines_in(2, AlternatingRate::ExtraInOddRounds).0, 2);
        assert!("0/1".parse::<AttackRate>().is_err());
        assert!("x".parse::<AttackRate>().is_err());
        assert_eq!(
            "2".parse::<AttackRate>().unwrap(),
            AttackRate {
                routines: 2,
                per_rounds: 1
            }
        );
    }
}
