//! Any bytes as a scene file: parsing either fails with located errors or gives a scene the
//! engine plays to its end. A panic or a hang is a bug.
#![no_main]

use firststrike::scene::parse;
use firststrike::sim::Runner;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    match parse("fuzz.ron", src) {
        Err(errors) => {
            for e in &errors.0 {
                assert!(e.line >= 1 && e.column >= 1, "unlocated: {e}");
            }
            let _ = errors.render();
        }
        Ok(scene) => {
            let mut run = Runner::new(scene, None, None);
            run.run_to_end();
        }
    }
});
