//! The Python distribution and the npm package have a name that is ours
//! (issue 34): the PyPI name `framecheck` belongs to an unrelated project
//! that also imports as `framecheck`, so no doc, recipe, script or
//! docstring may tell anyone to install the bare name, and the packaging
//! files agree on the name chosen (`python/README.md`, "Names", says how
//! it was checked).

use std::path::{Path, PathBuf};

use regex::Regex;

/// The name of the Python distribution and of the npm package.
const DISTRIBUTION: &str = "prompt-framecheck";
/// The Python package it installs.
const PACKAGE: &str = "prompt_framecheck";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every text file a user or CI reads instructions from: the docs, the
/// scripts, the packages, the sources with their doc comments and error
/// messages. Not `target/`, the committed reports (generated) or the fuzz
/// and corpus inputs.
fn text_files(dir: &Path, out: &mut Vec<PathBuf>) {
    const SKIP: &[&str] = &[
        "target",
        "reports",
        ".git",
        "corpus",
        "node_modules",
        ".cache",
        "fuzz",
    ];
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if !SKIP.contains(&name.as_str()) {
                text_files(&path, out);
            }
        } else if std::fs::metadata(&path).is_ok_and(|m| m.len() < 4 << 20) {
            out.push(path);
        }
    }
}

#[test]
fn no_file_says_to_install_the_bare_name() {
    // Built from pieces, so this file does not match itself.
    let bare = ["frame", "check"].concat();
    let install = Regex::new(&format!(
        r"(?i)(pip3?|pipx|uv pip|poetry|npm|yarn|pnpm)\s+(install|add)\s+(-\S+\s+)*['`]?{bare}([^-_.A-Za-z0-9]|$)"
    ))
    .unwrap();
    let mut files = Vec::new();
    text_files(&root(), &mut files);
    assert!(files.len() > 100, "found {} files", files.len());
    let mut offenders = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue; // not text
        };
        for found in install.find_iter(&text) {
            offenders.push(format!("{}: {:?}", file.display(), found.as_str()));
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

#[test]
fn the_packaging_files_use_the_chosen_name() {
    let pyproject = std::fs::read_to_string(root().join("python/pyproject.toml")).unwrap();
    assert!(
        pyproject.contains(&format!("name = \"{DISTRIBUTION}\"")),
        "{pyproject}"
    );
    assert!(
        pyproject.contains(&format!("python-packages = [\"{PACKAGE}\"]")),
        "{pyproject}"
    );
    assert!(root()
        .join("python")
        .join(PACKAGE)
        .join("__init__.py")
        .is_file());
    assert!(!root().join("python/framecheck").exists());
    let package: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("node/package.json")).unwrap())
            .unwrap();
    assert_eq!(package["name"], DISTRIBUTION);
    let wheel_glob = format!("wheels/{PACKAGE}-*.whl");
    let install_check = std::fs::read_to_string(root().join(".ci/install-check")).unwrap();
    assert!(install_check.contains(&wheel_glob), "{install_check}");
}
