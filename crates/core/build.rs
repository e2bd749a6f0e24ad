//! Build script: records the git commit framecheck is built from as
//! `FRAMECHECK_COMMIT`, so every report's manifest can name it. Outside a git
//! checkout (a crates.io download, a tarball) the commit is `unknown`.
//!
//! It also writes `confusables.rs` into `OUT_DIR`: every non-ASCII character
//! whose UTS #39 skeleton (Unicode's `confusables.txt`, through the
//! `unicode-security` crate) is one printable ASCII character, with that
//! character, and the Unicode version of the data. `level` decides which of
//! them a reader of delimiters takes for ASCII; computing the skeleton of
//! every code point costs about a quarter of a second, once per build
//! rather than once per process.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

fn main() {
    write_confusables();
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=FRAMECHECK_COMMIT={commit}");
    // Re-run when HEAD moves: HEAD itself (a checkout) and the branch ref it
    // names (a commit). In a worktree both live outside `.git`.
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
    }
    if let (Some(common), Some(reference)) = (
        git(&["rev-parse", "--git-common-dir"]),
        git(&["symbolic-ref", "-q", "HEAD"]),
    ) {
        // Only files that exist: cargo counts a missing one as changed, so
        // a checkout without `packed-refs` rebuilt every crate on every
        // build. A ref that is packed has no file of its own; the folder a
        // commit would write it to is watched instead. When refs are packed
        // later, the loose ref's file goes, and that is a change.
        let loose = Path::new(&common).join(&reference);
        match loose.parent() {
            _ if loose.exists() => watch(&loose),
            Some(folder) if folder.exists() => watch(folder),
            _ => {}
        }
        let packed = Path::new(&common).join("packed-refs");
        if packed.exists() {
            watch(&packed);
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}

fn watch(path: &Path) {
    println!("cargo:rerun-if-changed={}", path.display());
}

/// Writes `$OUT_DIR/confusables.rs` (see the file's doc comment).
fn write_confusables() {
    let mut table = String::new();
    let mut entries = 0usize;
    let mut buffer = [0; 4];
    for c in (0x80..=0x10_FFFF).filter_map(char::from_u32) {
        let mut skeleton = unicode_security::skeleton(c.encode_utf8(&mut buffer));
        if let (Some(ascii), None) = (skeleton.next(), skeleton.next()) {
            if ascii.is_ascii_graphic() {
                // Writing to a `String` cannot fail.
                let _ = writeln!(table, "    ('\\u{{{:X}}}', {ascii:?}),", c as u32);
                entries += 1;
            }
        }
    }
    let (major, minor, patch) = unicode_security::UNICODE_VERSION;
    let source = format!(
        "/// The Unicode version of the confusables data.\n\
         pub(crate) const UNICODE_VERSION: (u64, u64, u64) = ({major}, {minor}, {patch});\n\
         /// Every non-ASCII character whose UTS #39 skeleton is one printable\n\
         /// ASCII character, with that character, in code point order\n\
         /// ({entries} entries).\n\
         pub(crate) static SKELETONS: &[(char, char)] = &[\n{table}];\n"
    );
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("confusables.rs"), source).expect("OUT_DIR is writable");
}
