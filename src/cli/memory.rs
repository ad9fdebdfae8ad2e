//! The process's pages. The allocator (mimalloc) asks the kernel for transparent huge pages
//! on its arenas; a crowd's log is hundreds of thousands of small events and words, and a
//! huge page is zeroed and counted 2 MiB at a time however little of it is used. Measured
//! on the lit 1,000-figure battle's `run` (release, this machine): peak memory 303 MB with
//! huge pages, 270 MB without, in the same time.

/// Turns transparent huge pages off for this process (Linux); elsewhere it does nothing.
pub fn small_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes only integer arguments and changes no memory this
    // process holds: pages faulted in from now on are ordinary ones.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}
