//! Text and JSON output.
