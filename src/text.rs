//! Small helpers for words and saved text that every layer may use (the rules module
//! included): they import nothing of the crate.

/// "1 routine", "2 routines".
pub fn plural(n: u32, what: &str) -> String {
    if n == 1 {
        format!("{n} {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// A segment counted from the start of this round, in words: "segment 4" within the round
/// (1 to 10), "segment 1 of the next round" past it, "segment 3, 2 rounds later" further
/// on. A round has ten segments (DMG p.62).
pub fn segment_words(segment: u32) -> String {
    let (later, within) = (
        segment.saturating_sub(1) / 10,
        (segment.saturating_sub(1) % 10) + 1,
    );
    match later {
        _ if segment == 0 => "segment 0".to_string(),
        0 => format!("segment {within}"),
        1 => format!("segment {within} of the next round"),
        k => format!("segment {within}, {k} rounds later"),
    }
}

/// Whether a value is its type's default: such fields are left out when a scene is saved,
/// as a person writing it would leave them out.
pub fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// Numbers as words read them: "1, 1, 4 and 3" (none: "none").
pub fn list<T: std::fmt::Display>(items: &[T]) -> String {
    match items {
        [] => "none".into(),
        [one] => one.to_string(),
        [rest @ .., last] => {
            let head: Vec<String> = rest.iter().map(ToString::to_string).collect();
            format!("{} and {last}", head.join(", "))
        }
    }
}

/// "Owner's thing", without doubling a possessive the thing already has: Bigby's spell
/// "bigby's grasping hand" is "Bigby's grasping hand", not "Bigby's bigby's grasping hand".
pub fn owned(owner: &str, thing: &str) -> String {
    let own = format!("{owner}'s ");
    match thing.get(..own.len()) {
        Some(head) if head.eq_ignore_ascii_case(&own) => {
            format!("{owner}'s {}", &thing[own.len()..])
        }
        _ => format!("{owner}'s {thing}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_past_the_round_name_their_round() {
        assert_eq!(segment_words(4), "segment 4");
        assert_eq!(segment_words(10), "segment 10");
        assert_eq!(segment_words(11), "segment 1 of the next round");
        assert_eq!(segment_words(20), "segment 10 of the next round");
        assert_eq!(segment_words(23), "segment 3, 2 rounds later");
    }

    #[test]
    fn words_for_lists_and_owners() {
        assert_eq!(list(&[1, 1, 4]), "1, 1 and 4");
        assert_eq!(list::<u32>(&[]), "none");
        assert_eq!(list(&[60]), "60");
        assert_eq!(
            owned("Bigby", "bigby's grasping hand"),
            "Bigby's grasping hand"
        );
        assert_eq!(
            owned("Riggby", "bigby's grasping hand"),
            "Riggby's bigby's grasping hand"
        );
        assert_eq!(owned("Bigby", "light"), "Bigby's light");
        assert_eq!(owned("Émile", "é"), "Émile's é");
    }
}

/// Characters that show nothing or turn the text round: zero-width spaces and joiners,
/// the bidirectional marks, embeddings, overrides and isolates, the byte-order mark.
pub fn hidden(c: char) -> bool {
    matches!(c as u32, 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2069 | 0xFEFF)
}

/// `text` as a terminal may be given it: a control character (an escape that would
/// retitle or recolour it) or an invisible one becomes `?`; line breaks and tabs stay.
/// What the user typed (a file name, a `--vary` name) reaches the screen this way.
pub fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| (c.is_control() && c != '\n' && c != '\t') || hidden(c);
    if !text.chars().any(bad) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(text.chars().map(|c| if bad(c) { '?' } else { c }).collect())
}

#[cfg(test)]
mod terminal_tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever the text, what is shown holds no control character but line breaks
        /// and tabs, no invisible one, and as many characters as the text.
        #[test]
        fn nothing_a_terminal_acts_on_gets_through(text in ".{0,40}") {
            let shown = terminal_safe(&text);
            prop_assert!(shown.chars().all(|c| !((c.is_control() && c != '\n' && c != '\t') || hidden(c))));
            prop_assert_eq!(shown.chars().count(), text.chars().count());
        }
    }
}
