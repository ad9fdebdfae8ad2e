//! The house's shape, checked from the sources: no two files import each other in a
//! circle (through `crate::`, `super::` or `self::` paths, doc comments and test modules
//! aside), and `rules/` and `map/` import nothing above them — only each other and the
//! leaf helpers (`text`, `bounded`, `narrate`'s `words!`, `tables` in tests).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every source file, by its module path (`["sim", "plan", "round"]`).
fn modules() -> BTreeMap<Vec<String>, (PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(Path::new("src"), &mut files);
    files
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix("src").unwrap().with_extension("");
            let mut m: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into()).collect();
            if matches!(m.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                m.pop();
            }
            (m, (p.clone(), std::fs::read_to_string(&p).unwrap()))
        })
        .collect()
}

/// The code of a file without comments and without its test module.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The files a file imports: every `crate::`, `super::` or `self::` path in its code,
/// taken to the longest module it names.
fn imports(
    me: &[String],
    text: &str,
    all: &BTreeMap<Vec<String>, (PathBuf, String)>,
) -> BTreeSet<Vec<String>> {
    let mut out = BTreeSet::new();
    let code = code(text);
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"]
        .iter()
        .flat_map(|s| code.match_indices(s).map(|(i, _)| i))
    {
        if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
            continue;
        }
        let path: Vec<&str> = code[start..]
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .next()
            .unwrap_or("")
            .split("::")
            .filter(|s| !s.is_empty())
            .collect();
        let mut base: Vec<String> = match path.first() {
            Some(&"crate") => Vec::new(),
            _ => me.to_vec(),
        };
        let mut rest = &path[..];
        if rest.first() == Some(&"crate") || rest.first() == Some(&"self") {
            rest = &rest[1..];
        }
        while rest.first() == Some(&"super") {
            base.pop();
            rest = &rest[1..];
        }
        let full: Vec<String> = base
            .into_iter()
            .chain(rest.iter().map(|s| s.to_string()))
            .collect();
        if let Some(k) = (1..=full.len())
            .rev()
            .find(|&k| all.contains_key(&full[..k]))
            && full[..k] != *me
        {
            out.insert(full[..k].to_vec());
        }
    }
    out
}

fn graph() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let all = modules();
    all.iter()
        .map(|(m, (_, text))| (m.clone(), imports(m, text, &all)))
        .collect()
}

type Graph = BTreeMap<Vec<String>, BTreeSet<Vec<String>>>;

/// A circle of imports in the graph, if there is one (a depth-first search's back edge).
fn find_circle(g: &Graph) -> Option<Vec<Vec<String>>> {
    fn visit(
        m: &Vec<String>,
        g: &Graph,
        state: &mut BTreeMap<Vec<String>, u8>,
        stack: &mut Vec<Vec<String>>,
    ) -> Option<Vec<Vec<String>>> {
        state.insert(m.clone(), 1);
        stack.push(m.clone());
        for n in g.get(m).into_iter().flatten() {
            match state.get(n).copied().unwrap_or(0) {
                1 => {
                    let from = stack.iter().position(|x| x == n).unwrap();
                    return Some(stack[from..].to_vec());
                }
                0 => {
                    if let Some(c) = visit(n, g, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(m.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    g.keys().find_map(|m| {
        (state.get(m).copied().unwrap_or(0) == 0)
            .then(|| visit(m, g, &mut state, &mut Vec::new()))
            .flatten()
    })
}

#[test]
fn no_two_files_import_each_other_in_a_circle() {
    if let Some(c) = find_circle(&graph()) {
        let names: Vec<String> = c.iter().map(|m| m.join("::")).collect();
        panic!("an import circle: {}", names.join(" -> "));
    }
}

#[test]
fn rules_and_map_import_nothing_above_them() {
    let allowed = ["rules", "map", "text", "bounded", "narrate"];
    for (m, deps) in graph() {
        if !matches!(m.first().map(String::as_str), Some("rules" | "map")) {
            continue;
        }
        for d in deps {
            let top = d.first().map(String::as_str).unwrap_or("");
            assert!(
                allowed.contains(&top),
                "{} imports {}",
                m.join("::"),
                d.join("::")
            );
        }
    }
}

/// The check itself finds a circle and a layer broken when there is one.
#[test]
fn the_checks_see_what_they_look_for() {
    let mut all = BTreeMap::new();
    let a = vec!["a".to_string()];
    let b = vec!["b".to_string()];
    all.insert(a.clone(), (PathBuf::from("src/a.rs"), String::new()));
    all.insert(b.clone(), (PathBuf::from("src/b.rs"), String::new()));
    let text = "use crate::b::Thing; // crate::a in a comment\nfn f() { super::a::g() }";
    let deps = imports(&a, text, &all);
    assert_eq!(deps, BTreeSet::from([b.clone()]));
    let tested = "fn f() {}\n#[cfg(test)]\nmod tests { use crate::a; }";
    assert_eq!(imports(&b, tested, &all), BTreeSet::new());
    let circle: Graph = BTreeMap::from([
        (a.clone(), BTreeSet::from([b.clone()])),
        (b.clone(), BTreeSet::from([a.clone()])),
    ]);
    assert_eq!(find_circle(&circle).map(|c| c.len()), Some(2));
    let line: Graph = BTreeMap::from([
        (a.clone(), BTreeSet::from([b.clone()])),
        (b, BTreeSet::new()),
    ]);
    assert_eq!(find_circle(&line), None);
}
