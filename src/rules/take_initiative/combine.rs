//! Which actions go together in one round under "Take Initiative!": a figure's declared
//! action and the extra Appendix B rows it adds that round (a drawn weapon, an opened
//! door, a move...). The rules hold for every figure and every combination, not only the
//! text's scenarios:
//!
//! - one normal action a round; a row the table stars is a primary action with nothing
//!   beside it (Appendix A; Appendix B, note \*);
//! - move, charge, flee and withdraw exclude each other (Glossary);
//! - moving more than 10 ft prevents casting and a normal melee attack (Appendix B,
//!   Movement); a charge is its own move-and-attack, and moving to fire is §8b's;
//! - one minor action may go beside a normal action; two minor actions are a normal action
//!   themselves, so at most two without one (Appendix A);
//! - a minor action takes away multiple attacks that round (Appendix A; note 4) — the
//!   combination is played, with one attack;
//! - several melee targets need a melee attack (Appendix B, Weapon);
//! - a figure already engaged cannot charge (§9), see [`may_charge`].

use super::Table;
use super::action::Action;
use crate::rules::cite::{self, Rule};

/// What an action and its extra rows come to when they go together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Combined {
    /// A minor action takes away the figure's multiple attacks this round: it makes one.
    pub one_attack: bool,
    /// How many minor actions it takes this round.
    pub minors: usize,
}

/// Why an action and its extra rows do not go together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Two normal actions in one round (a starred row is a primary action).
    TwoActions {
        /// The first.
        first: String,
        /// The second.
        second: String,
    },
    /// Two kinds of movement in one round.
    TwoMoves {
        /// The first.
        first: String,
        /// The second.
        second: String,
    },
    /// A move of more than 10 ft with casting or a normal melee attack.
    MovePrevents {
        /// The move.
        moving: String,
        /// What it prevents.
        prevented: String,
    },
    /// Two or more minor actions beside a normal action (two minor actions are one).
    MinorsBeside {
        /// The normal action.
        action: String,
        /// The minor actions.
        minors: Vec<String>,
    },
    /// More than two minor actions with no normal action.
    TooManyMinors(Vec<String>),
    /// Missile fire with a move row: moving and shooting is an action of its own (§8b,
    /// §8c), asked for as such.
    ShotOnTheMove,
    /// Several melee targets without a melee attack.
    TargetsWithoutMelee,
    /// A charge by a figure already engaged.
    Engaged,
    /// A second charge within a turn of 10 rounds, the last in this round (§9).
    ChargedThisTurn(u32),
    /// A row given twice, or given beside the action that already counts it: each row of
    /// Appendix B counts once.
    Twice(String),
}

impl Refusal {
    /// The rule that refuses it.
    pub fn rule(&self) -> Rule {
        match self {
            Refusal::TwoActions { .. }
            | Refusal::MinorsBeside { .. }
            | Refusal::TooManyMinors(_) => cite::TI_ONE_ACTION,
            Refusal::TwoMoves { .. } => cite::TI_MOVES_EXCLUSIVE,
            Refusal::MovePrevents { prevented, .. } if prevented == "hiding in shadows" => {
                cite::TI_HIDE
            }
            Refusal::MovePrevents { .. } => cite::TI_MOVE_PREVENTS,
            Refusal::TargetsWithoutMelee => cite::TI_MULTIPLE_TARGETS,
            Refusal::ShotOnTheMove => cite::TI_RANGED,
            Refusal::Engaged => cite::TI_CHARGE_ENGAGED,
            Refusal::Twice(_) => cite::TI_TOTAL,
            Refusal::ChargedThisTurn(_) => cite::TI_CHARGE,
        }
    }

    /// Why, in words, with the rule's place.
    pub fn describe(&self) -> String {
        let why = match self {
            Refusal::TwoActions { first, second } => format!(
                "{first} and {second} are two normal actions; a round has one, and a starred row of Appendix B has nothing beside it"
            ),
            Refusal::TwoMoves { first, second } => {
                format!("{first} and {second} are two kinds of movement, which exclude each other")
            }
            Refusal::MovePrevents { moving, prevented } => {
                format!("{moving} prevents {prevented} in the same round")
            }
            Refusal::MinorsBeside { action, minors } => format!(
                "{} beside {action}: two minor actions are a normal action, and the round has one",
                minors.join(" and ")
            ),
            Refusal::TooManyMinors(minors) => format!(
                "{}: at most two minor actions a round (two make its normal action)",
                minors.join(", ")
            ),
            Refusal::TargetsWithoutMelee => {
                "several melee targets need a melee attack".to_string()
            }
            Refusal::ShotOnTheMove => "moving and shooting is one action of its own (§8b, §8c), \
                not missile fire with a move row: in `first` write move-missile (add far past \
                half the move), in a scene Missile(move_to: ...)"
                .to_string(),
            Refusal::ChargedThisTurn(last) => format!(
                "it charged in round {last}: a figure may charge once a turn (10 rounds)"
            ),
            Refusal::Twice(row) => {
                format!("{row} is counted twice: each row of Appendix B counts once")
            }
            Refusal::Engaged => {
                "a figure already engaged (a foe within 1\", 10 ft, at the round's start) cannot charge"
                    .to_string()
            }
        };
        format!("{why} ({})", self.rule().page_ref())
    }
}

/// The normal action `action` is, in words, if it is one.
fn normal_action(action: Action) -> Option<&'static str> {
    Some(match action {
        Action::Melee { .. } => "a melee attack",
        Action::Unarmed { .. } => "an unarmed attack",
        Action::Missile { .. } => "missile fire",
        Action::MoveAndShoot { .. } => "moving to fire",
        Action::Charge => "a charge",
        Action::Move { far: true } => "a move of more than half the movement",
        Action::Cast { .. } => "casting a spell",
        Action::Device => "using a magic item",
        Action::Turn => "turning undead",
        Action::SetToReceive => "a weapon set to receive a charge",
        Action::Flee => "fleeing",
        Action::Withdraw => "withdrawing",
        Action::Parry => "parrying",
        Action::Expect => "expecting an event",
        Action::Hide => "hiding in shadows",
        Action::Move { far: false } | Action::Step | Action::Potion | Action::Other => {
            return None;
        }
    })
}

/// The movement `action` makes, in words, if it moves.
fn movement_of(action: Action) -> Option<&'static str> {
    match action {
        Action::MoveAndShoot { .. } => Some("moving to fire"),
        Action::Charge => Some("a charge"),
        Action::Move { .. } => Some("a move"),
        Action::Flee => Some("fleeing"),
        Action::Withdraw => Some("withdrawing"),
        _ => None,
    }
}

/// Whether `action` is casting or a normal melee attack, in words.
fn moving_prevents(action: Action) -> Option<&'static str> {
    match action {
        Action::Cast { .. } => Some("casting a spell"),
        Action::Melee { .. } | Action::Unarmed { .. } | Action::SetToReceive => {
            Some("a melee attack")
        }
        // One cannot hide in shadows and move (§10; DMG p.19).
        Action::Hide => Some("hiding in shadows"),
        _ => None,
    }
}

/// Rows that move the figure (a movement type of their own; standing up is one: App. B
/// lists it with the movements, and they exclude each other).
const MOVE_ROWS: [&str; 5] = ["charge", "move_half", "move_full", "flee", "stand_up"];
/// The rows of an unarmed attack, by size.
const UNARMED_ROWS: [&str; 3] = ["unarmed_s", "unarmed_m", "unarmed_l"];
/// Rows that are an action of their own, as their declarations are: a weapon set to
/// receive a charge, a charge, a parry, hiding in shadows (App. A names parrying and
/// hiding as normal actions), expecting an event. Beside another normal action they make
/// two.
const ACTION_ROWS: [&str; 5] = ["set_to_receive", "charge", "parry", "hide", "expect"];

/// Whether row `id` beside `action` is one the text itself combines with it: a parry while
/// withdrawing (§6 note b), a move while using a wand to fire (§8c, as a bow's §8b), a
/// scroll the spell is read from (App. B, Magic: the scroll row stands in for casting's).
fn goes_beside(action: Action, id: &str) -> bool {
    matches!(
        (action, id),
        (Action::Withdraw, "parry")
            | (Action::Device, "move_half" | "move_full")
            | (Action::Cast { .. }, "scroll")
    )
}
/// Rows that cast.
const CAST_ROWS: [&str; 2] = ["spell", "scroll"];

/// Whether `action` with these extra rows (Appendix B ids) goes together in one round, and
/// what the combination makes of the figure's attacks. Unknown ids are the caller's to
/// refuse; they are left out here.
pub fn combine(table: &Table, action: Action, extra: &[&str]) -> Result<(Combined, Rule), Refusal> {
    let row = |id: &str| table.modifiers.iter().find(|r| r.id == id);
    let words = |id: &str| row(id).map_or(id.to_string(), |r| r.words.to_lowercase());
    // Each row once: not twice among the extra rows, nor beside the action that has it.
    let own = super::action::modifiers(table, action).0;
    for (k, id) in extra.iter().enumerate() {
        if extra[..k].contains(id) || own.iter().any(|m| m.id == *id) {
            return Err(Refusal::Twice(words(id)));
        }
    }
    if matches!(action, Action::Missile { .. })
        && extra
            .iter()
            .any(|id| matches!(*id, "move_half" | "move_full"))
    {
        return Err(Refusal::ShotOnTheMove);
    }
    let mut normals: Vec<String> = normal_action(action)
        .map(String::from)
        .into_iter()
        .collect();
    normals.extend(
        extra
            .iter()
            .filter(|id| row(id).is_some_and(|r| r.primary) || ACTION_ROWS.contains(id))
            .filter(|id| !goes_beside(action, id))
            .map(|id| words(id)),
    );
    if let [first, second, ..] = normals.as_slice() {
        return Err(Refusal::TwoActions {
            first: first.clone(),
            second: second.clone(),
        });
    }
    let mut moves: Vec<String> = movement_of(action).map(String::from).into_iter().collect();
    moves.extend(
        extra
            .iter()
            .filter(|id| MOVE_ROWS.contains(id))
            .map(|id| words(id)),
    );
    if let [first, second, ..] = moves.as_slice() {
        return Err(Refusal::TwoMoves {
            first: first.clone(),
            second: second.clone(),
        });
    }
    let moving = moves
        .first()
        .filter(|_| !matches!(action, Action::Charge) && !extra.contains(&"charge"));
    let prevented = moving_prevents(action).map(String::from).or_else(|| {
        extra.iter().find_map(|id| {
            if CAST_ROWS.contains(id) {
                Some("casting a spell".to_string())
            } else if UNARMED_ROWS.contains(id) || *id == "set_to_receive" {
                // The rows of the declarations movement prevents, as the declarations are.
                Some("a melee attack".to_string())
            } else {
                (*id == "hide").then(|| "hiding in shadows".to_string())
            }
        })
    });
    if let (Some(moving), Some(prevented)) = (moving, prevented) {
        return Err(Refusal::MovePrevents {
            moving: moving.clone(),
            prevented,
        });
    }
    let mut minors: Vec<String> = extra
        .iter()
        .filter(|id| row(id).is_some_and(|r| r.minor))
        .map(|id| words(id))
        .collect();
    if action == Action::Potion {
        minors.insert(0, "quaffing a potion".to_string());
    }
    match (normals.first(), minors.len()) {
        (Some(a), n) if n >= 2 => {
            return Err(Refusal::MinorsBeside {
                action: a.clone(),
                minors,
            });
        }
        (None, n) if n > 2 => return Err(Refusal::TooManyMinors(minors)),
        _ => {}
    }
    if extra.contains(&"multiple_targets") && moving_prevents(action) != Some("a melee attack") {
        return Err(Refusal::TargetsWithoutMelee);
    }
    let combined = Combined {
        one_attack: !minors.is_empty(),
        minors: minors.len(),
    };
    let rule = if combined.one_attack {
        cite::TI_MINOR_ONE_ATTACK
    } else {
        cite::TI_ONE_ACTION
    };
    Ok((combined, rule))
}

/// Whether a figure may charge: not if it is already engaged, a foe within 1" (10 ft) at
/// the round's start (§9; our reading of 1" as the indoor scale's 10 ft, the reach of
/// melee, in either setting).
pub fn may_charge(nearest_foe_ft: Option<f64>) -> Result<Rule, Refusal> {
    match nearest_foe_ft {
        Some(d) if d <= ENGAGED_FT => Err(Refusal::Engaged),
        _ => Ok(cite::TI_CHARGE),
    }
}

/// Whether a figure that last charged in round `last` may charge in `round`: once a turn
/// of 10 rounds (§9).
pub fn charge_ready(last: Option<u32>, round: u32) -> Result<Rule, Refusal> {
    match last {
        Some(l) if round < l + 10 => Err(Refusal::ChargedThisTurn(l)),
        _ => Ok(cite::TI_CHARGE),
    }
}

/// A foe this close at the round's start engages a figure (1").
pub const ENGAGED_FT: f64 = 10.0;

/// Melee at `targets` foes beside rows that leave one attack (`one_attack`, a minor
/// action: App. A) is refused: the row for several targets would be paid for attacks the
/// figure cannot make. The reason in words, with the rule, if refused.
pub fn several_targets_refused(targets: usize, one_attack: bool) -> Option<(String, Rule)> {
    (one_attack && targets > 1).then(|| {
        (
            format!(
                "melee at {targets} targets beside a minor action: a minor action leaves one attack (Take Initiative! App. A): name one target"
            ),
            cite::TI_MINOR_ONE_ATTACK,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables;
    use proptest::prelude::*;

    fn actions() -> impl Strategy<Value = Action> {
        prop_oneof![
            (0u32..=10).prop_map(|s| Action::Melee {
                speed_factor: Some(s)
            }),
            Just(Action::Melee { speed_factor: None }),
            proptest::sample::select(vec![
                crate::rules::size::Size::S,
                crate::rules::size::Size::M,
                crate::rules::size::Size::L
            ])
            .prop_map(|size| Action::Unarmed { size }),
            (1i32..=10).prop_map(|speed| Action::Missile {
                speed,
                dexterity: 0
            }),
            any::<bool>().prop_map(|far| Action::MoveAndShoot {
                far,
                speed: 7,
                dexterity: 0
            }),
            Just(Action::Charge),
            any::<bool>().prop_map(|far| Action::Move { far }),
            (1u32..=9).prop_map(|level| Action::Cast { level }),
            Just(Action::Device),
            Just(Action::Turn),
            Just(Action::SetToReceive),
            Just(Action::Potion),
            Just(Action::Flee),
            Just(Action::Withdraw),
            Just(Action::Parry),
            Just(Action::Expect),
            Just(Action::Hide),
            Just(Action::Other),
        ]
    }

    fn extras() -> impl Strategy<Value = Vec<String>> {
        let ids: Vec<String> = tables::take_initiative()
            .modifiers
            .iter()
            .map(|m| m.id.clone())
            .collect();
        proptest::collection::vec(proptest::sample::select(ids), 0..4)
    }

    proptest! {
        /// Whatever is accepted holds every rule: one normal action, one kind of movement,
        /// no casting or melee on the move, minors within the round, one attack after a
        /// minor action.
        #[test]
        fn what_is_accepted_keeps_every_rule(action in actions(), extra in extras()) {
            let t = tables::take_initiative();
            let ids: Vec<&str> = extra.iter().map(String::as_str).collect();
            let row = |id: &str| t.modifiers.iter().find(|r| r.id == id).unwrap();
            // The text's own pairs: a parry while withdrawing (§6 b), a move with a wand
            // (§8c), the scroll a spell is read from (App. B, Magic).
            let texts_pair = |id: &str| {
                (action == Action::Withdraw && id == "parry")
                    || (action == Action::Device && (id == "move_half" || id == "move_full"))
                    || (matches!(action, Action::Cast { .. }) && id == "scroll")
            };
            let primaries = ids
                .iter()
                .filter(|id| (row(id).primary || ACTION_ROWS.contains(id)) && !texts_pair(id))
                .count()
                + usize::from(normal_action(action).is_some());
            let moves = ids.iter().filter(|id| MOVE_ROWS.contains(id)).count()
                + usize::from(movement_of(action).is_some());
            let minors = ids.iter().filter(|id| row(id).minor).count()
                + usize::from(action == Action::Potion);
            let casts = matches!(action, Action::Cast { .. })
                || ids.iter().any(|id| CAST_ROWS.contains(id));
            let melee = matches!(
                action,
                Action::Melee { .. } | Action::Unarmed { .. } | Action::SetToReceive
            );
            // A melee attack named by its row (an unarmed attack's, a set weapon's) is one
            // as much as its declaration: movement prevents it alike.
            let attacks = melee
                || ids.iter().any(|id| id.starts_with("unarmed_") || *id == "set_to_receive");
            let charge = action == Action::Charge || ids.contains(&"charge");
            let hides = action == Action::Hide || ids.contains(&"hide");
            // Shots on the move are an action of their own, never missile fire with a move row.
            let shot_on_move = matches!(action, Action::Missile { .. })
                && ids.iter().any(|id| matches!(*id, "move_half" | "move_full"));
            let minors_allowed = if primaries == 1 { 1 } else { 2 };
            // A row given twice, or beside the action that already counts it.
            let own = super::super::action::modifiers(t, action).0;
            let twice = ids.iter().enumerate().any(|(k, id)| {
                ids[..k].contains(id) || own.iter().any(|m| m.id == *id)
            });
            match combine(t, action, &ids) {
                Ok((c, _)) => {
                    prop_assert!(!twice, "a row counted twice accepted");
                    prop_assert!(primaries <= 1, "two normal actions accepted");
                    prop_assert!(moves <= 1, "two moves accepted");
                    prop_assert!(!(moves == 1 && !charge && (casts || attacks)), "cast or melee on the move");
                    prop_assert!(!(moves == 1 && hides), "hiding on the move");
                    prop_assert!(!shot_on_move, "missile fire with a move row accepted");
                    prop_assert!(minors <= minors_allowed, "too many minor actions");
                    prop_assert_eq!(c.one_attack, minors > 0);
                    prop_assert!(!ids.contains(&"multiple_targets") || melee);
                }
                Err(r) => {
                    let broken = twice
                        || primaries > 1
                        || moves > 1
                        || (moves == 1 && !charge && (casts || attacks))
                        || (moves == 1 && hides)
                        || shot_on_move
                        || minors > minors_allowed
                        || (ids.contains(&"multiple_targets") && !melee);
                    prop_assert!(broken, "refused without a broken rule: {}", r.describe());
                    prop_assert!(r.describe().contains(&r.rule().page_ref()));
                }
            }
        }

        /// A figure within 1" of a foe at the round's start never charges; farther, always.
        #[test]
        fn an_engaged_figure_never_charges(d in 0.0f64..200.0) {
            prop_assert_eq!(may_charge(Some(d)).is_err(), d <= ENGAGED_FT);
        }
    }

    #[test]
    fn the_issue_s_combinations() {
        let t = tables::take_initiative();
        let cast = Action::Cast { level: 1 };
        assert!(matches!(
            combine(t, cast, &["move_full"]),
            Err(Refusal::TwoActions { .. })
        ));
        assert!(matches!(
            combine(t, cast, &["move_half"]),
            Err(Refusal::MovePrevents { .. })
        ));
        let melee = Action::Melee {
            speed_factor: Some(5),
        };
        assert!(matches!(
            combine(t, melee, &["draw_weapon", "open_door"]),
            Err(Refusal::MinorsBeside { .. })
        ));
        let (c, rule) = combine(t, melee, &["draw_weapon"]).unwrap();
        assert!(c.one_attack);
        assert_eq!(rule, cite::TI_MINOR_ONE_ATTACK);
        assert!(combine(t, Action::Other, &["draw_weapon", "open_door"]).is_ok());
        assert!(combine(t, melee, &["multiple_targets", "higher_ground"]).is_ok());
        // App. A: parrying and hiding are normal actions; the text pairs a parry with a
        // withdrawal (§6 b) and a move with a wand (§8c); no hiding on the move (§10).
        assert!(combine(t, melee, &["parry"]).is_err());
        assert!(combine(t, cast, &["hide"]).is_err());
        assert!(combine(t, Action::Withdraw, &["parry"]).is_ok());
        assert!(combine(t, Action::Device, &["move_full"]).is_ok());
        assert!(combine(t, Action::Hide, &["move_half"]).is_err());
        assert!(may_charge(Some(10.0)).is_err());
        assert!(may_charge(Some(10.5)).is_ok());
    }
}
