//! The architecture as a test (ARCHITECTURE.md): every file imports only from its own layer
//! or the layers below it, and no files import each other around a circle.
//!
//! The sources are read as text: `use` declarations and paths written out in the code
//! (`crate::…`, `super::…`, `knights_sat_encodings::…`) name a module, and an item that a
//! module re-exports (`pub use child::item`) is followed to the file that defines it. Comments,
//! string literals and `#[cfg(test)]` modules are left out.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Crate {
    Encodings,
    Library,
    Binary,
}

/// A module: its crate and its path in it (`["driver", "placement"]`).
type Module = (Crate, Vec<String>);

/// A path named in a file, made absolute: `pub` if it is a `pub use`.
struct Named {
    public: bool,
    /// The name a `use` brings into scope (the last segment, or what follows `as`).
    alias: Option<String>,
    krate: Crate,
    segments: Vec<String>,
}

struct File {
    path: String,
    named: Vec<Named>,
}

/// The files whose entry points take any puzzle and ask `family::of` for its family: they sit
/// above the families, beside the command line.
const DISPATCH: [&str; 7] = [
    "src/driver/dispatch.rs",
    "src/export/mod.rs",
    "src/render/text.rs",
    "src/render/json.rs",
    "src/certify/directory.rs",
    "src/certify/solution.rs",
    "src/certify/speculation.rs",
];

/// The layer of a file and its name, lowest first.
fn layer(module: &Module, path: &str) -> (usize, &'static str) {
    let top = module.1.first().map(String::as_str);
    if DISPATCH.contains(&path) {
        return (16, "entry points that dispatch to a family");
    }
    match (module.0, top) {
        (Crate::Encodings, None | Some("names")) => (0, "the encodings crate's root"),
        (Crate::Encodings, Some("geometry")) => (1, "geometry"),
        (Crate::Encodings, Some("puzzle")) => (2, "puzzle"),
        (Crate::Encodings, Some("check")) => (3, "check"),
        (Crate::Encodings, Some("encode" | "linear" | "ground_truth")) => (4, "encode, linear, ground_truth"),
        (Crate::Library, None) => (10, "the library's root"),
        (Crate::Library, Some("solver")) => (11, "solver"),
        (Crate::Library, Some("driver")) => (12, "driver"),
        (Crate::Library, Some("render" | "certify" | "export")) => (13, "render, certify, export"),
        (Crate::Library, Some("family")) => (14, "family"),
        (Crate::Library, Some("cubes")) => (16, "cube-and-conquer job directories"),
        (Crate::Binary, _) => (17, "the command line"),
        (krate, top) => panic!("{path}: no layer for the module {top:?} of {krate:?}; add it to tests/layers.rs"),
    }
}

#[test]
fn every_import_points_down_a_layer_or_stays_in_its_own() {
    let tree = read_tree();
    let edges = imports(&tree);
    let mut upward = Vec::new();
    for (from, targets) in &edges {
        let (from_layer, from_name) = layer(from, &tree[from].path);
        for to in targets {
            let (to_layer, to_name) = layer(to, &tree[to].path);
            if to_layer > from_layer {
                upward.push(format!("{} ({from_name}) imports {} ({to_name})", tree[from].path, tree[to].path));
            }
        }
    }
    assert!(upward.is_empty(), "imports that point up a layer:\n{}", upward.join("\n"));
    assert!(edges.values().map(Vec::len).sum::<usize>() > 300, "the imports were not read");
}

#[test]
fn no_files_import_each_other_around_a_circle() {
    let tree = read_tree();
    let edges = imports(&tree);
    // Depth-first search; a back edge closes a circle.
    let mut state: BTreeMap<&Module, u8> = BTreeMap::new();
    let mut circles = Vec::new();
    for start in tree.keys() {
        let mut stack: Vec<(&Module, usize)> = Vec::new();
        if state.contains_key(start) {
            continue;
        }
        state.insert(start, 1);
        stack.push((start, 0));
        while let Some((module, next)) = stack.pop() {
            let targets = &edges[module];
            if next == targets.len() {
                state.insert(module, 2);
                continue;
            }
            stack.push((module, next + 1));
            let target = &targets[next];
            match state.get(target) {
                None => {
                    state.insert(target, 1);
                    stack.push((target, 0));
                }
                Some(1) => {
                    let from = stack.iter().position(|(m, _)| *m == target).expect("on the stack");
                    let names: Vec<&str> = stack[from..].iter().map(|(m, _)| tree[*m].path.as_str()).collect();
                    circles.push(format!("{} -> {}", names.join(" -> "), tree[target].path));
                }
                Some(_) => {}
            }
        }
    }
    assert!(circles.is_empty(), "files that import each other:\n{}", circles.join("\n"));
}

/// Every source file of the two crates, by module.
fn read_tree() -> BTreeMap<Module, File> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut tree = BTreeMap::new();
    let mut sources = Vec::new();
    walk(&root.join("src"), &mut sources);
    walk(&root.join("encodings/src"), &mut sources);
    let mut texts = Vec::new();
    for path in sources {
        let relative = path.strip_prefix(root).expect("below the root").to_string_lossy().replace('\\', "/");
        let (krate, inside) = if let Some(rest) = relative.strip_prefix("encodings/src/") {
            (Crate::Encodings, rest.to_string())
        } else {
            let rest = relative.strip_prefix("src/").expect("under src/").to_string();
            let binary = rest == "main.rs" || rest.starts_with("cli/");
            (if binary { Crate::Binary } else { Crate::Library }, rest)
        };
        let mut segments: Vec<String> = inside.trim_end_matches(".rs").split('/').map(str::to_string).collect();
        if matches!(segments.last().map(String::as_str), Some("mod" | "lib" | "main")) {
            segments.pop();
        }
        if segments.first().is_some_and(|s| s == "bin") {
            continue;
        }
        let text = code_only(&fs::read_to_string(&path).expect("a source file reads"));
        texts.push(((krate, segments), relative, text));
    }
    let known: Vec<Module> = texts.iter().map(|(m, _, _)| m.clone()).collect();
    for (module, path, text) in texts {
        let named = named_paths(&module, &text, &known);
        tree.insert(module, File { path, named });
    }
    tree
}

fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> =
        fs::read_dir(dir).expect("a source folder reads").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without comments, string contents and its `#[cfg(test)]` modules.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !is_ident(chars.get(i.wrapping_sub(1))) {
            // A raw string: r"…" or r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            while j < chars.len() && !(chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#'))) {
                j += 1;
            }
            out.push_str("\"\"");
            i = j + 1 + hashes;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i += 1;
        } else if c == '\'' && next == Some('\\') {
            i += 2;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            i += 3;
        } else {
            out.push(c);
            i += 1;
        }
    }
    match out.find("#[cfg(test)]") {
        Some(at) => out[..at].to_string(),
        None => out,
    }
}

fn is_ident(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

/// The paths a file names: in `use` declarations (braces expanded) and written out in code.
fn named_paths(module: &Module, text: &str, known: &[Module]) -> Vec<Named> {
    let mut named = Vec::new();
    let mut code = String::new();
    let mut rest = text;
    while let Some(at) = find_word(rest, "use") {
        let end = rest[at..].find(';').map_or(rest.len(), |e| at + e);
        let before = rest[..at].trim_end();
        let public = before.ends_with("pub")
            || (before.ends_with(')') && before.rfind("pub(").is_some_and(|p| !before[p..].contains('\n')));
        code.push_str(&rest[..at]);
        // `x as y` keeps its meaning once the spaces are gone as `x@y`.
        let tree: String = rest[at + 3..end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .replace(" as ", "@")
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        for (path, alias) in expand(&tree) {
            if let Some((krate, segments)) = absolute(module, &path, known) {
                named.push(Named { public, alias: Some(alias), krate, segments });
            }
        }
        rest = &rest[(end + 1).min(rest.len())..];
    }
    code.push_str(rest);
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "knights_sat_encodings::", "knights_sat::"] {
        let mut from = 0;
        while let Some(found) = code[from..].find(start) {
            let at = from + found;
            from = at + start.len();
            let before = at.checked_sub(1).map(|i| bytes[i] as char);
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':' || c == '$') {
                continue;
            }
            let path: String =
                code[at..].chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
            let path = path.trim_end_matches(':').to_string();
            if let Some((krate, segments)) = absolute(module, &path, known) {
                named.push(Named { public: false, alias: None, krate, segments });
            }
        }
    }
    named
}

/// The next `word` standing alone as a keyword at the start of a declaration.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(found) = text[from..].find(word) {
        let at = from + found;
        from = at + word.len();
        let before_ok = at == 0 || matches!(bytes[at - 1], b' ' | b'\n' | b'\t' | b';' | b'{' | b'}' | b')');
        let after_ok = bytes.get(at + word.len()).is_some_and(|b| b.is_ascii_whitespace());
        if before_ok && after_ok {
            return Some(at);
        }
    }
    None
}

/// `a::{b,c::{d@e}}` (`d as e` written `d@e`) as `(a::b, b)` and `(a::c::d, e)`.
fn expand(tree: &str) -> Vec<(String, String)> {
    let Some(open) = tree.find('{') else {
        let (path, alias) = match tree.split_once('@') {
            Some((path, alias)) => (path.to_string(), alias.to_string()),
            None => (tree.to_string(), tree.rsplit("::").next().unwrap_or(tree).to_string()),
        };
        return vec![(path, alias)];
    };
    let prefix = &tree[..open];
    let mut depth = 0;
    let mut close = tree.len();
    for (i, c) in tree.char_indices().skip(open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    close = i;
                    break;
                }
            }
            _ => {}
        }
    }
    let mut items = Vec::new();
    let mut item = String::new();
    depth = 0;
    for c in tree[open + 1..close].chars() {
        match c {
            ',' if depth == 0 => items.push(std::mem::take(&mut item)),
            _ => {
                depth += (c == '{') as i32 - (c == '}') as i32;
                item.push(c);
            }
        }
    }
    items.push(item);
    let mut out = Vec::new();
    for item in items.into_iter().filter(|i| !i.is_empty()) {
        if item == "self" {
            let path = prefix.trim_end_matches("::").to_string();
            let alias = path.rsplit("::").next().unwrap_or("").to_string();
            out.push((path, alias));
        } else {
            out.extend(expand(&item).into_iter().map(|(path, alias)| (format!("{prefix}{path}"), alias)));
        }
    }
    out
}

/// A path as seen from `module`, made absolute; `None` for other crates' paths.
fn absolute(module: &Module, path: &str, known: &[Module]) -> Option<(Crate, Vec<String>)> {
    let mut segments: Vec<String> = path.split("::").filter(|s| !s.is_empty()).map(str::to_string).collect();
    let first = segments.first()?.clone();
    let (krate, mut base) = match first.as_str() {
        "crate" => (module.0, Vec::new()),
        "knights_sat_encodings" => (Crate::Encodings, Vec::new()),
        "knights_sat" => (Crate::Library, Vec::new()),
        "super" | "self" => {
            let mut base = module.1.clone();
            while let Some(step) = segments.first().filter(|s| *s == "super" || *s == "self") {
                if step == "super" {
                    base.pop();
                }
                segments.remove(0);
            }
            return Some((module.0, [base, segments].concat()));
        }
        _ => {
            // A child module of this one, or another crate.
            let child = [module.1.clone(), vec![first.clone()]].concat();
            if known.contains(&(module.0, child)) {
                return Some((module.0, [module.1.clone(), segments].concat()));
            }
            return None;
        }
    };
    segments.remove(0);
    base.extend(segments);
    Some((krate, base))
}

/// The file an absolute path leads to: its deepest module, then through re-exports to where
/// the item is defined.
fn resolve(tree: &BTreeMap<Module, File>, krate: Crate, segments: &[String], depth: usize) -> Option<Module> {
    for cut in (0..=segments.len()).rev() {
        let module = (krate, segments[..cut].to_vec());
        let Some(file) = tree.get(&module) else { continue };
        if let (Some(item), true) = (segments.get(cut), depth < 16) {
            let export = file.named.iter().find(|n| n.public && n.alias.as_deref() == Some(item.as_str()));
            if let Some(export) = export {
                return resolve(tree, export.krate, &export.segments, depth + 1);
            }
        }
        return Some(module);
    }
    None
}

/// Each file's imports: the files it takes items from (a module's re-exports of its own
/// children are not imports).
fn imports(tree: &BTreeMap<Module, File>) -> BTreeMap<Module, Vec<Module>> {
    let mut edges = BTreeMap::new();
    for (module, file) in tree {
        let mut targets = Vec::new();
        for named in &file.named {
            let below = named.krate == module.0 && named.segments.starts_with(&module.1);
            if named.public && below {
                continue;
            }
            if let Some(target) = resolve(tree, named.krate, &named.segments, 0) {
                if &target != module && !targets.contains(&target) {
                    targets.push(target);
                }
            }
        }
        edges.insert(module.clone(), targets);
    }
    edges
}
