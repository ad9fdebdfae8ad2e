//! Every command the README and the guide (`docs/*.md`) show is run (issue "a README a
//! newcomer can read in two minutes"): each line of a fenced `sh` block that starts with
//! `firststrike` or `cargo run … --` (a `\` continues it), with the test's binary in their
//! place, through `sh` (so `scenes/*.ron` expands) in a folder of its own that sees the
//! project's `scenes/` (what a command writes never lands in the project), and must exit
//! 0. What a line pipes into (`| grep …`, `| man -l -`) or redirects to is left off: the
//! command shown is what is tested. Two things are changed, and only these: a `view` gets
//! `--screenshot` so it saves a PNG and exits (under Xvfb when there is no display), and
//! `--trials` above 2,000 is run with 2,000 (the debug build; the counts do not matter here).

use std::path::Path;
use std::process::Command;

/// The commands shown in one Markdown file's `sh` blocks.
fn commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut pending = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_sh = t == "```sh";
            pending.clear();
            continue;
        }
        if !in_sh {
            continue;
        }
        if !pending.is_empty() || t.starts_with("firststrike") || t.starts_with("cargo run") {
            let part = t.strip_suffix('\\').unwrap_or(t);
            pending.push_str(part);
            pending.push(' ');
            if !t.ends_with('\\') {
                out.push(std::mem::take(&mut pending).trim().to_string());
            }
        }
    }
    out
}

/// Cuts a shell line at its first unquoted `#` (comment), `|` or `>`.
fn own_part(line: &str) -> String {
    let (mut single, mut double) = (false, false);
    for (i, c) in line.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' | '|' | '>' if !single && !double => return line[..i].trim().to_string(),
            _ => {}
        }
    }
    line.trim().to_string()
}

/// The arguments after the program: `firststrike ARGS` or `cargo run [flags] -- ARGS`.
fn args_of(line: &str) -> String {
    if let Some(rest) = line.strip_prefix("firststrike") {
        return rest.trim().to_string();
    }
    match line.split_once(" -- ") {
        Some((_, rest)) => rest.trim().to_string(),
        None => String::new(),
    }
}

/// The two changes the module docs name.
fn adjusted(args: &str, shot: &Path) -> String {
    let mut words: Vec<String> = args.split(' ').map(str::to_string).collect();
    for k in 0..words.len() {
        if words[k] == "--trials"
            && let Some(n) = words.get(k + 1).and_then(|n| n.parse::<u64>().ok())
            && n > 2000
        {
            words[k + 1] = "2000".into();
        }
    }
    let mut args = words.join(" ");
    let first = args.split_whitespace().next().unwrap_or("");
    if args.is_empty() || first == "view" {
        if args.is_empty() {
            args = "view".into();
        }
        args = format!("{args} --screenshot {}", shot.display());
    }
    args
}

#[test]
fn every_command_in_the_readme_and_the_guide_runs() {
    let mut files = vec![std::path::PathBuf::from("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir("docs")
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let bin = env!("CARGO_BIN_EXE_firststrike");
    let data = std::env::temp_dir().join(format!("firststrike-docs-{}", std::process::id()));
    std::fs::create_dir_all(&data).unwrap();
    let shot = data.join("shot.png");
    // The commands run in a folder of their own (what they write, such as a chart, goes
    // there, never into the project) that sees the project's scenes.
    let work = data.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let scenes = std::fs::canonicalize("scenes").unwrap();
    let link = work.join("scenes");
    if !link.exists() {
        #[cfg(unix)]
        std::os::unix::fs::symlink(&scenes, &link).unwrap();
    }
    let display = std::env::var_os("DISPLAY").is_some();
    let xvfb = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("xvfb-run").is_file()));
    let mut ran = 0;
    let mut failed = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for line in commands(&text) {
            let args = adjusted(&args_of(&own_part(&line)), &shot);
            let is_view = args.contains("--screenshot");
            if is_view && !display && !xvfb {
                assert!(std::env::var_os("CI").is_none(), "CI must have xvfb-run");
                eprintln!("SKIPPED (no display): {line}");
                continue;
            }
            let wrap = if is_view && !display {
                "xvfb-run -a -s '-screen 0 1280x800x24' "
            } else {
                ""
            };
            let script = format!("{wrap}{bin} {args}");
            let out = Command::new("sh")
                .arg("-c")
                .arg(&script)
                .current_dir(&work)
                .env("XDG_DATA_HOME", &data)
                .stdin(std::process::Stdio::null())
                .output()
                .expect("sh runs");
            ran += 1;
            if !out.status.success() {
                failed.push(format!(
                    "{}: `{line}` exited {:?}: {}",
                    f.display(),
                    out.status.code(),
                    String::from_utf8_lossy(&out.stderr)
                        .lines()
                        .take(6)
                        .collect::<Vec<_>>()
                        .join(" / ")
                ));
            }
        }
    }
    assert!(ran >= 25, "only {ran} commands found");
    assert!(
        failed.is_empty(),
        "{} of {ran} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

#[test]
fn the_readme_is_a_front_door() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let lines = readme.lines().count();
    assert!(lines < 150, "README.md has {lines} lines");
    // Every chapter it links to is there.
    for part in readme.split("](docs/").skip(1) {
        let file = part.split(')').next().unwrap().split('#').next().unwrap();
        assert!(Path::new("docs").join(file).is_file(), "docs/{file}");
    }
}

#[test]
fn the_extractor_reads_what_it_should() {
    let md = "```sh\n# a comment\nfirststrike run x  # note\ncargo run --release -- odds y --trials 100000 \\\n  --reroll all\necho no\n```\n```text\nfirststrike not this\n```\n";
    let c = commands(md);
    assert_eq!(
        c,
        vec![
            "firststrike run x  # note".to_string(),
            "cargo run --release -- odds y --trials 100000  --reroll all".to_string()
        ]
    );
    assert_eq!(own_part("firststrike man | man -l -"), "firststrike man");
    assert_eq!(
        own_part("firststrike first 'A: x # y' 'B'  # c"),
        "firststrike first 'A: x # y' 'B'"
    );
    let shot = Path::new("/tmp/s.png");
    assert_eq!(
        adjusted("odds y --trials 100000", shot),
        "odds y --trials 2000"
    );
    assert_eq!(adjusted("", shot), "view --screenshot /tmp/s.png");
    assert_eq!(
        adjusted("view bigby --edit", shot),
        "view bigby --edit --screenshot /tmp/s.png"
    );
    assert_eq!(adjusted("--version", shot), "--version");
    assert_eq!(args_of("cargo run --release"), "");
}
