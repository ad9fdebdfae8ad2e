//! `firststrike`: the command-line entry point.

fn main() {
    std::process::exit(firststrike::cli::run());
}
