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
