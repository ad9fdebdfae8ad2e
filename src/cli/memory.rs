//! The process's memory. Measured on the lit 1,000-figure
//! battle's `run` (release, this machine; `scripts/lit-battle.sh 1000`):
//!
//! - The allocator (mimalloc) asks the kernel for transparent huge pages on its arenas. A
//!   crowd's log is hundreds of thousands of small events and words, and a huge page is
//!   zeroed and counted 2 MiB at a time however little of it is used: peak memory 303 MB
//!   with huge pages, 270 MB without, in the same time.
//! - Memory freed is kept by mimalloc for a second before it goes back to the kernel, so a
//!   round's steps pile up: the encounter's sightings are freed once written, but the next
//!   steps build beside them. Given back after 10 ms (mimalloc 2's default), the peak is
//!   152 MB instead of 205 MB, for about a tenth more time (0.40 -> 0.45 s).

/// The index of `mi_option_purge_delay` in mimalloc 3's option list (`mimalloc.h`: the
/// sixteenth, after the deprecated `eager_commit_delay` at 14 that the crate names).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Milliseconds before freed memory goes back to the kernel.
const PURGE_DELAY_MS: std::ffi::c_long = 10;

/// Turns transparent huge pages off for this process (Linux) and has freed memory go back
/// to the kernel soon. Called first thing: mimalloc reads the purge delay when it sets up
/// an arena, so set after the arguments were parsed it did nothing (205 MB, not 152).
/// The viewer runs with it too: its frame times are the same either way (measured with
/// `scripts/frame-times.sh`; the renderer's own memory is `viewer/renderer_memory.rs`).
pub fn lean() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes only integer arguments and changes no memory this
    // process holds: pages faulted in from now on are ordinary ones.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    // SAFETY: sets one of mimalloc's documented options to a documented value; options
    // may be set at any time and are read when memory is purged.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS);
    }
}
