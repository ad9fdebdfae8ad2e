//! Writes a generated lit battle scene to stdout (see `firststrike::testing::battle`).
//!
//! `cargo run --release --example lit_battle -- 1000 [seed] > /tmp/battle_1000.ron`

fn main() {
    let mut args = std::env::args().skip(1);
    let n = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let seed = args.next().and_then(|a| a.parse().ok()).unwrap_or(42);
    print!("{}", firststrike::testing::battle::lit_battle(n, seed));
}
