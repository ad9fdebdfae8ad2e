//! Changing an action (§1 and Basics): up to its base initiative a figure whose action no
//! longer makes sense may take another, acting at base + 2 + a new d10 + the new action's
//! modifiers. Casting, waiting for the next round, a segment past the base die, or having
//! acted already rule a change out.

use super::{Modifier, Total};
use crate::rules::cite::{self, Rule};

/// Why an action cannot be changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precluded {
    /// Casting a spell: it can be stopped (and is ruined), not changed.
    Casting,
    /// The figure chose to wait for the next round.
    Waiting,
    /// The segment is past its base initiative.
    PastBase,
    /// It has acted this round.
    Acted,
    /// Its base initiative is not after the total of the fleer it would pursue (§4b).
    FleerNotFirst,
}

impl Precluded {
    /// A few words for a message.
    pub fn describe(self) -> &'static str {
        match self {
            Precluded::Casting => "a caster may stop (and lose the spell) but not change",
            Precluded::Waiting => "it chose to wait for the next round",
            Precluded::PastBase => "the segment is past its base initiative",
            Precluded::Acted => "it has acted this round",
            Precluded::FleerNotFirst => {
                "its base initiative does not come after the fleer's total, so it cannot change to pursue"
            }
        }
    }
}

/// Where the figure stands when it wants to change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// Casting a spell.
    pub casting: bool,
    /// Waiting for the next round.
    pub waiting: bool,
    /// Acted already this round.
    pub acted: bool,
}

/// Whether a figure with base initiative `base` may change its action in `segment`.
pub fn may_change(base: u32, segment: u32, s: Standing) -> Result<Rule, (Precluded, Rule)> {
    let no = |p| Err((p, cite::TI_CHANGE_PRECLUDED));
    if s.casting {
        no(Precluded::Casting)
    } else if s.waiting {
        no(Precluded::Waiting)
    } else if s.acted {
        no(Precluded::Acted)
    } else if segment > base {
        no(Precluded::PastBase)
    } else {
        Ok(cite::TI_CHANGE)
    }
}

/// Whether a figure whose foe fled from it may change its action to pursue (§4b): only
/// when its base initiative comes after the fleer's total (the fleer ran first); at or
/// before it, it cannot, though it may still strike another foe within reach. The change
/// is then as any other: base + 2 + a new d10 + the new action's rows.
pub fn may_pursue(base: u32, fleer_total: u32, s: Standing) -> Result<Rule, (Precluded, Rule)> {
    if base <= fleer_total {
        return Err((Precluded::FleerNotFirst, cite::TI_PURSUE_CHANGE));
    }
    may_change(base, fleer_total, s).map(|_| cite::TI_PURSUE_CHANGE)
}

/// The new initiative after changing, in `segment`, to an action with modifiers `new`: the
/// base, plus 2, plus a new d10 (`reroll`), plus the new modifiers. A figure never acts
/// before the segment it changed in: if the sum would, a named modifier brings it there.
pub fn changed(base: u32, segment: u32, reroll: u32, new: Vec<Modifier>) -> (Total, Rule) {
    let mut modifiers = vec![
        Modifier::new("change_action", "change of action", 2),
        Modifier::new("reroll", "new d10", reroll.min(10) as i32),
    ];
    modifiers.extend(new);
    let mut t = Total::new(base, modifiers);
    let short = i64::from(segment) - t.value();
    if short > 0 {
        t.modifiers.push(Modifier::new(
            "not_before_change",
            "not before the change",
            short as i32,
        ));
    }
    (t, cite::TI_CHANGE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::take_initiative::{ActsAt, acts_at};

    /// §1's scenario: a sword at 9 + 5 = 14; the only foe dies in segment 7; on segment 9
    /// the figure changes to a long move: 9 + 2 + 4 + 8 = 23, next round on segment 3.
    #[test]
    fn the_sword_user_whose_opponent_dies() {
        assert!(may_change(9, 7, Standing::default()).is_ok());
        assert!(may_change(9, 9, Standing::default()).is_ok());
        assert_eq!(
            may_change(9, 10, Standing::default()).unwrap_err().0,
            Precluded::PastBase
        );
        let (t, _) = changed(9, 9, 4, vec![Modifier::new("move_full", "move", 8)]);
        assert_eq!(t.value(), 23);
        assert_eq!(
            acts_at(t.value()).0,
            ActsAt {
                rounds_later: 1,
                segment: 3
            }
        );
    }

    #[test]
    fn casting_and_waiting_cannot_change() {
        let casting = Standing {
            casting: true,
            ..Standing::default()
        };
        assert_eq!(may_change(9, 1, casting).unwrap_err().0, Precluded::Casting);
        let waiting = Standing {
            waiting: true,
            ..Standing::default()
        };
        assert_eq!(may_change(9, 1, waiting).unwrap_err().0, Precluded::Waiting);
    }
}
