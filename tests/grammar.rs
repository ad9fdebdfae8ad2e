//! One grammar for `first` under both rules systems (`calc::grammar`): a setting both
//! calculators know is read the same way, within the same limits as a scene's field.

use firststrike::calc::{self, Defaults, take_initiative};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The book's calculator and the d10 one take or refuse a speed factor and a
    /// Dexterity alike, for every value written (numbers in and out of range, and words).
    #[test]
    fn both_systems_read_a_setting_alike(
        key in prop::sample::select(vec!["sf", "dex"]),
        value in prop_oneof![
            (0u32..40).prop_map(|n| n.to_string()),
            Just("-1".to_string()),
            Just("x".to_string()),
            Just("".to_string()),
        ],
    ) {
        let word = if value.is_empty() { key.to_string() } else { format!("{key}={value}") };
        let book = calc::parse_action(&format!("A: melee {word} d6=3"), &Defaults::default());
        let d10 = take_initiative::parse(&format!("A: melee {word} d10=3"));
        prop_assert_eq!(book.is_ok(), d10.is_ok(), "{}: {:?} / {:?}", word, book.err(), d10.err());
        if let (Err(a), Err(b)) = (&book, &d10) {
            prop_assert_eq!(a, b, "the same words for the same mistake");
        }
        // And the scene's limits: a number the calculators take, a scene takes.
        if let (Ok(n), true) = (value.parse::<u32>(), book.is_ok()) {
            let range = if key == "sf" {
                firststrike::scene::limits::SPEED_FACTOR
            } else {
                firststrike::scene::limits::DEXTERITY
            };
            prop_assert!(range.contains(&n));
        }
    }
}

/// The form of an action is checked the same way under both systems.
#[test]
fn a_malformed_action_is_refused_alike() {
    for bad in ["no colon here", ": melee", "A:", "A: melee wings=3"] {
        let book = calc::parse_action(bad, &Defaults::default()).unwrap_err();
        let d10 = take_initiative::parse(bad).unwrap_err();
        let first_line = |e: &str| {
            e.split(" (")
                .next()
                .unwrap()
                .split(", e.g.")
                .next()
                .unwrap()
                .to_string()
        };
        assert_eq!(first_line(&book), first_line(&d10), "{bad}");
    }
}
