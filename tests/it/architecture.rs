//! The architecture's rules, checked on the source: the crates' dependency
//! direction (which the compiler enforces once the manifests are right, so
//! the manifests are what is checked), clap and friends only in the CLI,
//! and the order of the modules inside every library crate, where one crate
//! cannot stop a module from importing one above it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// framecheck-core's modules in the one direction data flows in: each may
/// use only modules before it (README, "How it works").
const CORE_ORDER: &[&str] = &[
    "level",
    "reader",
    "records",
    "chat_template",
    "yaml",
    "files",
    "target",
    "pyliteral",
    "grammar",
    "encoding",
    "profile",
    "manifest",
    "catalogue",
    "layout",
    "tokview",
    "oracle",
    "gate",
    "outcome",
    "nonce",
];

/// The catalogue's own modules: templates are read first, a case's site
/// from them, then the model, the variants, loading and instantiating.
const CATALOGUE_ORDER: &[&str] = &[
    "error",
    "template",
    "site",
    "nonce",
    "model",
    "variant",
    "load",
    "instantiate",
    "ids",
];

/// framecheck-envelope: the fold table, the scanners over it, the control
/// strings, the vectorised pass, then the nonce, reading, the built-in
/// profiles and the `Framing` impl.
const ENVELOPE_ORDER: &[&str] = &[
    "fold_table",
    "scan",
    "control",
    "ascii_pass",
    "nonce",
    "read",
    "profile",
    "reference",
];

/// framecheck-report: escapers and the page, what a run's findings are
/// (weaknesses, counts, summary), the baseline comparison, then the
/// formats, the matrix over formats, `verify` and writing.
const REPORT_ORDER: &[&str] = &[
    "escape", "page", "views", "spelling", "outputs", "weakness", "count", "summary", "redact",
    "baseline", "markdown", "json", "junit", "sarif", "html", "matrix", "verify", "write",
];

/// framecheck-launch: the languages a command is told to be in, the
/// adapter section's types (each kind saying its language) and their
/// reading, then the manifest parts that read them.
const LAUNCH_ORDER: &[&str] = &["language", "spec", "manifest"];

/// framecheck-run: adapters, the nonce probes the runner runs, the runner,
/// then what drives runs (`init`, `search`, the fuzz bodies).
const RUN_ORDER: &[&str] = &[
    "adapter",
    "nonce_probe",
    "runner",
    "init",
    "search",
    "fuzzing",
];

/// The runner's own modules: the plain plants, the faults, the answer
/// shapes, the unmarked and varying checks, the fit they make up, and the
/// document run that checks fit first.
const RUNNER_ORDER: &[&str] = &[
    "plain", "faults", "parts", "segments", "several", "unmarked", "varying", "fit", "document",
];

/// One library crate's ordered modules: its source directory, the modules
/// whose children are ordered (`""` is the crate root) with that order, and
/// the directories that are not its modules (`src/bin`: binaries).
struct Layers {
    src: &'static str,
    orders: &'static [(&'static str, &'static [&'static str])],
    not_modules: &'static [&'static str],
}

const CRATES: &[Layers] = &[
    Layers {
        src: "crates/core/src",
        orders: &[("", CORE_ORDER), ("catalogue", CATALOGUE_ORDER)],
        not_modules: &[],
    },
    Layers {
        src: "crates/envelope/src",
        orders: &[("", ENVELOPE_ORDER)],
        not_modules: &[],
    },
    Layers {
        src: "crates/launch/src",
        orders: &[("", LAUNCH_ORDER)],
        not_modules: &[],
    },
    Layers {
        src: "crates/report/src",
        orders: &[("", REPORT_ORDER)],
        not_modules: &[],
    },
    Layers {
        src: "crates/run/src",
        orders: &[("", RUN_ORDER), ("runner", RUNNER_ORDER)],
        not_modules: &["bin"],
    },
];

/// Every module path `code` names through `crate::` or `super::`, resolved
/// from `own` (the module the file is), including every item of
/// `{a, b::{c, d}}` groups spread over several lines. Comment lines are
/// skipped, and `super::` is read only above the file's first
/// `#[cfg(test)]`: inside an inline test module it means the file's module.
fn used_paths(code: &str, own: &[String]) -> BTreeSet<Vec<String>> {
    let code: String = code
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let above_tests = code.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        path_items(rest, &mut Vec::new(), &mut found);
    }
    for (at, _) in above_tests.match_indices("super::") {
        // The first `super::` of a chain starts it; the others are read here.
        if above_tests[..at].ends_with("super::") {
            continue;
        }
        let mut rest = &above_tests[at + "super::".len()..];
        let mut up = 1;
        while let Some(more) = rest.strip_prefix("super::") {
            rest = more;
            up += 1;
        }
        let mut base = own[..own.len().saturating_sub(up)].to_vec();
        path_items(rest, &mut base, &mut found);
    }
    found
}

/// Reads `a::b::{c, d::e}` at the start of `text` after `prefix`, adding
/// every full path it names to `found`; returns how far it read.
fn path_items(text: &str, prefix: &mut Vec<String>, found: &mut BTreeSet<Vec<String>>) -> usize {
    let depth = prefix.len();
    let mut at = 0;
    loop {
        let rest = &text[at..];
        let skipped = rest.len() - rest.trim_start().len();
        at += skipped;
        let rest = &text[at..];
        if let Some(group) = rest.strip_prefix('{') {
            at += 1 + group_items(group, prefix, found);
            break;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            break;
        }
        at += name.len();
        if name == "self" {
            found.insert(prefix.clone());
        } else {
            prefix.push(name);
        }
        match text[at..].strip_prefix("::") {
            Some(_) => at += 2,
            None => break,
        }
    }
    if prefix.len() > depth {
        found.insert(prefix.clone());
    }
    prefix.truncate(depth);
    at
}

/// The items of a `{...}` group (`group` starts after its `{`), each read
/// by [`path_items`] after `prefix`; returns how far it read, past `}`.
fn group_items(group: &str, prefix: &mut Vec<String>, found: &mut BTreeSet<Vec<String>>) -> usize {
    let mut at = 0;
    loop {
        at += path_items(&group[at..], prefix, found);
        let rest = &group[at..];
        let skipped = rest.len() - rest.trim_start().len();
        at += skipped;
        match group[at..].chars().next() {
            Some(',') => at += 1,
            Some('}') => return at + 1,
            // `*`, `as` renames and anything else end the item: skip to
            // the next comma or the group's end.
            Some(_) => at += group[at..].find([',', '}']).unwrap_or(group.len() - at),
            None => return at,
        }
    }
}

/// The module a source file is, as its path from the crate root.
fn module_of(rel: &Path) -> Vec<String> {
    let mut own: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(own.last().map(String::as_str), Some("mod" | "lib")) {
        own.pop();
    }
    own
}

/// Every import in one crate against its orders, as
/// `file: parent: module -> used`. Where a module and a path it uses part,
/// under a parent with an order, the used one must come first; a name the
/// order does not hold is an item of the parent (`super::guarded`), not a
/// module, and is not ranked. A module missing from its parent's order
/// fails the test.
fn violations(src: &Path, layers: &Layers) -> Vec<String> {
    let order = |parent: &[String]| {
        let key = parent.join("/");
        layers
            .orders
            .iter()
            .find(|(p, _)| *p == key)
            .map(|(_, o)| *o)
    };
    let mut found = Vec::new();
    for file in crate::common::rust_files(src) {
        let rel = file.strip_prefix(src).unwrap();
        let own = module_of(rel);
        if own
            .first()
            .is_some_and(|m| layers.not_modules.contains(&m.as_str()))
        {
            continue;
        }
        for depth in 0..own.len() {
            if let Some(order) = order(&own[..depth]) {
                assert!(
                    order.contains(&own[depth].as_str()),
                    "{}: {} is not in the order of {}",
                    layers.src,
                    own[depth],
                    own[..depth].join("/")
                );
            }
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for used in used_paths(&text, &own) {
            let split = own.iter().zip(&used).take_while(|(a, b)| a == b).count();
            if split >= own.len() || split >= used.len() {
                continue; // its own module, a module inside it, or one around it
            }
            let Some(order) = order(&own[..split]) else {
                continue;
            };
            let rank = |m: &str| order.iter().position(|n| *n == m);
            if let (Some(mine), Some(theirs)) = (rank(&own[split]), rank(&used[split])) {
                if theirs > mine {
                    found.push(format!(
                        "{}/{}: {} -> {}",
                        layers.src,
                        rel.display(),
                        own[split],
                        used[split]
                    ));
                }
            }
        }
    }
    found.sort();
    found
}

#[test]
fn every_crate_s_modules_import_only_down_the_flow() {
    let repo = crate::common::repo();
    let found: Vec<String> = CRATES
        .iter()
        .flat_map(|layers| violations(&repo.join(layers.src), layers))
        .collect();
    assert_eq!(found, Vec::<String>::new());
}

/// Which child module imports which, under each parent module of the
/// crate at `src`: parent -> child -> the siblings it uses. A name that is
/// no file or directory under the parent is an item of it, not a module.
type Siblings = BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>>;

fn sibling_imports(src: &Path, layers: &Layers) -> Siblings {
    let mut found = Siblings::new();
    for file in crate::common::rust_files(src) {
        let rel = file.strip_prefix(src).unwrap();
        let own = module_of(rel);
        if own
            .first()
            .is_some_and(|m| layers.not_modules.contains(&m.as_str()))
        {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for used in used_paths(&text, &own) {
            let split = own.iter().zip(&used).take_while(|(a, b)| a == b).count();
            if split >= own.len() || split >= used.len() {
                continue;
            }
            let dir = src.join(own[..split].join("/"));
            let name = &used[split];
            if !dir.join(format!("{name}.rs")).is_file() && !dir.join(name).is_dir() {
                continue;
            }
            (found.entry(own[..split].to_vec()).or_default())
                .entry(own[split].clone())
                .or_default()
                .insert(name.clone());
        }
    }
    found
}

/// The circles among one parent's children, each as `a -> b -> a` from its
/// least name, found by walking every import path from every child.
fn circles(imports: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<String> {
    fn walk(
        imports: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        found: &mut BTreeSet<String>,
    ) {
        let last = path.last().unwrap().clone();
        for next in imports.get(&last).into_iter().flatten() {
            if *next == path[0] {
                // Reported once, from the circle's least module.
                if path.iter().all(|m| *m >= path[0]) {
                    found.insert(format!("{} -> {next}", path.join(" -> ")));
                }
            } else if !path.contains(next) {
                path.push(next.clone());
                walk(imports, path, found);
                path.pop();
            }
        }
    }
    let mut found = BTreeSet::new();
    for start in imports.keys() {
        walk(imports, &mut vec![start.clone()], &mut found);
    }
    found
}

/// No two modules of a library crate need each other, through any path,
/// under every parent module, including those with no declared order (an
/// order rules a circle out only among the modules it ranks).
#[test]
fn no_crate_s_modules_import_each_other_in_a_circle() {
    let repo = crate::common::repo();
    let mut found = Vec::new();
    for layers in CRATES {
        for (parent, imports) in sibling_imports(&repo.join(layers.src), layers) {
            for circle in circles(&imports) {
                found.push(format!("{}: {}: {circle}", layers.src, parent.join("/")));
            }
        }
    }
    assert_eq!(found, Vec::<String>::new());
}

/// The circle check itself: a circle of two and one of three are found,
/// each once; imports one way, and an item of the parent, are not.
#[test]
fn a_circle_of_imports_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("p")).unwrap();
    let files = [
        (
            "lib.rs",
            "pub mod a; pub mod b; pub mod p; pub fn item() {}",
        ),
        ("a.rs", "use crate::b::X; use crate::item;"),
        ("b.rs", "use crate::{a::Y, p};"),
        ("p.rs", "mod x; mod y; mod z;"),
        ("p/x.rs", "use super::y::Y;"),
        ("p/y.rs", "use super::z::Z;"),
        ("p/z.rs", "use super::x::X;"),
    ];
    for (file, text) in files {
        std::fs::write(src.join(file), text).unwrap();
    }
    let layers = Layers {
        src: "src",
        orders: &[],
        not_modules: &[],
    };
    let found: Vec<String> = sibling_imports(&src, &layers)
        .values()
        .flat_map(circles)
        .collect();
    assert_eq!(found, ["a -> b -> a", "x -> y -> z -> x"]);
}

fn paths(code: &str, own: &[&str]) -> BTreeSet<String> {
    let own: Vec<String> = own.iter().map(|s| s.to_string()).collect();
    used_paths(code, &own)
        .into_iter()
        .map(|p| p.join("::"))
        .collect()
}

#[test]
fn the_import_reader_sees_grouped_nested_and_relative_imports() {
    let found = paths(
        "use crate::{oracle::{self, Check}, level::ReaderLevel};",
        &["x"],
    );
    assert_eq!(
        found,
        BTreeSet::from([
            "level::ReaderLevel".to_string(),
            "oracle".to_string(),
            "oracle::Check".to_string()
        ])
    );
    assert_eq!(
        paths("let x = crate::report::write(&y);", &["x"]),
        BTreeSet::from(["report::write".to_string()])
    );
    assert!(paths("//! see crate::report", &["x"]).is_empty());
    let multi_line = "use crate::{\n    gate::Gate,\n    oracle::{self, Finding},\n};";
    assert_eq!(
        paths(multi_line, &["x"]),
        BTreeSet::from([
            "gate::Gate".to_string(),
            "oracle".to_string(),
            "oracle::Finding".to_string()
        ])
    );
    // `super::` is the parent module; a chain climbs once per link.
    assert_eq!(
        paths(
            "use super::{fit::Misfit, plain::PLAIN};",
            &["runner", "unmarked"]
        ),
        BTreeSet::from([
            "runner::fit::Misfit".to_string(),
            "runner::plain::PLAIN".to_string()
        ])
    );
    assert_eq!(
        paths("let f = super::super::wrap(x);", &["a", "b"]),
        BTreeSet::from(["wrap".to_string()])
    );
    // Below the first `#[cfg(test)]`, `super` is the file's own module.
    assert!(paths("#[cfg(test)]\nmod tests { use super::*; }", &["a"]).is_empty());
}

/// The order check itself: an import up the order is found, one down it is
/// not, and neither is an item of the parent that no order ranks.
#[test]
fn an_import_against_the_order_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("runner")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod low; pub mod runner;").unwrap();
    std::fs::write(src.join("low.rs"), "use crate::runner::guarded;").unwrap();
    std::fs::write(src.join("runner.rs"), "mod a; mod b; use crate::low::X;").unwrap();
    std::fs::write(
        src.join("runner/a.rs"),
        "use super::b::Y; use super::guarded;",
    )
    .unwrap();
    std::fs::write(src.join("runner/b.rs"), "use super::a::Z;").unwrap();
    const TOP: &[&str] = &["low", "runner"];
    const RUNNER: &[&str] = &["a", "b"];
    let layers = Layers {
        src: "src",
        orders: &[("", TOP), ("runner", RUNNER)],
        not_modules: &[],
    };
    let found: Vec<String> = violations(&src, &layers)
        .iter()
        .map(|v| v.rsplit_once(": ").unwrap().1.to_string())
        .collect();
    assert_eq!(found, ["low -> runner", "a -> b"]);
}

/// The crate names a manifest's library is built with (`[dependencies]` and
/// `[build-dependencies]`). Dev-dependencies never reach the library; they
/// are [`dev_dependencies`].
fn dependencies(manifest: &str) -> BTreeSet<String> {
    names_in(manifest, &["[dependencies]", "[build-dependencies]"])
}

/// The crate names a manifest's tests, examples and benchmarks are built
/// with.
fn dev_dependencies(manifest: &str) -> BTreeSet<String> {
    names_in(manifest, &["[dev-dependencies]"])
}

/// The crate names listed in the manifest's `sections`.
fn names_in(manifest: &str, sections: &[&str]) -> BTreeSet<String> {
    let text = std::fs::read_to_string(crate::common::repo().join(manifest)).unwrap();
    let mut names = BTreeSet::new();
    let mut in_deps = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = sections.contains(&line);
            continue;
        }
        if in_deps {
            if let Some((name, _)) = line.split_once('=') {
                let name = name.trim().trim_end_matches(".workspace").to_string();
                if !name.is_empty() && !name.starts_with('#') {
                    names.insert(name);
                }
            }
        }
    }
    names
}

#[test]
fn the_crates_depend_only_down_the_flow() {
    let core = dependencies("crates/core/Cargo.toml");
    let envelope = dependencies("crates/envelope/Cargo.toml");
    let run = dependencies("crates/run/Cargo.toml");
    let report = dependencies("crates/report/Cargo.toml");
    let launch = dependencies("crates/launch/Cargo.toml");
    for ours in [
        "framecheck",
        "framecheck-envelope",
        "framecheck-launch",
        "framecheck-report",
        "framecheck-run",
    ] {
        assert!(!core.contains(ours), "framecheck-core depends on {ours}");
    }
    // The launch configuration sits on core alone, below everything that
    // names a whole target (the envelope, the reports, the run crate).
    assert_eq!(
        launch
            .iter()
            .filter(|d| d.starts_with("framecheck"))
            .collect::<Vec<_>>(),
        ["framecheck-core"]
    );
    // The reports are written from a finished run: they name no adapter,
    // runner or envelope, and nothing but the command line writes them.
    for ours in ["framecheck", "framecheck-envelope", "framecheck-run"] {
        assert!(
            !report.contains(ours),
            "framecheck-report depends on {ours}"
        );
    }
    for (name, deps) in [("framecheck-envelope", &envelope), ("framecheck-run", &run)] {
        assert!(
            !deps.contains("framecheck-report"),
            "{name} depends on framecheck-report"
        );
    }
    assert!(report.contains("framecheck-core"));
    // The report crate took these out of the core; they stay out.
    for moved in ["libc", "quick-junit"] {
        assert!(!core.contains(moved), "framecheck-core depends on {moved}");
    }
    for ours in ["framecheck", "framecheck-run"] {
        assert!(
            !envelope.contains(ours),
            "framecheck-envelope depends on {ours}"
        );
    }
    assert!(
        !run.contains("framecheck"),
        "framecheck-run depends on framecheck"
    );
    assert!(run.contains("framecheck-core") && envelope.contains("framecheck-core"));
}

/// Each crate carries its own tests: testing a library crate builds
/// nothing above it, so no library crate dev-depends on the root crate (its
/// doc examples name the crate itself and the ones below it).
#[test]
fn no_library_crate_dev_depends_on_the_root_crate() {
    // Each crate and what is above it, which its tests must not build.
    let above: [(&str, &[&str]); 5] = [
        (
            "crates/core/Cargo.toml",
            &[
                "framecheck",
                "framecheck-envelope",
                "framecheck-launch",
                "framecheck-report",
                "framecheck-run",
            ],
        ),
        (
            "crates/launch/Cargo.toml",
            &[
                "framecheck",
                "framecheck-envelope",
                "framecheck-report",
                "framecheck-run",
            ],
        ),
        (
            "crates/envelope/Cargo.toml",
            &["framecheck", "framecheck-report", "framecheck-run"],
        ),
        (
            "crates/report/Cargo.toml",
            &["framecheck", "framecheck-run"],
        ),
        (
            "crates/run/Cargo.toml",
            &["framecheck", "framecheck-report"],
        ),
    ];
    for (manifest, above) in above {
        let dev = dev_dependencies(manifest);
        // The section was read: a crate's tests that need more than its
        // dependencies use one of these (the launch crate's need none).
        let text = std::fs::read_to_string(crate::common::repo().join(manifest)).unwrap();
        assert!(
            !text.contains("[dev-dependencies]")
                || ["proptest", "framecheck-envelope", "serde-saphyr"]
                    .iter()
                    .any(|d| dev.contains(*d)),
            "{manifest}: {dev:?}"
        );
        for name in above {
            assert!(!dev.contains(*name), "{manifest} dev-depends on {name}");
        }
    }
}

#[test]
fn the_command_line_crates_are_the_cli_s_alone() {
    for manifest in [
        "crates/core/Cargo.toml",
        "crates/envelope/Cargo.toml",
        "crates/launch/Cargo.toml",
        "crates/report/Cargo.toml",
        "crates/run/Cargo.toml",
    ] {
        let deps = dependencies(manifest);
        for cli in ["clap", "indicatif", "ctrlc"] {
            assert!(!deps.contains(cli), "{manifest} depends on {cli}");
        }
    }
    assert!(dependencies("Cargo.toml").contains("clap"));
}

/// The MCP client (an async SDK and its runtime, its HTTP client and the
/// test server's HTTP stack) and the fixture's HTTP server belong to the
/// MCP adapter in framecheck-run; the model, the envelope and the CLI stay
/// synchronous and free of them.
#[test]
fn the_mcp_stack_is_the_run_crate_s_alone() {
    for manifest in [
        "crates/core/Cargo.toml",
        "crates/envelope/Cargo.toml",
        "crates/launch/Cargo.toml",
        "crates/report/Cargo.toml",
        "Cargo.toml",
    ] {
        let deps = dependencies(manifest);
        for crate_name in [
            "rmcp",
            "tokio",
            "tiny_http",
            "reqwest",
            "hyper",
            "hyper-util",
        ] {
            assert!(
                !deps.contains(crate_name),
                "{manifest} depends on {crate_name}"
            );
        }
    }
    let run = dependencies("crates/run/Cargo.toml");
    assert!(run.contains("rmcp") && run.contains("tokio") && run.contains("tiny_http"));
}

/// The MCP test server is a crate of its own, never published: the SDK's
/// server side and the HTTP stack that serves it are its dependencies, not
/// the run library's, which speaks MCP as a client only.
#[test]
fn the_mcp_server_side_is_the_test_server_s_alone() {
    let run = dependencies("crates/run/Cargo.toml");
    for server_side in ["hyper", "hyper-util"] {
        assert!(
            !run.contains(server_side),
            "framecheck-run depends on {server_side}"
        );
    }
    let manifest = |path: &str| std::fs::read_to_string(crate::common::repo().join(path)).unwrap();
    let run_rmcp = manifest("crates/run/Cargo.toml")
        .lines()
        .find(|l| l.starts_with("rmcp"))
        .unwrap()
        .to_string();
    assert!(run_rmcp.contains("\"client\""), "{run_rmcp}");
    for feature in ["\"server\"", "transport-io", "-server\""] {
        assert!(
            !run_rmcp.contains(feature),
            "framecheck-run's rmcp has {feature}: {run_rmcp}"
        );
    }
    let server = dependencies("crates/mcp-test-server/Cargo.toml");
    assert!(server.contains("rmcp") && server.contains("hyper"));
    assert!(manifest("crates/mcp-test-server/Cargo.toml").contains("\npublish = false\n"));
    assert!(!crate::common::repo().join("crates/run/src/bin").exists());
}

/// The launch configuration's types, which only the launch crate defines
/// and core never names: core carries a target's `adapter:` section as a
/// type parameter ([`framecheck::profile::Launch`]) and knows the frame
/// description alone.
const LAUNCH_TYPES: &[&str] = &[
    "AdapterSpec",
    "AdapterError",
    "BuiltinSpec",
    "BuiltinTarget",
    "McpSpec",
    "ProcessKey",
    "ProcessMode",
    "SetupCommand",
    "SetupInput",
    "SubprocessSpec",
    "ToolCall",
    "WriteTool",
    "IdFrom",
    "Plant::",
    "Clean::",
    "TargetKind",
];

/// Where `code` names one of [`LAUNCH_TYPES`] as a whole word (comments
/// included: a doc link names the type too).
fn launch_types_named(code: &str) -> Vec<&'static str> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    LAUNCH_TYPES
        .iter()
        .copied()
        .filter(|name| {
            code.match_indices(name).any(|(at, _)| {
                let before = code[..at].chars().next_back();
                let after = code[at + name.len()..].chars().next();
                // A name ending in `::` is followed by a variant.
                let whole = !after.is_some_and(word) || name.ends_with(':');
                !before.is_some_and(word) && whole
            })
        })
        .collect()
}

#[test]
fn core_names_no_launch_type() {
    let repo = crate::common::repo();
    let mut found = Vec::new();
    for dir in ["crates/core/src", "crates/core/tests"] {
        for file in crate::common::rust_files(&repo.join(dir)) {
            let text = std::fs::read_to_string(&file).unwrap();
            for name in launch_types_named(&text) {
                found.push(format!("{}: {name}", file.display()));
            }
        }
    }
    assert_eq!(found, Vec::<String>::new());
    // The launch crate defines them, so the check reads what it looks for.
    let spec = crate::common::rust_files(&repo.join("crates/launch/src/spec"))
        .into_iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect::<Vec<_>>()
        .concat();
    assert_eq!(launch_types_named(&spec), LAUNCH_TYPES);
}

/// The variants of `pub enum NAME` in `code`, as written.
fn enum_variants(code: &str, name: &str) -> Vec<String> {
    let start = code
        .find(&format!("pub enum {name} {{"))
        .unwrap_or_else(|| panic!("no enum {name}"));
    let body = &code[start..];
    let body = &body[..body.find("\n}").expect("the enum ends")];
    body.lines()
        .skip(1)
        .filter(|line| line.starts_with("    ") && !line.starts_with("     "))
        .map(str::trim)
        .filter(|line| line.starts_with(|c: char| c.is_ascii_uppercase()))
        .map(|line| {
            let end = line
                .find(|c: char| !c.is_ascii_alphanumeric())
                .unwrap_or(line.len());
            line[..end].to_string()
        })
        .collect()
}

/// What names an adapter's field or rule (issue 53): each field's and
/// rule's variant in the launch crate, and each field's path as messages
/// spell it (`adapter.mcp.url`). Read from the launch crate, so a field or
/// rule added there is forbidden in core at once.
fn adapter_names() -> Vec<String> {
    use framecheck_launch::profile::AdapterField;
    let repo = crate::common::repo();
    let invalid = std::fs::read_to_string(repo.join("crates/launch/src/spec/invalid.rs")).unwrap();
    let fields = enum_variants(&invalid, "AdapterField");
    assert_eq!(fields.len(), AdapterField::ALL.len(), "{fields:?}");
    let rules = enum_variants(&invalid, "AdapterRule");
    // The enum was read to its end: its first and last rules are there.
    assert!(
        rules.first().is_some_and(|r| r == "EmptyCommand")
            && rules.last().is_some_and(|r| r == "McpIdNotPicked"),
        "{rules:?}"
    );
    let paths = AdapterField::ALL.map(|f| f.path().to_string());
    fields.into_iter().chain(rules).chain(paths).collect()
}

/// Where `code` names one of `names` as a whole word (a path such as
/// `adapter.mcp.url` included; `adapter.mcp.url_at` is another word).
fn adapter_names_in<'a>(code: &str, names: &'a [String]) -> Vec<&'a str> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    names
        .iter()
        .filter(|name| {
            code.match_indices(name.as_str()).any(|(at, _)| {
                let before = code[..at].chars().next_back();
                let after = code[at + name.len()..].chars().next();
                !before.is_some_and(word) && !after.is_some_and(word)
            })
        })
        .map(String::as_str)
        .collect()
}

/// Core carries the adapter's error and never looks inside: its source
/// (comments and tests included) names no field or rule of the adapter's,
/// so adding a target kind touches no file of core's. Seen failing with
/// `Field::McpUrl` put back into core's `Field`.
#[test]
fn core_names_no_adapter_field_or_rule() {
    let repo = crate::common::repo();
    let names = adapter_names();
    let mut found = Vec::new();
    for dir in ["crates/core/src", "crates/core/tests"] {
        for file in crate::common::rust_files(&repo.join(dir)) {
            let text = std::fs::read_to_string(&file).unwrap();
            for name in adapter_names_in(&text, &names) {
                found.push(format!("{}: {name}", file.display()));
            }
        }
    }
    assert_eq!(found, Vec::<String>::new());
}

#[test]
fn an_adapter_name_is_found_as_a_word_only() {
    let names = adapter_names();
    assert_eq!(adapter_names_in("Field::McpUrl =>", &names), ["McpUrl"]);
    assert_eq!(
        adapter_names_in("\"adapter.mcp.url must\"", &names),
        ["adapter.mcp.url"]
    );
    assert_eq!(
        adapter_names_in("InvalidKind::EmptyCommand", &names),
        ["EmptyCommand"]
    );
    assert!(adapter_names_in("mcp.url_at, McpUrls, adapter.commands", &names).is_empty());
}

#[test]
fn a_launch_type_is_found_as_a_word_only() {
    assert_eq!(launch_types_named("let a: AdapterSpec;"), ["AdapterSpec"]);
    assert_eq!(launch_types_named("Plant::File"), ["Plant::"]);
    assert!(launch_types_named("MyAdapterSpecs, plant, Plantation").is_empty());
}
