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
