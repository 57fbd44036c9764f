//! The MIP formulations against the published answers and the breadth-first search: the
//! network-flow model of Guarini's puzzle has the positions and moves of the write-ups, and
//! (with the `mip` feature) HiGHS agrees with SAT on every shipped puzzle small enough, through
//! `solve --backend mip`, through exported LP files and in `bench --solvers highs`.

mod common;

use std::path::Path;

use knights_sat::encodings::ground_truth::exchange::explore;
use knights_sat::encodings::linear::flow_model;
use knights_sat::encodings::puzzle::{self, Puzzle};

fn shipped(file: &str) -> Puzzle {
    puzzle::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles").join(file)).expect("a shipped puzzle")
}

/// The write-ups count 420 positions (two white and two black knights on the eight squares a
/// knight can reach) and 1,920 moves for Guarini's 3x3 puzzle. Only 280 of the positions are
/// reachable (knights on the ring of eight cannot pass each other), as the breadth-first search,
/// written apart from the model, finds.
#[test]
fn guarini_network_flow_has_420_positions_and_1920_moves() {
    let puzzle = shipped("guarini.toml");
    let exchange = puzzle.exchange().expect("an exchange");
    let flow = flow_model(exchange, 10_000).expect("few positions");
    assert_eq!((flow.positions, flow.moves), (420, 1920));
    assert_eq!((flow.model.constraints.len(), flow.model.variables.len()), (420, 1920));
    let searched = explore(exchange, 10_000).expect("few positions");
    assert_eq!(searched.positions, 280);
    assert_eq!(searched.shortest, Some(16));
}

#[cfg(feature = "mip")]
mod highs {
    use super::common::{bench_rows, knights_sat};
    use super::shipped;
    use knights_sat::encodings::ground_truth::exchange::shortest_exchange;
    use knights_sat::encodings::ground_truth::tour::optimal_tour;
    use knights_sat::encodings::linear::write_lp;
    use knights_sat::encodings::puzzle::{self, Puzzle};
    use knights_sat::export::{linear_model, Question};
    use knights_sat::solver::highs::{solve_lp_file, MipStatus};
    use serde_json::Value;

    /// `solve --json` on a shipped puzzle with extra flags: (status, value).
    fn solve(file: &str, flags: &[&str]) -> (String, u64) {
        let path = format!("puzzles/{file}");
        let mut args = vec!["solve", "--json", "--quiet", &path];
        args.extend_from_slice(flags);
        let run = knights_sat(&args);
        assert_eq!(run.code, 0, "{file} {flags:?}: {}", run.stderr);
        let json: Value = serde_json::from_str(&run.stdout).expect("JSON");
        (json["status"].as_str().unwrap().to_string(), json["value"].as_u64().unwrap())
    }

    /// MIP and SAT both reach the published optimum and prove it.
    fn agree(file: &str, published: u64, mip_flags: &[&str]) {
        let optimal = ("optimal".to_string(), published);
        assert_eq!(solve(file, &[]), optimal, "SAT on {file}");
        let mut flags = vec!["--backend", "mip"];
        flags.extend_from_slice(mip_flags);
        assert_eq!(solve(file, &flags), optimal, "MIP {mip_flags:?} on {file}");
    }

    /// The network-flow model here; the time-indexed model of exchanges is compared with the
    /// breadth-first search on random small puzzles (`tests/exchange_differential.rs`), as
    /// Guarini's 16 horizons take HiGHS half a minute.
    #[test]
    fn guarini_in_16_moves_by_the_network_flow_model() {
        agree("guarini.toml", 16, &["--mip-model", "network-flow"]);
    }

    #[test]
    fn placements_agree_with_the_published_optima() {
        agree("knights-domination-8x8.toml", 12, &[]);
        agree("independence-queens-8x8.toml", 8, &[]);
        agree("independence-bishops-8x8.toml", 14, &[]);
        agree("independence-knights-8x8.toml", 32, &[]);
        agree("independence-mixed-8x8.toml", 36, &[]);
        agree("independence-kings-16x16.toml", 64, &[]);
    }

    /// Finegold's route leg by leg. The two-knight tour (40 s for HiGHS) is left to `bench`;
    /// random tours are compared with exhaustive search in `tests/tour_differential/`.
    #[test]
    fn finegold_agrees_with_the_published_optimum() {
        agree("finegold.toml", 158, &[]);
    }

    /// Writes the linear model of `question` about `puzzle` as LP text and solves the file with
    /// HiGHS: its status and optimal objective value.
    fn lp_answer(puzzle: &Puzzle, question: Option<Question>) -> (MipStatus, Option<f64>) {
        let model = linear_model(puzzle, question).expect("a linear model");
        let mut text = Vec::new();
        write_lp(&model, &mut text).expect("LP text");
        let name = format!("{}-{question:?}", puzzle.name().unwrap_or("puzzle")).replace(' ', "_");
        let dir = crate::common::Scratch::new("lp", &name);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.lp"));
        std::fs::write(&path, text).unwrap();
        let (status, objective) = solve_lp_file(&path).expect("HiGHS reads the file");
        // HiGHS answers in floating point (19.99999999999935 for 20).
        (status, objective.map(f64::round))
    }

    #[test]
    fn exported_lp_files_solved_by_highs_give_the_optima() {
        let optimal = |value: f64| (MipStatus::Optimal, Some(value));
        assert_eq!(lp_answer(&shipped("knights-domination-8x8.toml"), None), optimal(12.0));
        assert_eq!(lp_answer(&shipped("independence-queens-8x8.toml"), None), optimal(8.0));
        assert_eq!(lp_answer(&shipped("independence-mixed-8x8.toml"), None), optimal(36.0));
        assert_eq!(lp_answer(&shipped("guarini.toml"), None), optimal(16.0));
    }

    /// The time-indexed models at a horizon: feasible at the optimum the exhaustive searches
    /// find, infeasible one below.
    #[test]
    fn exported_time_indexed_lp_files_answer_as_the_exhaustive_searches() {
        let rooks = shipped("bench/exchange-rooks-3x3.toml");
        let shortest = shortest_exchange(rooks.exchange().unwrap(), 100_000).unwrap().expect("solvable");
        assert_eq!(lp_answer(&rooks, Some(Question::Horizon(shortest))).0, MipStatus::Optimal);
        assert_eq!(lp_answer(&rooks, Some(Question::Horizon(shortest - 1))).0, MipStatus::Infeasible);
        let text = "kind = \"tour\"\nname = \"two knights\"\nboard = \"5x5\"\nattackers = [\"Pc3\"]\n\
                    knights = [\"a1\", \"e5\"]\ntargets = [\"c1\", \"a3\", \"e3\", \"c5\", \"b2\", \"d2\"]\n\
                    objective = \"steps\"\n";
        let tour = puzzle::parse(text, "two-knights.toml").unwrap();
        let best = optimal_tour(tour.tour().unwrap(), 1_000_000).unwrap().expect("feasible");
        assert_eq!(
            lp_answer(&tour, Some(Question::Horizon(best.steps))),
            (MipStatus::Optimal, Some(best.moves as f64))
        );
        assert_eq!(lp_answer(&tour, Some(Question::Horizon(best.steps - 1))).0, MipStatus::Infeasible);
    }

    #[test]
    fn the_network_flow_model_is_refused_for_other_families() {
        let run = knights_sat(&[
            "solve",
            "--backend",
            "mip",
            "--mip-model",
            "network-flow",
            "puzzles/knights-domination-8x8.toml",
        ]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains("network-flow model is for exchanges"), "{}", run.stderr);
    }

    #[test]
    fn a_puzzle_beyond_the_linear_models_is_bad_input_not_a_failure() {
        // Placed pieces that block lines have no linear model.
        let run = knights_sat(&[
            "solve",
            "--backend",
            "mip",
            "domination",
            "--board",
            "4x4",
            "--pieces",
            "R",
            "--attacks",
            "blocked",
        ]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains("the chosen model cannot take this puzzle"), "{}", run.stderr);
    }

    /// `bench --solvers highs` runs HiGHS on the linear model, beside the branch and bound
    /// that needs no solver, and both reach the published optimum.
    #[test]
    fn bench_runs_highs_when_asked() {
        let out = crate::common::Scratch::new("mip", "bench");
        let suite = "puzzles/bench/domination-queens-9x9.toml";
        let run =
            knights_sat(&["bench", suite, "--solvers", "highs", "--timeout", "60", "--out", out.to_str().unwrap()]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let rows = bench_rows(&run.stdout);
        assert!(rows.keys().any(|(_, c)| c.starts_with("highs")), "{}", run.stdout);
        assert!(rows.keys().all(|(_, c)| c.starts_with("highs") || c == "branch-and-bound"), "{}", run.stdout);
        // Five queens dominate 9x9 (the published value).
        assert!(rows.values().all(|(status, value)| status == "optimal" && value == "5"), "{rows:?}");
    }
}

/// Without HiGHS built in, asking for it names the feature and the packages it needs.
#[cfg(not(feature = "mip"))]
#[test]
fn the_mip_backend_names_its_feature_when_missing() {
    let run = common::knights_sat(&["solve", "--backend", "mip", "puzzles/guarini.toml"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--features mip") && run.stderr.contains("cmake"), "{}", run.stderr);
}
