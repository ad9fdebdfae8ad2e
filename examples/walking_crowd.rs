//! Writes a generated walking crowd to stdout (see `firststrike::testing::crowd`).
//!
//! `cargo run --release --example walking_crowd -- 2000 [side] [seed] > /tmp/crowd.ron`

fn main() {
    let mut args = std::env::args().skip(1);
    let n = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let side = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let seed = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    print!(
        "{}",
        firststrike::testing::crowd::walking_crowd(n, side, seed)
    );
}
