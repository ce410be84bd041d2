//! Build metadata: the git revision, and the licences of every crate compiled into the
//! binary, served by `/api/v1/about`.
//!
//! The licence list comes from `cargo tree --edges normal --offline`: it resolves only the
//! crates a build of the binary needs (no dev-dependencies), which cargo has downloaded
//! before any build script runs. `cargo metadata` resolves dev-dependencies too, so a
//! release build on a machine that never built the tests had not fetched them and failed.

use std::collections::BTreeMap;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=Cargo.lock");
    migrations();
    // The revision changes when HEAD moves to another branch or its branch to another
    // commit: watch both files where git keeps them (in a worktree `.git` is a file, and a
    // path that does not exist would make every build rerun this script). Outside a git
    // checkout there is nothing to watch.
    if let Some(head) = git(&["rev-parse", "--git-path", "HEAD"]) {
        println!("cargo:rerun-if-changed={head}");
        // A branch's ref is its own file, or a line of packed-refs once packed.
        let branch = git(&["symbolic-ref", "-q", "HEAD"])
            .and_then(|branch| git(&["rev-parse", "--git-path", &branch]))
            .filter(|path| std::path::Path::new(path).exists())
            .or_else(|| git(&["rev-parse", "--git-path", "packed-refs"]));
        if let Some(branch) = branch {
            println!("cargo:rerun-if-changed={branch}");
        }
    }
    let build = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=ENCORE_BUILD={build}");

    let out_dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let target = std::env::var("TARGET").expect("TARGET");
    let output = Command::new(cargo)
        .args(["tree", "--edges", "normal", "--prefix", "none", "--offline"])
        .args(["--format", "{p}\t{l}", "--target", &target])
        .current_dir(&manifest_dir)
        .output()
        .expect("running cargo tree");
    assert!(
        output.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let licenses = parse_tree(&String::from_utf8_lossy(&output.stdout));
    assert!(licenses.len() > 50, "cargo tree listed too few crates");
    let json: Vec<serde_json::Value> = licenses
        .into_iter()
        .map(|((name, version), license)| {
            serde_json::json!({ "name": name, "version": version, "license": license })
        })
        .collect();
    std::fs::write(
        format!("{out_dir}/licenses.json"),
        serde_json::to_string(&json).expect("serialise licences"),
    )
    .expect("write licenses.json");
}

/// What a git command prints, trimmed, if it succeeds.
/// `migrations.rs`: the migrations under `migrations/` as sqlx's `Migrator`, each file
/// built in: what `sqlx::migrate!` makes, the same versions, descriptions and checksums (of
/// the file's text), without sqlx's macro crate (it compiles SQLite and the drivers a second
/// time, for the compiler: docs/ci.md).
fn migrations() {
    println!("cargo:rerun-if-changed=migrations");
    let dir = std::path::Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("manifest dir"))
        .join("migrations");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("migrations/")
        .map(|entry| entry.expect("a migration").path())
        .filter(|path| path.extension().is_some_and(|e| e == "sql"))
        .collect();
    files.sort();
    let mut code = String::from("sqlx::migrate::Migrator::with_migrations(vec![\n");
    for path in files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a UTF-8 file name");
        let (version, rest) = name.split_once('_').expect("<version>_<description>.sql");
        let version: i64 = version.parse().expect("a numbered migration");
        let description = rest.trim_end_matches(".sql").replace('_', " ");
        assert!(
            !rest.ends_with(".up.sql") && !rest.ends_with(".down.sql"),
            "migrations are simple (one file each)"
        );
        let sql = std::fs::read_to_string(&path).expect("a migration's text");
        let no_tx = sql.starts_with("-- no-transaction");
        code += &format!(
            "    sqlx::migrate::Migration::new({version}, {description:?}.into(), \
             sqlx::migrate::MigrationType::Simple, \
             sqlx::SqlStr::from_static(include_str!({path:?})), {no_tx}),\n",
            path = path.display().to_string(),
        );
    }
    code += "])\n";
    let out_dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    std::fs::write(format!("{out_dir}/migrations.rs"), code).expect("write migrations.rs");
}

fn git(args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .filter(|text| !text.is_empty())
}

/// Lines look like `serde v1.0.228 (proc-macro)\tMIT OR Apache-2.0 (*)`: the name, `v` and
/// the version, then the licence; `(*)` marks a crate already listed. Sorted by name.
fn parse_tree(text: &str) -> BTreeMap<(String, String), String> {
    let mut crates = BTreeMap::new();
    for line in text.lines() {
        let Some((package, license)) = line.split_once('\t') else {
            continue;
        };
        let mut words = package.split_whitespace();
        let (Some(name), Some(version)) = (words.next(), words.next()) else {
            continue;
        };
        if name == "encore" {
            continue;
        }
        let license = license.trim().trim_end_matches("(*)").trim();
        let license = if license.is_empty() {
            "see package"
        } else {
            license
        };
        crates.insert(
            (name.to_owned(), version.trim_start_matches('v').to_owned()),
            license.to_owned(),
        );
    }
    crates
}
