//! Does nothing: it exists so that the build dependency in `Cargo.toml` (syn with the feature
//! that the `mip` feature's bindgen turns on) is part of the default build, and the build with
//! every feature reuses the crates the default build compiled.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
}
