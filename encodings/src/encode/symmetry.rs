//! Symmetry breaking for placement puzzles: the board's symmetries that map the puzzle onto
//! itself, and lex-leader constraints that keep one placement of each symmetric family.
//!
//! A symmetry is one of the eight maps of the square (four of a rectangle) — reflections and
//! rotations — or the exchange of two neighbouring ranks or files, which maps rook puzzles onto
//! themselves (with every such exchange, the rows and the columns of a placement are ordered
//! lexicographically, the double-lex order of Flener et al., 2002). It is used only when it maps the puzzle onto itself: removed squares onto removed
//! squares, squares that must stay empty onto such squares, every fixed piece onto a fixed piece
//! of its kind, and every attack of every kind onto an attack of that kind (which rules out
//! flipping the board top to bottom while pawns attack upwards). Such a map turns every valid
//! placement into a valid placement of the same value, so requiring each placement to be the
//! lexicographically least of its images ([Crawford et al., 1996]) keeps an optimum.
//!
//! [Crawford et al., 1996]: https://doi.org/10.5555/3087368.3087386

use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
use rustsat::types::{Clause, Lit};

use crate::geometry::{attack_steps, Board, Square};
use crate::puzzle::placement::{LineOfSight, PlacementPuzzle};

/// A permutation of the board's squares: `map[s]` is the image of square `s`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSymmetry {
    /// What the map is called ("mirror files", "rotate 90", "swap ranks 1 and 2", …).
    pub name: String,
    /// The image of every square, by index.
    pub map: Vec<Square>,
}

/// The symmetries (other than the identity) that map `puzzle` onto itself.
pub fn puzzle_symmetries(puzzle: &PlacementPuzzle) -> Vec<BoardSymmetry> {
    let attacks = attack_relation(puzzle);
    board_maps(&puzzle.board).into_iter().filter(|map| preserves(puzzle, &attacks, &map.map)).collect()
}

/// An attack: the attacked square and, with blocked lines, the squares in between (sorted).
type Attack = (Square, Vec<Square>);

/// Every kind's attacks from every square, each list sorted. On an empty board only the
/// attacked squares count; with blocked lines so do the squares in between, which an exchange
/// of neighbouring ranks would reorder.
fn attack_relation(puzzle: &PlacementPuzzle) -> Vec<Vec<Vec<Attack>>> {
    let board = &puzzle.board;
    let blocked = puzzle.line_of_sight == LineOfSight::Blocked;
    puzzle
        .kinds
        .iter()
        .map(|rule| {
            (0..board.area())
                .map(|s| {
                    let square = Square(s as u16);
                    if board.is_removed(square) {
                        return Vec::new();
                    }
                    let mut attacks: Vec<Attack> = attack_steps(board, rule.kind, square, puzzle.pawns)
                        .into_iter()
                        .map(|step| {
                            let mut between = if blocked { step.between } else { Vec::new() };
                            between.sort();
                            (step.to, between)
                        })
                        .collect();
                    attacks.sort();
                    attacks
                })
                .collect()
        })
        .collect()
}

/// A map of (file, rank) on a board of (width, height).
type CoordinateMap = fn(usize, usize, usize, usize) -> (usize, usize);

/// The seven non-identity maps of the square, or the three of a rectangle.
fn board_maps(board: &Board) -> Vec<BoardSymmetry> {
    let (w, h) = (board.width(), board.height());
    let mut maps: Vec<(&'static str, CoordinateMap)> = vec![
        ("mirror files", |f, r, w, _| (w - 1 - f, r)),
        ("mirror ranks", |f, r, _, h| (f, h - 1 - r)),
        ("rotate 180", |f, r, w, h| (w - 1 - f, h - 1 - r)),
    ];
    if w == h {
        maps.extend([
            ("transpose", (|f, r, _, _| (r, f)) as CoordinateMap),
            ("anti-transpose", |f, r, w, h| (h - 1 - r, w - 1 - f)),
            ("rotate 90", |f, r, _, h| (h - 1 - r, f)),
            ("rotate 270", |f, r, w, _| (r, w - 1 - f)),
        ]);
    }
    let mut symmetries: Vec<BoardSymmetry> = maps
        .into_iter()
        .map(|(name, image)| BoardSymmetry {
            name: name.to_string(),
            map: (0..board.area())
                .map(|s| {
                    let (f, r) = image(s % w, s / w, w, h);
                    Square((r * w + f) as u16)
                })
                .collect(),
        })
        .collect();
    let swap = |a: usize, b: usize, i: usize| {
        if i == a {
            b
        } else if i == b {
            a
        } else {
            i
        }
    };
    for r in 0..h.saturating_sub(1) {
        let map = (0..board.area()).map(|s| Square((swap(r, r + 1, s / w) * w + s % w) as u16)).collect();
        symmetries.push(BoardSymmetry { name: format!("swap ranks {} and {}", r + 1, r + 2), map });
    }
    for f in 0..w.saturating_sub(1) {
        let map = (0..board.area()).map(|s| Square((s / w * w + swap(f, f + 1, s % w)) as u16)).collect();
        let name = format!("swap files {} and {}", board.file_name(f), board.file_name(f + 1));
        symmetries.push(BoardSymmetry { name, map });
    }
    symmetries.retain(|m| m.map.iter().enumerate().any(|(s, t)| t.index() != s));
    symmetries
}

fn preserves(puzzle: &PlacementPuzzle, attacks: &[Vec<Vec<Attack>>], map: &[Square]) -> bool {
    let board = &puzzle.board;
    let image = |s: Square| map[s.index()];
    if (0..board.area()).map(|s| Square(s as u16)).any(|s| board.is_removed(s) != board.is_removed(image(s))) {
        return false;
    }
    if puzzle.empty.iter().any(|&s| !puzzle.empty.contains(&image(s))) {
        return false;
    }
    if puzzle.fixed.iter().any(|&(s, kind)| !puzzle.fixed.contains(&(image(s), kind))) {
        return false;
    }
    attacks.iter().all(|per_square| {
        board.squares().all(|s| {
            let mut mapped: Vec<Attack> = per_square[s.index()]
                .iter()
                .map(|(to, between)| {
                    let mut between: Vec<Square> = between.iter().map(|&b| image(b)).collect();
                    between.sort();
                    (image(*to), between)
                })
                .collect();
            mapped.sort();
            mapped == per_square[image(s).index()]
        })
    })
}

/// Adds lex-leader constraints for `symmetries` over the placement variables `x[s][k]`
/// (squares in index order, kinds in order): the placement, read as a bit string, is at most
/// its image under each symmetry. Linear in the number of variables per symmetry.
pub fn break_symmetries<C: CollectClauses>(
    x: &[Vec<Option<Lit>>],
    symmetries: &[BoardSymmetry],
    clauses: &mut C,
    vars: &mut dyn ManageVars,
) {
    for symmetry in symmetries {
        let map = &symmetry.map;
        let mut pairs: Vec<(Lit, Lit)> = Vec::new();
        for (s, row) in x.iter().enumerate() {
            let t = map[s].index();
            // A fixed square compares equal to itself; and for a map that swaps `s` and `t`
            // with `t` earlier, equal prefixes already made this pair equal.
            if t == s || (t < s && map[t].index() == s) {
                continue;
            }
            for (k, lit) in row.iter().enumerate() {
                // The puzzle maps onto itself, so the image variable exists whenever this one does.
                if let (Some(v), Some(w)) = (*lit, x[t][k]) {
                    pairs.push((v, w));
                }
            }
        }
        // `equal` is implied by "all earlier pairs are equal"; under it, v <= w.
        let mut equal: Option<Lit> = None;
        for (i, &(v, w)) in pairs.iter().enumerate() {
            let guard = equal.map(|e| !e);
            add(clauses, guard.into_iter().chain([!v, w]));
            if i + 1 < pairs.len() {
                let next = vars.new_lit();
                add(clauses, guard.into_iter().chain([!v, next]));
                add(clauses, guard.into_iter().chain([w, next]));
                equal = Some(next);
            }
        }
    }
}

fn add<C: CollectClauses>(clauses: &mut C, lits: impl IntoIterator<Item = Lit>) {
    let clause: Clause = lits.into_iter().collect();
    clauses.add_clause(clause).expect("clause collector out of memory");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{PawnDirection, PieceKind};
    use crate::puzzle::placement::{KindRule, PlacementGoal};

    fn puzzle(w: usize, h: usize, letters: &str, pawns: PawnDirection) -> PlacementPuzzle {
        let kinds = KindRule::parse_letters(letters).unwrap();
        let board = Board::new(w, h).unwrap();
        PlacementPuzzle::new(None, board, PlacementGoal::Domination, kinds, pawns, vec![], vec![]).unwrap()
    }

    fn names(puzzle: &PlacementPuzzle) -> Vec<String> {
        puzzle_symmetries(puzzle).into_iter().map(|s| s.name).collect()
    }

    #[test]
    fn square_boards_have_seven_rectangles_three() {
        assert_eq!(names(&puzzle(8, 8, "NQ", PawnDirection::Up)).len(), 7);
        assert_eq!(names(&puzzle(5, 3, "K", PawnDirection::Up)), ["mirror files", "mirror ranks", "rotate 180"]);
    }

    #[test]
    fn rooks_also_allow_exchanging_neighbouring_ranks_and_files() {
        let all = names(&puzzle(3, 2, "R", PawnDirection::Up));
        assert_eq!(
            all,
            [
                "mirror files",
                "mirror ranks",
                "rotate 180",
                "swap ranks 1 and 2",
                "swap files a and b",
                "swap files b and c"
            ]
        );
        assert!(!names(&puzzle(3, 3, "RB", PawnDirection::Up)).iter().any(|n| n.starts_with("swap")));
        // Blocked lines: exchanging ranks would move the squares a rook's line passes over.
        let blocked = puzzle(3, 3, "R", PawnDirection::Up).with_line_of_sight(LineOfSight::Blocked);
        assert_eq!(names(&blocked).len(), 7);
    }

    /// Whether the clauses hold for some values of their auxiliary variables once the first
    /// `fixed.len()` variables take `fixed`: the chains' variables are forced by unit
    /// propagation, and those left free are set false, which satisfies every clause they guard.
    fn satisfiable_with(clauses: &[Clause], fixed: &[bool]) -> bool {
        let mut value: std::collections::HashMap<u32, bool> =
            fixed.iter().enumerate().map(|(i, &b)| (i as u32, b)).collect();
        let holds = |lit: Lit, value: &std::collections::HashMap<u32, bool>| {
            value.get(&lit.var().idx32()).map(|&b| b == lit.is_pos())
        };
        loop {
            let mut changed = false;
            for clause in clauses {
                let open: Vec<Lit> = clause.iter().copied().filter(|&l| holds(l, &value).is_none()).collect();
                if clause.iter().any(|&l| holds(l, &value) == Some(true)) {
                    continue;
                }
                match open.as_slice() {
                    [] => return false,
                    [lit] => {
                        value.insert(lit.var().idx32(), lit.is_pos());
                        changed = true;
                    }
                    _ => {}
                }
            }
            if !changed {
                break;
            }
        }
        clauses.iter().all(|c| c.iter().any(|&l| holds(l, &value).unwrap_or(!l.is_pos())))
    }

    /// With lex-leader constraints for every symmetry of the 3x3 board, exactly one placement
    /// of each orbit survives: the one whose bits, read in square order, compare least, found
    /// from the maps themselves.
    #[test]
    fn one_placement_of_each_orbit_survives_the_lex_leader_constraints() {
        let p = puzzle(3, 3, "N", PawnDirection::Up);
        let symmetries = puzzle_symmetries(&p);
        assert_eq!(symmetries.len(), 7);
        let x: Vec<Vec<Option<Lit>>> = (0..9).map(|s| vec![Some(Lit::positive(s))]).collect();
        let mut vars = rustsat::instances::BasicVarManager::from_next_free(rustsat::types::Var::new(9));
        let mut cnf = rustsat::instances::Cnf::new();
        break_symmetries(&x, &symmetries, &mut cnf, &mut vars);
        let clauses: Vec<Clause> = cnf.into_iter().collect();
        let bits = |placement: u32| -> Vec<bool> { (0..9).map(|s| placement >> s & 1 == 1).collect() };
        let image = |placement: u32, map: &[Square]| -> u32 {
            (0..9).filter(|&s| placement >> s & 1 == 1).map(|s| 1 << map[s].index()).sum()
        };
        // Each orbit, named by its member whose bits read in square order compare least.
        let key = |placement: u32| bits(placement);
        let mut orbits = std::collections::HashSet::new();
        for placement in 0..512u32 {
            let images = symmetries.iter().map(|s| image(placement, &s.map));
            orbits.insert(images.chain([placement]).min_by_key(|&q| key(q)).expect("the placement itself"));
        }
        let survivors: std::collections::HashSet<u32> =
            (0..512u32).filter(|&placement| satisfiable_with(&clauses, &bits(placement))).collect();
        assert_eq!(survivors, orbits);
        assert!(orbits.len() > 50 && orbits.len() < 512);
    }

    #[test]
    fn pawns_keep_only_the_mirror_of_files() {
        assert_eq!(names(&puzzle(6, 6, "PK", PawnDirection::Up)), ["mirror files"]);
        assert_eq!(names(&puzzle(6, 6, "P", PawnDirection::Down)), ["mirror files"]);
    }

    #[test]
    fn removed_squares_and_fixed_pieces_must_map_onto_themselves() {
        let mut p = puzzle(4, 4, "R", PawnDirection::Up);
        p.board.remove(Square(0));
        let kept =
            ["transpose", "swap ranks 2 and 3", "swap ranks 3 and 4", "swap files b and c", "swap files c and d"];
        assert_eq!(names(&p), kept);
        let mut p = puzzle(4, 4, "RN", PawnDirection::Up);
        p.fixed = vec![(Square(0), PieceKind::Rook), (Square(15), PieceKind::Rook)];
        assert_eq!(names(&p), ["rotate 180", "transpose", "anti-transpose"]);
        p.fixed[1].1 = PieceKind::Knight;
        assert_eq!(names(&p), ["transpose"]);
        assert!(names(&puzzle(1, 1, "Q", PawnDirection::Up)).is_empty());
    }
}
