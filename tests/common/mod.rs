//! What the command-line tests share: running the binary.

use std::process::Command;

/// Runs `firststrike` with these arguments: (exit code, stdout, stderr), with miette's
/// wrapped lines joined back for matching.
#[allow(dead_code)]
pub fn firststrike(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_firststrike"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).replace("\n  │ ", " "),
    )
}

/// The hang guard of the hostile-input tests: no command may take longer (the issue's
/// "no command takes more than 10 s"; not a speed goal).
#[allow(dead_code)]
pub const LIMIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Runs `firststrike` with these arguments and environment changes (a `None` value
/// removes the variable), no standard input, killed and failed past [`LIMIT`]: (exit
/// code, stdout, stderr); the code is -1 when a signal ended it.
#[allow(dead_code)]
pub fn firststrike_guarded(args: &[String], env: &[(&str, Option<&str>)]) -> (i32, String, String) {
    use std::process::Stdio;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_firststrike"));
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let mut child = cmd.spawn().expect("the binary runs");
    // The pipes are read while it runs: a child writing more than a pipe holds (64 KB)
    // would otherwise wait for a reader that waits for it to end.
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let err = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child can be waited on") {
            break status;
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            panic!("{args:?} still running after {LIMIT:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    let text = |h: std::thread::JoinHandle<Vec<u8>>| {
        String::from_utf8_lossy(&h.join().expect("the pipe is read")).into_owned()
    };
    (status.code().unwrap_or(-1), text(out), text(err))
}

/// A scratch folder for one test, emptied when made and removed when the test is done
/// (passing or failing), so runs leave nothing behind in the temporary folder.
#[allow(dead_code)]
pub struct Scratch(std::path::PathBuf);

#[allow(dead_code)]
impl Scratch {
    /// `NAME-PID` under the temporary folder, fresh.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        Scratch(dir)
    }
}

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Plays a scene given as RON text to its end: every event of its log (a parse error
/// panics with the text).
#[allow(dead_code)]
pub fn play(src: &str) -> Vec<firststrike::sim::LogEvent> {
    let scene = firststrike::scene::parse("case.ron", src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let mut r = firststrike::sim::Runner::new(scene, None, None);
    r.run_to_end();
    r.log().events.clone()
}

/// The blows of a log: every roll to hit, hit or missed.
#[allow(dead_code)]
pub fn blows(
    events: &[firststrike::sim::LogEvent],
) -> impl Iterator<Item = &firststrike::sim::LogEvent> {
    use firststrike::sim::EventKind as K;
    events.iter().filter(|e| matches!(e.kind, K::Hit | K::Miss))
}
