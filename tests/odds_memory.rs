//! The odds' memory is flat in the number of trials: the sight memo and the field-of-view
//! cache live across trials (they depend on the map alone) and are bounded in bytes, not
//! only in entries. Before that bound, each trial of the 200-figure scene kept about
//! 12 MB more (1.2 GB by 120 trials; 1,000 trials ran out of memory). Its own test
//! binary, so the process's resident memory is this file's tests' alone (the other test
//! plays a duel, a few MB at most, inside the first test's margin).

use firststrike::sim::Runner;

/// Resident memory of this process, in MB.
fn rss_mb() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096 / (1 << 20)
}

#[test]
fn trials_of_a_crowd_on_a_lit_map_keep_memory_flat() {
    if !std::path::Path::new("/proc/self/statm").exists() {
        return;
    }
    let scene = firststrike::scene::load("scenes/stress_200.ron").unwrap();
    let mut run = Runner::new(scene, Some(1), None);
    // The caches fill in the first trials.
    for seed in 0..4 {
        run.restart(seed).run_to_end();
    }
    let warm = rss_mb();
    for seed in 4..16 {
        run.restart(seed).run_to_end();
    }
    let after = rss_mb();
    // Twelve more trials: the old growth was ~12 MB each (~145 MB); the bounds allow
    // the caches' own 32 + 64 MB at most, reached in the warm-up or not at all.
    assert!(
        after <= warm + 40,
        "memory grew from {warm} MB to {after} MB over 12 trials"
    );
}

/// Everything the world notes of a play (components removed by the restart's despawns,
/// above all) is let go of by the next restarts: after 400 trials of a duel it holds no
/// more than after 3. Trials never update the app, whose update would clear those notes;
/// before `restart` cleared them, `odds bigby_vs_giant` took 65 MB for 10,000 trials and
/// 87 MB for 100,000 (now 60 MB for both), and this test counted 98 removals after 3
/// trials and 12,802 after 400.
#[test]
fn a_restart_lets_go_of_the_last_plays_bookkeeping() {
    let scene = firststrike::scene::library::load_arg(std::path::Path::new("otis_vs_robilar"))
        .expect("library scene");
    let mut run = Runner::new(scene, Some(1), None);
    let noted = |run: &Runner| -> usize {
        run.app
            .world()
            .removed_components()
            .iter()
            .map(|(_, m)| m.len())
            .sum()
    };
    for seed in 0..3 {
        run.restart(seed).run_to_end();
    }
    let early = noted(&run);
    assert!(
        early > 0,
        "a restart despawns figures, so some removals are noted"
    );
    for seed in 3..400 {
        run.restart(seed).run_to_end();
    }
    // The notes of the last two plays are kept (the buffers swap): within twice what
    // three trials left, whichever seeds fell or cast.
    assert!(
        noted(&run) <= 2 * early,
        "removals noted grew from {early} to {} over 400 trials",
        noted(&run)
    );
}
