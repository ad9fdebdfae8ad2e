//! Words for people, made only when someone will read them.
//!
//! Every event and every step of the round's order carries its typed data (the payload, the
//! rule, the numbers) and a line of words saying why. The words are for the log, the viewer
//! and the markdown summary; the odds play thousands of trials and read only the data, so
//! they play [`quietly`]: within it, [`words!`](crate::words) makes an empty string instead
//! of formatting one. Nothing the engine decides depends on the words (a test plays every
//! library scene both ways and compares everything but them).

use std::cell::Cell;

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Whether words are being made on this thread (true unless within [`quietly`]).
pub fn narrating() -> bool {
    !QUIET.with(Cell::get)
}

/// Runs `f` on this thread without making words: every [`words!`](crate::words) in it gives
/// an empty string. Restores the previous setting afterwards, even if `f` panics.
pub fn quietly<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            QUIET.with(|q| q.set(self.0));
        }
    }
    let _restore = Restore(QUIET.with(|q| q.replace(true)));
    f()
}

/// `format!` for words a person reads (an event's detail, a rule's why): an empty string
/// when playing [`quietly`](crate::narrate::quietly).
#[macro_export]
macro_rules! words {
    ($($arg:tt)*) => {
        if $crate::narrate::narrating() {
            ::std::format!($($arg)*)
        } else {
            ::std::string::String::new()
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_only_within_and_restored_after_a_panic() {
        let n = 3;
        assert_eq!(crate::words!("{n} segments"), "3 segments");
        assert_eq!(quietly(|| crate::words!("{n} segments")), "");
        assert!(narrating());
        let nested = quietly(|| quietly(|| 1) + usize::from(narrating()));
        assert_eq!(nested, 1, "still quiet after an inner quietly ends");
        let caught = std::panic::catch_unwind(|| quietly(|| panic!("in a trial")));
        assert!(caught.is_err());
        assert!(
            narrating(),
            "a panic inside does not leave the thread quiet"
        );
    }
}
