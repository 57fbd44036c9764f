//! Placement puzzles: put pieces on a board so that they dominate it (every square occupied or
//! attacked) with as few as possible, or so that none attacks another with as many as possible.
//!
//! Colours play no part: a piece attacks every other piece it could capture, and pawns attack
//! the two squares diagonally ahead of them in the puzzle's pawn direction. By default attacks
//! are measured on an empty board — a queen attacks along its whole line even through another
//! placed piece — which is how the classical problems (eight queens, twelve knights) count.
//! With [`LineOfSight::Blocked`] placed pieces block sliders instead: a bishop, rook or queen
//! attacks along a line up to and including the first occupied square, and not beyond.
//!
//! The choice only matters when pieces stand in each other's lines, which independent
//! placements never do: the two models have the same independent placements, and on those the
//! same attacks, so only domination and total domination can tell them apart.

use crate::geometry::{attack_steps, Board, PawnDirection, PieceKind, Square};

/// The largest weight of a kind: every sum of weights over a board of up to 64x64 squares
/// then fits in 32 bits, and in the objective of every encoding.
pub const MAX_WEIGHT: usize = 100_000;

/// What a placement must achieve, and which way its objective goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlacementGoal {
    /// Every square is occupied or attacked; fewest pieces (least weight).
    Domination,
    /// Every square is occupied or attacked and no piece attacks another; fewest pieces.
    IndependentDomination,
    /// Every square, occupied ones included, is attacked by some piece; fewest pieces.
    TotalDomination,
    /// No piece attacks another; most pieces (most weight).
    Independence,
}

crate::named_values!(PlacementGoal {
    Domination => "domination",
    IndependentDomination => "independent-domination",
    TotalDomination => "total-domination",
    Independence => "independence",
});

impl PlacementGoal {
    /// Whether the objective is minimised (domination) or maximised (independence).
    pub fn minimises(self) -> bool {
        self != PlacementGoal::Independence
    }

    /// Whether every square must be covered.
    pub fn covers(self) -> bool {
        self != PlacementGoal::Independence
    }

    /// Whether placed pieces must not attack each other.
    pub fn independent(self) -> bool {
        matches!(self, PlacementGoal::Independence | PlacementGoal::IndependentDomination)
    }
}

/// Whether placed pieces block the lines of sliding pieces (bishops, rooks, queens).
///
/// Removed squares block sliders either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LineOfSight {
    /// Attacks are measured on an empty board: a slider attacks along its whole line, through
    /// other placed pieces (the classical problems; the default).
    #[default]
    EmptyBoard,
    /// Placed pieces block sliders: a slider attacks along a line up to and including the first
    /// occupied square.
    Blocked,
}

crate::named_values!(LineOfSight { EmptyBoard => "empty-board", Blocked => "blocked" });

/// The rules for one kind of piece that may be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindRule {
    /// The kind.
    pub kind: PieceKind,
    /// At least this many must be placed.
    pub min: usize,
    /// At most this many may be placed, if limited.
    pub max: Option<usize>,
    /// What one piece of this kind counts in the objective (1 unless given).
    pub weight: usize,
}

impl KindRule {
    /// Unit rules (no limits, weight 1) for kinds written as letters, e.g. `"PNBRQK"`; spaces
    /// and commas are ignored.
    pub fn parse_letters(letters: &str) -> Result<Vec<KindRule>, String> {
        let mut rules: Vec<KindRule> = Vec::new();
        for letter in letters.chars().filter(|c| !c.is_whitespace() && *c != ',') {
            let kind = PieceKind::from_letter(letter)
                .ok_or_else(|| format!("unknown piece letter `{letter}`; use K, Q, R, B, N, P"))?;
            if rules.iter().any(|r| r.kind == kind) {
                return Err(format!("`{letter}` is listed twice"));
            }
            rules.push(KindRule { kind, min: 0, max: None, weight: 1 });
        }
        Ok(rules)
    }
}

/// A placement puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacementPuzzle {
    /// A human-readable name, if given.
    pub name: Option<String>,
    /// The board; removed squares hold no piece, need no cover and block sliders.
    pub board: Board,
    /// What the placement must achieve.
    pub goal: PlacementGoal,
    /// The kinds that may be placed, with their limits and weights.
    pub kinds: Vec<KindRule>,
    /// The direction in which pawns attack.
    pub pawns: PawnDirection,
    /// Squares that must stay empty.
    pub empty: Vec<Square>,
    /// Pieces placed in advance.
    pub fixed: Vec<(Square, PieceKind)>,
    /// Whether placed pieces block sliders ([`LineOfSight::EmptyBoard`] unless set with
    /// [`PlacementPuzzle::with_line_of_sight`]).
    pub line_of_sight: LineOfSight,
}

/// A placement: which piece stands on which square.
pub type Placement = Vec<(Square, PieceKind)>;

/// Why a placement puzzle cannot be built as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    /// No kind of piece may be placed.
    #[error("no piece kinds to place")]
    NoKinds,
    /// A kind is listed twice.
    #[error("the {0} is listed twice")]
    DuplicateKind(PieceKind),
    /// A minimum above the maximum.
    #[error("at least {min} but at most {max} {kind}s")]
    EmptyRange {
        /// The kind.
        kind: PieceKind,
        /// Its minimum.
        min: usize,
        /// Its maximum.
        max: usize,
    },
    /// A weight of zero, which would make the objective ignore the kind.
    #[error("the {0}'s weight must be at least 1")]
    ZeroWeight(PieceKind),
    /// A weight above [`MAX_WEIGHT`].
    #[error("the {kind}'s weight {weight} is too large: at most {MAX_WEIGHT}")]
    WeightTooLarge {
        /// The kind.
        kind: PieceKind,
        /// Its weight.
        weight: usize,
    },
    /// A fixed piece of a kind that may not be placed.
    #[error("a {kind} is fixed on {square}, but {kind}s are not among the kinds to place")]
    FixedKindNotAllowed {
        /// The kind.
        kind: PieceKind,
        /// The square's name.
        square: String,
    },
    /// A square both fixed and required empty, or fixed twice.
    #[error("square {0} is given twice (fixed pieces and empty squares must all differ)")]
    SquareTwice(String),
}

impl PlacementPuzzle {
    /// Builds a puzzle, checking that its parts fit together. Attacks are measured on an empty
    /// board; see [`PlacementPuzzle::with_line_of_sight`].
    pub fn new(
        name: Option<String>,
        board: Board,
        goal: PlacementGoal,
        kinds: Vec<KindRule>,
        pawns: PawnDirection,
        empty: Vec<Square>,
        fixed: Vec<(Square, PieceKind)>,
    ) -> Result<PlacementPuzzle, PlacementError> {
        if kinds.is_empty() {
            return Err(PlacementError::NoKinds);
        }
        for (i, rule) in kinds.iter().enumerate() {
            if kinds[..i].iter().any(|r| r.kind == rule.kind) {
                return Err(PlacementError::DuplicateKind(rule.kind));
            }
            if let Some(max) = rule.max.filter(|&max| max < rule.min) {
                return Err(PlacementError::EmptyRange { kind: rule.kind, min: rule.min, max });
            }
            if rule.weight == 0 {
                return Err(PlacementError::ZeroWeight(rule.kind));
            }
            if rule.weight > MAX_WEIGHT {
                return Err(PlacementError::WeightTooLarge { kind: rule.kind, weight: rule.weight });
            }
        }
        let mut seen = vec![false; board.area()];
        for &square in empty.iter().chain(fixed.iter().map(|(s, _)| s)) {
            if std::mem::replace(&mut seen[square.index()], true) {
                return Err(PlacementError::SquareTwice(board.name(square)));
            }
        }
        for &(square, kind) in &fixed {
            if !kinds.iter().any(|r| r.kind == kind) {
                return Err(PlacementError::FixedKindNotAllowed { kind, square: board.name(square) });
            }
        }
        Ok(PlacementPuzzle { name, board, goal, kinds, pawns, empty, fixed, line_of_sight: LineOfSight::EmptyBoard })
    }

    /// The same puzzle with attacks measured under `line_of_sight`.
    pub fn with_line_of_sight(self, line_of_sight: LineOfSight) -> PlacementPuzzle {
        PlacementPuzzle { line_of_sight, ..self }
    }

    /// The rule of a kind, if it may be placed.
    pub fn rule(&self, kind: PieceKind) -> Option<&KindRule> {
        self.kinds.iter().find(|r| r.kind == kind)
    }

    /// The squares a piece of `kind` on `square` attacks on an empty board, whatever the
    /// puzzle's [`LineOfSight`].
    pub fn attacks(&self, kind: PieceKind, square: Square) -> Vec<Square> {
        attack_steps(&self.board, kind, square, self.pawns).into_iter().map(|s| s.to).collect()
    }

    /// For independence, the kinds that an optimal placement never needs on each square
    /// (indexed by square, then by position in `kinds`); all `false` for the other goals.
    ///
    /// A kind `b` is not needed on a free square where another kind `a` may stand that attacks
    /// only squares `b` attacks from there, weighs at least as much and has no maximum count,
    /// when `b` has no minimum count: trading `b` for `a` keeps a placement independent (who
    /// attacks the square does not depend on what stands on it) and its value at least as high.
    /// Of two kinds that attack the same squares and weigh the same, the earlier one stays.
    pub fn dominated_kinds(&self) -> Vec<Vec<bool>> {
        let area = self.board.area();
        let mut dominated = vec![vec![false; self.kinds.len()]; area];
        if self.goal != PlacementGoal::Independence || self.kinds.len() < 2 {
            return dominated;
        }
        for (s, flags) in dominated.iter_mut().enumerate() {
            let square = Square(s as u16);
            if self.board.is_removed(square) || self.empty.contains(&square) || self.fixed.iter().any(|f| f.0 == square)
            {
                continue;
            }
            let attacked: Vec<Vec<Square>> = self.kinds.iter().map(|r| self.attacks(r.kind, square)).collect();
            for (b, rule_b) in self.kinds.iter().enumerate() {
                if rule_b.min > 0 {
                    continue;
                }
                flags[b] = self.kinds.iter().enumerate().any(|(a, rule_a)| {
                    let within = attacked[a].iter().all(|t| attacked[b].contains(t));
                    let strictly = attacked[a].len() < attacked[b].len() || rule_a.weight > rule_b.weight || a < b;
                    a != b && rule_a.max.is_none() && rule_a.weight >= rule_b.weight && within && strictly
                });
            }
        }
        dominated
    }

    /// For each free square and each kind of [`Self::dominated_kinds`] there, a kind that takes
    /// its place and is not itself dominated there (one exists: dominance is a strict order,
    /// and a kind that dominates the taker of `b` dominates `b`); `None` elsewhere.
    pub fn dominating_kinds(&self) -> Vec<Vec<Option<usize>>> {
        let dominated = self.dominated_kinds();
        dominated
            .iter()
            .enumerate()
            .map(|(s, flags)| {
                if !flags.iter().any(|&d| d) {
                    return vec![None; flags.len()];
                }
                let attacked: Vec<Vec<Square>> =
                    self.kinds.iter().map(|r| self.attacks(r.kind, Square(s as u16))).collect();
                (0..flags.len())
                    .map(|b| {
                        flags[b].then(|| {
                            (0..flags.len()).find(|&a| {
                                !flags[a]
                                    && self.kinds[a].max.is_none()
                                    && self.kinds[a].weight >= self.kinds[b].weight
                                    && attacked[a].iter().all(|t| attacked[b].contains(t))
                            })
                        })?
                    })
                    .collect()
            })
            .collect()
    }

    /// The objective value of a placement: the summed weights of its pieces.
    pub fn value(&self, placement: &[(Square, PieceKind)]) -> usize {
        placement.iter().map(|&(_, kind)| self.rule(kind).map_or(0, |r| r.weight)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::{KindRule, PlacementGoal, PlacementPuzzle};
    use crate::geometry::{Board, PawnDirection, PieceKind};

    fn mixed(goal: PlacementGoal, letters: &str) -> PlacementPuzzle {
        let kinds = KindRule::parse_letters(letters).unwrap();
        PlacementPuzzle::new(None, Board::new(8, 8).unwrap(), goal, kinds, PawnDirection::Up, Vec::new(), Vec::new())
            .unwrap()
    }

    /// With pawns attacking up: a pawn attacks part of what a bishop, queen or king attacks
    /// from the same square, and nothing from the top rank; knights and rooks attack squares a
    /// pawn does not.
    #[test]
    fn pawns_knights_and_rooks_are_the_kinds_independence_needs() {
        let puzzle = mixed(PlacementGoal::Independence, "PNBRQK");
        let dominated = puzzle.dominated_kinds();
        for (s, flags) in dominated.iter().enumerate() {
            let top = puzzle.board.name(crate::geometry::Square(s as u16)).ends_with('8');
            let kept: Vec<PieceKind> =
                puzzle.kinds.iter().zip(flags).filter(|(_, &d)| !d).map(|(r, _)| r.kind).collect();
            let expected =
                if top { vec![PieceKind::Pawn] } else { vec![PieceKind::Pawn, PieceKind::Knight, PieceKind::Rook] };
            assert_eq!(kept, expected, "square {s}");
        }
        // Pawns with a limit stand in for nothing: on d4 only the queen goes (a king or a rook
        // stands in for it). Other goals keep every kind.
        let mut limited = puzzle.clone();
        limited.kinds[0].max = Some(3);
        let d4 = puzzle.board.parse_square("d4").unwrap();
        let flags = &limited.dominated_kinds()[d4.index()];
        let kept: Vec<PieceKind> = limited.kinds.iter().zip(flags).filter(|(_, &d)| !d).map(|(r, _)| r.kind).collect();
        use PieceKind::*;
        assert_eq!(kept, vec![Pawn, Knight, Bishop, Rook, King]);
        let covering = mixed(PlacementGoal::Domination, "PNBRQK");
        assert!(covering.dominated_kinds().iter().flatten().all(|&d| !d));
    }

    /// Every kind ruled out on a square has a taker there that is kept, attacks no more and
    /// weighs no less, with pawns attacking either way and with a limited kind.
    #[test]
    fn every_dominated_kind_has_a_kept_taker() {
        let mut limited = mixed(PlacementGoal::Independence, "PNBRQK");
        limited.kinds[0].max = Some(3);
        let mut down = mixed(PlacementGoal::Independence, "PNBRQK");
        down.pawns = crate::geometry::PawnDirection::Down;
        for puzzle in [mixed(PlacementGoal::Independence, "PNBRQK"), limited, down] {
            let (dominated, takers) = (puzzle.dominated_kinds(), puzzle.dominating_kinds());
            for (s, (flags, takers)) in dominated.iter().zip(&takers).enumerate() {
                let square = crate::geometry::Square(s as u16);
                for b in 0..flags.len() {
                    assert_eq!(flags[b], takers[b].is_some(), "square {s}, kind {b}");
                    if let Some(a) = takers[b] {
                        assert!(!flags[a] && puzzle.kinds[a].max.is_none(), "square {s}: {a} takes {b}");
                        let (from_a, from_b) = (
                            puzzle.attacks(puzzle.kinds[a].kind, square),
                            puzzle.attacks(puzzle.kinds[b].kind, square),
                        );
                        assert!(from_a.iter().all(|t| from_b.contains(t)), "square {s}: {a} takes {b}");
                    }
                }
            }
        }
    }
}
