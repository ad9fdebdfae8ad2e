//! The binary works from any folder (issue "kept libraries … a binary that works from
//! anywhere"): the library scenes are built in, named without a path, listed by
//! `firststrike scenes`; `firststrike view` in an empty folder opens the lair from the
//! viewer's own copy in the user's data folder; completions, a manual page and the
//! version come from the clap definitions.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh empty folder and a data folder beside it.
fn empty() -> (PathBuf, PathBuf) {
    let base = std::env::temp_dir().join(format!(
        "firststrike-anywhere-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&base);
    let (cwd, data) = (base.join("empty"), base.join("data"));
    std::fs::create_dir_all(&cwd).unwrap();
    std::fs::create_dir_all(&data).unwrap();
    (cwd, data)
}

/// Runs the binary in `cwd` with its data folder at `data`: (code, stdout, stderr).
fn run_in(cwd: &Path, data: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_firststrike"))
        .current_dir(cwd)
        .env("XDG_DATA_HOME", data)
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn library_scenes_run_by_name_from_an_empty_folder() {
    let (cwd, data) = empty();
    let (code, out, err) = run_in(&cwd, &data, &["scenes"]);
    assert_eq!(code, 0, "{err}");
    for name in [
        "lizard_man_lair",
        "bigby_vs_giant",
        "take_initiative/charge_9a",
    ] {
        assert!(out.contains(name), "{name} listed:\n{out}");
    }
    // Every name listed runs, checks and plays the same log as the project's file.
    let names: Vec<String> = out
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| !n.starts_with('A'))
        .map(str::to_string)
        .collect();
    assert!(names.len() >= 20, "{names:?}");
    let (code, _, err) = run_in(
        &cwd,
        &data,
        &["check", "lizard_man_lair", "take_initiative/charge_9a.ron"],
    );
    assert_eq!(code, 0, "{err}");
    let (code, here, err) = run_in(&cwd, &data, &["run", "lizard_man_lair", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let project = Command::new(env!("CARGO_BIN_EXE_firststrike"))
        .args(["run", "scenes/lizard_man_lair.ron", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        here,
        String::from_utf8_lossy(&project.stdout),
        "the same log"
    );
    for cmd in [
        vec!["odds", "bigby_vs_giant", "--trials", "20"],
        vec!["compare", "lizard_man_lair"],
        vec!["quiz", "otis_vs_robilar", "--answers", "1,1"],
    ] {
        let (code, _, err) = run_in(&cwd, &data, &cmd);
        assert_eq!(code, 0, "{cmd:?}: {err}");
    }
    // A name that is neither a file nor a library scene: exit 2, and where to look.
    let (code, _, err) = run_in(&cwd, &data, &["run", "no_such_scene"]);
    assert_eq!(code, 2);
    assert!(err.contains("firststrike scenes"), "{err}");
    // Nothing was written to the empty folder.
    assert_eq!(std::fs::read_dir(&cwd).unwrap().count(), 0);
}

#[test]
fn a_file_in_the_folder_comes_before_the_library() {
    let (cwd, data) = empty();
    let own = std::fs::read_to_string("scenes/orc_shaman.ron")
        .unwrap()
        .replace("\"The orc shaman\"", "\"My own shaman\"");
    std::fs::write(cwd.join("lizard_man_lair.ron"), own).unwrap();
    let (code, out, err) = run_in(&cwd, &data, &["check", "lizard_man_lair.ron"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("My own shaman"), "{out}");
}

#[test]
fn completions_man_page_and_version() {
    let (cwd, data) = empty();
    for shell in ["bash", "zsh", "fish"] {
        let (code, out, err) = run_in(&cwd, &data, &["completions", shell]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("firststrike") && out.contains("odds"),
            "{shell}"
        );
    }
    let (code, _, _) = run_in(&cwd, &data, &["completions", "nosuchshell"]);
    assert_eq!(code, 2);
    let (code, out, _) = run_in(&cwd, &data, &["man"]);
    assert_eq!(code, 0);
    assert!(
        out.contains(".TH firststrike") && out.contains("scenes"),
        "{out}"
    );
    let (code, out, _) = run_in(&cwd, &data, &["--version"]);
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        format!("firststrike {}", env!("CARGO_PKG_VERSION"))
    );
    let (_, out, _) = run_in(&cwd, &data, &["--help"]);
    assert!(out.contains("130") && out.contains("NO_COLOR"), "{out}");
}

/// `firststrike view` in an empty folder opens the lair: the viewer's copy of the library
/// is written to the data folder (never to the folder it was started in) and the window
/// renders it.
#[cfg(feature = "viewer")]
#[test]
fn view_opens_the_lair_from_an_empty_folder() {
    let on_path = |c: &str| {
        std::env::var_os("PATH")
            .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(c).is_file()))
    };
    let bin = env!("CARGO_BIN_EXE_firststrike");
    let mut cmd = if std::env::var_os("DISPLAY").is_some() {
        Command::new(bin)
    } else if on_path("xvfb-run") {
        let mut c = Command::new("xvfb-run");
        c.args(["-a", "-s", "-screen 0 1280x800x24", bin]);
        c
    } else {
        assert!(std::env::var_os("CI").is_none(), "CI must have xvfb-run");
        eprintln!("SKIPPED view_opens_the_lair_from_an_empty_folder: no display");
        return;
    };
    let (cwd, data) = empty();
    let shot = data.join("lair.png");
    let out = cmd
        .current_dir(&cwd)
        .env("XDG_DATA_HOME", &data)
        .args(["view", "--screenshot"])
        .arg(&shot)
        .output()
        .expect("the viewer runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let img = image::open(&shot).expect("a PNG").to_rgb8();
    assert!(img.width() >= 1000, "a whole window");
    let copy = data.join(format!(
        "firststrike/library-{}/lizard_man_lair.ron",
        env!("CARGO_PKG_VERSION")
    ));
    assert!(copy.is_file(), "the copy is in the data folder");
    assert_eq!(
        std::fs::read_dir(&cwd).unwrap().count(),
        0,
        "nothing in the folder"
    );
    // A copy the user edited is never written over.
    std::fs::write(
        &copy,
        std::fs::read_to_string(&copy).unwrap() + "\n// mine\n",
    )
    .unwrap();
    let mut cmd = if std::env::var_os("DISPLAY").is_some() {
        Command::new(bin)
    } else {
        let mut c = Command::new("xvfb-run");
        c.args(["-a", "-s", "-screen 0 1280x800x24", bin]);
        c
    };
    let again = cmd
        .current_dir(&cwd)
        .env("XDG_DATA_HOME", &data)
        .args(["view", "lizard_man_lair", "--screenshot"])
        .arg(&shot)
        .output()
        .unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(
        std::fs::read_to_string(&copy)
            .unwrap()
            .ends_with("// mine\n")
    );
}

/// `NO_COLOR` turns colour off where a terminal would get it (errors and help), run in a
/// pseudo-terminal through `script` (util-linux); without it the same output has colour.
#[test]
fn no_color_turns_colour_off_on_a_terminal() {
    let has_script = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("script").is_file()));
    if !has_script {
        eprintln!("SKIPPED no_color_turns_colour_off_on_a_terminal: no `script` on PATH");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_firststrike");
    let on_tty = |no_color: bool, args: &str| {
        let mut c = Command::new("script");
        c.args(["-qc", &format!("{bin} {args}"), "/dev/null"]);
        if no_color {
            c.env("NO_COLOR", "1");
        } else {
            c.env_remove("NO_COLOR");
        }
        String::from_utf8_lossy(&c.output().expect("script runs").stdout).into_owned()
    };
    for args in ["run no_such_scene", "--help"] {
        assert!(
            on_tty(false, args).contains('\u{1b}'),
            "{args}: colour on a terminal"
        );
        assert!(
            !on_tty(true, args).contains('\u{1b}'),
            "{args}: none with NO_COLOR"
        );
    }
}
