//! The software renderer's memory: Mesa's lavapipe (and other C libraries under the
//! window) allocate through the C library's `malloc`, not through Rust's allocator. With
//! glibc's defaults, the big buffers a frame takes are handed back to the kernel when the
//! frame frees them (the heap is trimmed, thread arenas shrunk with `madvise`) and fetched
//! again, zeroed page by page, by the next frame. Profiled on a 500-figure battle under
//! Xvfb, a fifth of the frame was the kernel faulting those pages in; keeping them
//! (a larger top pad and trim threshold) took the median frame from 54 ms to 37 ms.
//! What is kept is bounded: at most the pad per arena beyond what a frame used.

/// Asks glibc's `malloc` to keep freed memory for the next frame. Call before the
/// renderer starts; elsewhere (another C library) it does nothing.
pub fn keep_frame_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets allocator parameters; called before the renderer's
    // threads start, with parameters and values glibc documents (mallopt(3)).
    unsafe {
        // Grow each heap by 64 MiB more than asked, and give memory back only past 256 MiB
        // free at its top.
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 20);
    }
}
