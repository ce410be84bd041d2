//! Build metadata: the git revision, and the licences of every crate compiled into the
//! binary (from `cargo metadata`), served by `/api/v1/about`.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!("cargo:rerun-if-changed=.git/HEAD");
    let build = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=ENCORE_BUILD={build}");

    let out_dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let target = std::env::var("TARGET").expect("TARGET");
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline", "--locked"])
        .args(["--filter-platform", &target])
        .current_dir(&manifest_dir)
        .output()
        .expect("running cargo metadata");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("cargo metadata JSON");
    // Only crates in the resolved graph for this platform's build, not every optional one.
    let resolved: std::collections::HashSet<&str> = metadata["resolve"]["nodes"]
        .as_array()
        .map(|nodes| nodes.iter().filter_map(|n| n["id"].as_str()).collect())
        .unwrap_or_default();
    let mut licenses: Vec<serde_json::Value> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter(|p| p["id"].as_str().is_some_and(|id| resolved.contains(id)))
        .filter(|p| p["name"] != "encore")
        .map(|p| {
            serde_json::json!({
                "name": p["name"],
                "version": p["version"],
                "license": p["license"].as_str().unwrap_or("see package"),
            })
        })
        .collect();
    licenses.sort_by_key(|l| l["name"].as_str().unwrap_or_default().to_owned());
    std::fs::write(
        format!("{out_dir}/licenses.json"),
        serde_json::to_string(&licenses).expect("serialise licences"),
    )
    .expect("write licenses.json");
}
