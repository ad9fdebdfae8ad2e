//! Dice expressions as the books write them ("1d8", "2d4+2", "1d4+1d6") and rolling them
//! with any source of single dice (a seeded RNG or the dice a scene fixes).

use std::fmt;

/// The most dice an expression may roll (the books' largest, a dragon's breath, is far
/// below), their largest die, and the largest constant.
pub const MAX_DICE: u32 = 100;
/// See [`MAX_DICE`].
pub const MAX_SIDES: u32 = 1000;
/// See [`MAX_DICE`].
pub const MAX_CONSTANT: i32 = 1000;

/// A sum of dice plus a constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceExpr {
    /// (count, sides) terms.
    pub dice: Vec<(u32, u32)>,
    /// Constant added.
    pub plus: i32,
}

impl DiceExpr {
    /// Parses "NdS" terms and constants joined by `+` or `-` (a minus only before a constant).
    pub fn parse(text: &str) -> Result<DiceExpr, String> {
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if t.is_empty() {
            return Err("empty dice expression".into());
        }
        let mut e = DiceExpr {
            dice: Vec::new(),
            plus: 0,
        };
        let normalised = t.replace('-', "+-");
        for term in normalised.split('+').filter(|s| !s.is_empty()) {
            if let Some((n, s)) = term.split_once(['d', 'D']) {
                let n: u32 = if n.is_empty() {
                    1
                } else {
                    n.parse()
                        .map_err(|_| format!("bad dice count in '{text}'"))?
                };
                let s: u32 = s.parse().map_err(|_| format!("bad die size in '{text}'"))?;
                if n == 0 || s == 0 {
                    return Err(format!("dice must have a count and sides in '{text}'"));
                }
                let total: u32 = e.dice.iter().map(|d| d.0).sum::<u32>() + n;
                if total > MAX_DICE || s > MAX_SIDES {
                    return Err(format!(
                        "'{text}': at most {MAX_DICE} dice of at most {MAX_SIDES} sides"
                    ));
                }
                e.dice.push((n, s));
            } else {
                let c = term
                    .parse::<i32>()
                    .map_err(|_| format!("'{term}' is not a number or NdS in '{text}'"))?;
                e.plus = e.plus.saturating_add(c);
                if e.plus.abs() > MAX_CONSTANT {
                    return Err(format!(
                        "'{text}': constants add up to at most ±{MAX_CONSTANT}"
                    ));
                }
            }
        }
        Ok(e)
    }

    /// A monster's attacks written as one sum ("1d6+1d6+1d8" for the MM's 1-6/1-6/1-8, a
    /// claw, a claw and a bite): one expression per attack, each dice term starting one and
    /// a constant going with the attack before it ("1d4+4+1d4+4+2d6" is 1d4+4, 1d4+4,
    /// 2d6). An expression of one dice term is one attack.
    pub fn attacks(text: &str) -> Result<Vec<DiceExpr>, String> {
        let whole = DiceExpr::parse(text)?;
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let mut out: Vec<DiceExpr> = Vec::new();
        for term in t.replace('-', "+-").split('+').filter(|s| !s.is_empty()) {
            let part = DiceExpr::parse(term)?;
            match out.last_mut() {
                Some(last) if part.dice.is_empty() => {
                    last.plus = last.plus.saturating_add(part.plus)
                }
                _ => out.push(part),
            }
        }
        debug_assert_eq!(
            out.iter().map(|a| a.dice.len()).sum::<usize>(),
            whole.dice.len()
        );
        Ok(out)
    }

    /// Rolls the expression, asking `die(sides)` for each die.
    pub fn roll(&self, mut die: impl FnMut(u32) -> u32) -> i32 {
        let mut total = self.plus;
        for &(n, s) in &self.dice {
            for _ in 0..n {
                total = total.saturating_add(die(s).min(s) as i32);
            }
        }
        total
    }

    /// The smallest possible result.
    pub fn min(&self) -> i32 {
        self.plus + self.dice.iter().map(|&(n, _)| n as i32).sum::<i32>()
    }

    /// The largest possible result.
    pub fn max(&self) -> i32 {
        self.plus + self.dice.iter().map(|&(n, s)| (n * s) as i32).sum::<i32>()
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = self.dice.iter().map(|(n, s)| format!("{n}d{s}")).collect();
        if self.plus != 0 || parts.is_empty() {
            parts.push(self.plus.to_string());
        }
        write!(f, "{}", parts.join("+").replace("+-", "-"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rolls() {
        let e = DiceExpr::parse("2d4+2").unwrap();
        assert_eq!(e.dice, vec![(2, 4)]);
        assert_eq!(e.plus, 2);
        assert_eq!(e.roll(|s| s), 10);
        assert_eq!(e.max(), 10);
        assert_eq!(DiceExpr::parse("1d4-1").unwrap().roll(|_| 1), 0);
        assert_eq!(e.to_string(), "2d4+2");
        assert!(DiceExpr::parse("2x4").is_err());
        assert!(DiceExpr::parse("0d6").is_err());
    }
}
