//! Any text as `firststrike first` actions (one per line): each is parsed; a round that
//! parses is planned by the engine. Errors are fine; a panic or a hang is a bug.
#![no_main]

use firststrike::calc::{self, Defaults};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let d = Defaults::default();
    let figures: Result<Vec<_>, _> = text.lines().take(8).map(|l| calc::parse_action(l, &d)).collect();
    if let Ok(figures) = figures {
        let _ = calc::calculate(&figures, &d);
    }
});
