//! The puzzles of knights-sat without a solver: board geometry, puzzle models and their files,
//! their CNF and 0-1 linear encodings, and the rules checkers and ground truths that test them.
//!
//! The crate is layered so that each layer only looks down:
//!
//! * [`geometry`] — boards, squares, piece kinds and their move and attack sets;
//! * [`puzzle`] — the puzzle families as plain models, and the TOML puzzle format;
//! * [`encode`] — time-indexed CNF encodings of those models, built incrementally;
//! * [`check`] — an independent rules checker that replays a solution with no SAT at all;
//! * [`ground_truth`] — exhaustive searches used to test the encodings, written from the rules;
//! * [`linear`] — the puzzles as 0-1 linear models, written as OPB and LP.
//!
//! ```
//! use knights_sat_encodings::puzzle;
//!
//! let text = r#"
//! kind = "exchange"
//! board = "3x3"
//! swap = true
//!
//! [[side]]
//! name = "white"
//! start = ["Na1", "Nc1"]
//!
//! [[side]]
//! name = "black"
//! start = ["Na3", "Nc3"]
//! "#;
//! let puzzle = puzzle::parse(text, "guarini.toml").unwrap();
//! assert_eq!(puzzle.exchange().unwrap().piece_count(), 4);
//! ```

#![warn(missing_docs)]
// The docs are written for those who work on the crate too, and link the private items they
// describe: `cargo doc --document-private-items` renders those links (CI checks them).
#![allow(rustdoc::private_intra_doc_links)]

pub mod check;
pub mod encode;
pub mod geometry;
pub mod ground_truth;
pub mod linear;
pub mod names;
pub mod puzzle;
