//! "Take Initiative!" (the d10 variant): properties of its rules beyond the text's
//! scenarios — the total is the die plus its named modifiers, a total over 20 always acts
//! next round at total − 20, a changed action never comes before the segment it changed
//! in, and the area spell's window is symmetric.

use firststrike::rules::take_initiative::{
    ActsAt, Modifier, ModifierContext, Total, acts_at, change, location, modifier,
};
use firststrike::tables;
use proptest::prelude::*;

/// Any rows of Appendix B that are plain numbers, worked out for a figure.
fn rows() -> impl Strategy<Value = Vec<Modifier>> {
    let table = tables::take_initiative();
    let ctx = ModifierContext {
        weapon_speed: Some(7),
        spell_level: Some(3),
        targets: 2,
    };
    let usable: Vec<Modifier> = table
        .modifiers
        .iter()
        .filter_map(|r| modifier(table, &r.id, &ctx).ok())
        .collect();
    prop::collection::vec(prop::sample::select(usable), 0..5)
}

proptest! {
    #[test]
    fn the_total_is_the_die_and_its_named_modifiers(base in 1u32..=10, mods in rows()) {
        let sum: i64 = mods.iter().map(|m| i64::from(m.value)).sum();
        let t = Total::new(base, mods.clone());
        prop_assert_eq!(t.value(), i64::from(base) + sum);
        // The description names every modifier and ends with the total.
        let d = t.describe();
        for m in &mods {
            prop_assert!(d.contains(&m.words), "{d}");
        }
        let total_suffix = format!("= {}", t.value());
        prop_assert!(d.ends_with(&total_suffix), "{d}");
    }

    #[test]
    fn a_total_over_twenty_acts_next_round_at_total_less_twenty(total in 21i64..=40) {
        prop_assert_eq!(
            acts_at(total).0,
            ActsAt { rounds_later: 1, segment: (total - 20) as u32 }
        );
    }

    #[test]
    fn a_total_up_to_twenty_acts_this_round_on_itself(total in 1i64..=20) {
        prop_assert_eq!(acts_at(total).0, ActsAt { rounds_later: 0, segment: total as u32 });
    }

    /// Whatever the new action's modifiers (a flee's −2, higher ground's −1...), a figure
    /// that changes in segment s ≤ its base acts no earlier than s.
    #[test]
    fn a_changed_action_never_comes_before_the_change(
        base in 1u32..=10, reroll in 1u32..=10, mods in rows(), at in 1u32..=10,
    ) {
        let segment = at.min(base);
        prop_assume!(change::may_change(base, segment, change::Standing::default()).is_ok());
        let (t, _) = change::changed(base, segment, reroll, mods);
        prop_assert!(t.value() >= i64::from(segment));
        // The total is still the die plus its named modifiers.
        let sum: i64 = t.modifiers.iter().map(|m| i64::from(m.value)).sum();
        prop_assert_eq!(t.value(), i64::from(base) + sum);
    }

    #[test]
    fn the_area_window_is_symmetric(
        caster in 1i64..=40, d in 0i64..=10, area in 0.5f64..=12.0, mv in 3.0f64..=24.0,
    ) {
        let (n, _) = location::area_window(area, mv);
        let early = location::caught(caster - d, caster, n).0;
        let late = location::caught(caster + d, caster, n).0;
        prop_assert_eq!(early, late);
        prop_assert_eq!(early, d as u64 <= u64::from(n));
        // A wider area never narrows the window.
        prop_assert!(location::area_window(area * 2.0, mv).0 >= n);
    }
}
