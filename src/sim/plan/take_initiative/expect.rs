//! Expecting an opponent (§2): a figure that waits for a foe (+5) answers when that foe
//! acts — at the later of its own total and that segment, − 3 + a new d10 + its weapon's
//! speed (or the unarmed row for its size) — by striking it. A foe that does not act this round leaves it waiting; an answer
//! past segment 20 comes next round, at its total − 20.

use super::{Build, strike};
use crate::rules::take_initiative::action;
use crate::rules::take_initiative::{acts_at, expect};
use crate::scene::{Act, DieKind};
use crate::sim::dice::Dice;
use crate::sim::log::{EventKind, LogEvent, Payload};
use crate::tables;

/// Every expecting figure's answer this round, once all totals are known.
pub(super) fn answers(b: &mut Build, dice: &mut Dice) {
    for (i, own) in b.acting(|a| matches!(a, Act::Expect { .. })) {
        answer(b, i, own, dice);
    }
}

/// Figure `i`, on `own`, answers its foe's action.
fn answer(b: &mut Build, i: usize, own: u32, dice: &mut Dice) {
    let f = &b.figs[i];
    let Act::Expect { target } = f.act else {
        return;
    };
    let name = f.name().to_string();
    // An answer that came past segment 20 last round falls on its carried segment, with
    // no new roll and no new wait for the foe (§Basics, §2).
    if f.carried().is_some() {
        strike(b, i, own);
        return;
    }
    let foe = b.figs.iter().position(|g| g.name() == target);
    // The event is a charge at it: it meets the charge at contact, by weapon length, as a
    // standing defender does (§9a; `contact`), not later on an answer.
    if let Some(t) = foe
        && matches!(b.figs[t].act, Act::Charge { .. })
        && b.figs[t].act.targets().contains(&name.as_str())
    {
        b.events.push(LogEvent::new(
            b.when,
            name,
            EventKind::Declare,
            Some(target.as_str().into()),
            format!("expects {target}'s charge: meets it at contact, by weapon length (§9a)"),
            crate::rules::cite::TI_EXPECT,
        ));
        return;
    }
    let Some(event) = foe.and_then(|t| b.acts.get(&t).copied()) else {
        let why = format!("waits for {target}, who does not act this round");
        b.events.push(LogEvent::new(
            b.when,
            name,
            EventKind::Idle,
            Some(target.as_str().into()),
            why,
            crate::rules::cite::TI_EXPECT,
        ));
        return;
    };
    let reroll = dice.roll(DieKind::Initiative, &name, 10).0.clamp(1, 10) as u32;
    // The answer's own rows: its weapon's speed — a missile's, less its Dexterity, for a
    // shot — or the unarmed row for its size.
    let answer = if f.weapon.missile {
        f.missile_action()
    } else {
        f.melee_action()
    };
    let (mods, _) = action::modifiers(tables::take_initiative(), answer);
    let (at, rule) = expect::response(i64::from(own), event, reroll, &mods);
    let named: String = mods
        .iter()
        .map(|m| format!(" {:+} {}", m.value, m.words))
        .collect();
    let why = format!(
        "{target} acts in segment {event}: answers at max({own}, {event}) - 3 + d10 {reroll}{named} = {at}"
    );
    let (when, _) = acts_at(at);
    b.events.push(
        LogEvent::new(
            b.when,
            name,
            EventKind::Initiative,
            Some(target.as_str().into()),
            why,
            rule,
        )
        .with(Payload::TakeInitiative {
            total: at,
            die: None,
            rounds_later: when.rounds_later,
            segment: when.segment,
        }),
    );
    if when.rounds_later == 0 {
        strike(b, i, when.segment);
    } else {
        b.carry.push((i, when.segment));
    }
}
