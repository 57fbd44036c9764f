//! Why each clause of a logged tour encoding holds ([`super::tour::TourEncoding::logged`]):
//! what a proof needs to derive the clauses of the search it certifies.

use rustsat::encodings::CollectClauses;
use rustsat::types::Lit;

use super::add;

/// Why a clause of a logged tour encoding ([`super::tour::TourEncoding::logged`]) holds, for a proof that
/// derives it from the certified model: `(t, cell)` is a time and an index into the encoding's
/// safe cells ([`super::tour::TourEncoding::cells`]), `(t, j)` a time and an index into the targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TourClause {
    /// The knight stands on some cell after step `t`.
    SomeCell(usize),
    /// It stands on at most one cell after step `t` (a clause of the at-most-one encoding).
    OneCell(usize),
    /// On `cell` after step `t`, a lone knight of unknown start colour started on the colour
    /// that the parity of `t` gives.
    Colour(usize, usize),
    /// On `cell` after step `t`, it came from a cell a jump away.
    Came(usize, usize),
    /// On `cell` after step `t - 1`, it stands a jump away after step `t`.
    Goes(usize, usize),
    /// Target `j` touched by time `t` was touched by `t - 1` or is stood on at `t`.
    Touched(usize, usize),
    /// Target `j` touched by time `t - 1` is touched by `t`.
    Kept(usize, usize),
    /// The goal switch of horizon `h` demands target `j` touched by `h`.
    Goal(usize, usize),
    /// Any other clause: one no proof derives yet.
    Other,
}

/// Adds the clause of `lits`, noting `why` in `log` if there is one.
pub(super) fn add_as<C: CollectClauses>(
    log: &mut Option<Vec<TourClause>>,
    clauses: &mut C,
    lits: impl IntoIterator<Item = Lit>,
    why: TourClause,
) {
    add(clauses, lits);
    if let Some(log) = log {
        log.push(why);
    }
}

/// Notes `why` in `log`, if there is one, for each clause added to `clauses` since it held
/// `before`.
pub(super) fn note<C: CollectClauses>(log: &mut Option<Vec<TourClause>>, clauses: &C, before: usize, why: TourClause) {
    if let Some(log) = log {
        log.extend(std::iter::repeat_n(why, clauses.n_clauses() - before));
    }
}
