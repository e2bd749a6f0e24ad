//! Build script: records the git commit framecheck is built from as
//! `FRAMECHECK_COMMIT`, so every report's manifest can name it. Outside a git
//! checkout (a crates.io download, a tarball) the commit is `unknown`.

use std::path::Path;
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
