//! The files of a job directory, and how they are read and written.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::exchange::PositionCube;
use super::tour::PathCube;
use crate::certify::split::RouteCube;
use crate::driver::{Cube, Cut, PseudocostTable};
use crate::encodings::puzzle::{self, Puzzle};

/// The version of the directory's format, written into `job.json`.
pub const FORMAT: u32 = 1;

/// The file of what a placement split's branching measured ([`JobDir::pseudocosts`]).
pub const PSEUDOCOSTS: &str = "pseudocosts.json";

/// Why a job directory cannot be written or read.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file is not what the directory's format says.
    #[error("{path}: {why}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The request cannot be carried out (a cube index past the last, a puzzle with no tree
    /// to split, a directory that exists already).
    #[error("{0}")]
    Refused(String),
    /// The search failed.
    #[error(transparent)]
    Search(#[from] crate::Error),
}

/// `job.json`: what was split.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Job {
    /// The directory format's version ([`FORMAT`]).
    pub format: u32,
    /// A digest of the puzzle and the cubes: every result names it, so that results of
    /// another split are never mixed in.
    pub id: String,
    /// Where the puzzle came from.
    pub source: String,
    /// The number of cubes (array indices `0..cubes`).
    pub cubes: usize,
    /// The branchings from the root to each cube.
    pub depth: usize,
    /// Whether the split used orbital fixing (the cubes' searches do the same).
    pub symmetry: bool,
    /// The best placement's cost when the tree was split: the cubes look for cheaper ones.
    pub incumbent_cost: Option<i64>,
    /// The best solution's objective value (a placement's, or an exchange's moves).
    pub incumbent_value: Option<usize>,
    /// An exchange or a tour: the most moves the cubes search (the horizons below `depth` were
    /// searched by the split).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub horizon: Option<usize>,
    /// Seconds the split took.
    pub split_seconds: f64,
    /// A certified job, whose merge writes a certificate of the whole: a placement's split's
    /// tree is in `tree.json` and every cube's result holds its own; an exchange's or a tour's
    /// cubes each write their refutation into `proofs/cube-N`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub certify: bool,
}

/// `results/cube-N.json`: what one cube's search found.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CubeResult {
    /// The job's id.
    pub job: String,
    /// The cube's index.
    pub cube: usize,
    /// Seconds the search took.
    pub seconds: f64,
    /// A certified exchange or tour: seconds its part of the certificate took besides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof_seconds: Option<f64>,
    /// Nodes it searched (a placement), or solver calls it made (an exchange, a tour).
    pub nodes: u64,
    /// The best solution in the cube (a placement's if cheaper than the split's; an
    /// exchange's or a tour's shortest through the cube): its value …
    pub value: Option<usize>,
    /// … and its solution file.
    pub solution: Option<String>,
    /// An exchange or a tour: every horizon from the job's depth up to this one is refuted
    /// in the cube (fewer than the job's horizon once another cube found a shorter route).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refuted_to: Option<usize>,
    /// Why the search failed, if it did (the cube counts as not searched).
    pub error: Option<String>,
    /// A certified job: the cube's part of the tree (its bounds and orbital fixings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree: Option<CubeTree>,
}

impl CubeResult {
    /// Whether this is cube `cube`'s result in the job of id `job` (a file copied in from
    /// another job, or from another cube's name, is not).
    pub fn is_of(&self, job: &str, cube: usize) -> bool {
        self.job == job && self.cube == cube
    }
}

/// `results/cube-N.open.json`: how far the search of a placement's cube N came before it was
/// stopped (a signal, or `cube --time-limit`). The next search of the cube goes on from the
/// nodes it left open; the cube has no result until a search ends.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CubeProgress {
    /// The job's id.
    pub job: String,
    /// The cube's index.
    pub cube: usize,
    /// Seconds the searches of the cube took so far.
    pub seconds: f64,
    /// Nodes they searched.
    pub nodes: u64,
    /// How many searches the cube had so far.
    pub runs: usize,
    /// The best placement they found in the cube, if cheaper than the split's: its cost …
    pub incumbent_cost: Option<i64>,
    /// … its value …
    pub value: Option<usize>,
    /// … and its solution file.
    pub solution: Option<String>,
    /// The nodes left open, each a subtree of the cube still to search.
    pub open: Vec<Cube>,
    /// What their branching measured, for the next search to start from (none in files
    /// written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pseudocosts: Option<PseudocostTable>,
}

/// A cube's part of a certified tree.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct CubeTree {
    /// The bounds the cube's search used.
    pub combinations: Vec<crate::driver::Combination>,
    /// Its orbital fixings.
    pub orbits: Vec<crate::driver::OrbitFixing>,
    /// Its nodes closed by propagation alone.
    #[serde(default)]
    pub leaves: Vec<Vec<crate::driver::Decision>>,
}

/// A job directory read back: everything a cube's search and the merge need.
#[derive(Debug)]
pub struct OpenJob {
    /// The directory.
    pub dir: JobDir,
    /// `job.json`.
    pub job: Job,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The cubes, by index.
    pub cubes: JobCubes,
    /// The cuts of the root.
    pub cuts: Vec<Cut>,
}

/// The cubes of a job, by the family of its puzzle.
#[derive(Debug)]
pub enum JobCubes {
    /// Nodes of a placement's branch-and-bound tree.
    Placement(Vec<Cube>),
    /// The positions an exchange reaches in exactly the job's depth of moves.
    Exchange(Vec<PositionCube>),
    /// The paths of a tour's knights through the job's depth of steps.
    Tour(Vec<PathCube>),
}

impl JobCubes {
    /// How many cubes there are.
    pub fn len(&self) -> usize {
        match self {
            JobCubes::Placement(cubes) => cubes.len(),
            JobCubes::Exchange(cubes) => cubes.len(),
            JobCubes::Tour(cubes) => cubes.len(),
        }
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The split bound of cube `id` of a placement, if it has one (`None` for an exchange's
    /// or a tour's cube, or past the last).
    pub fn bound(&self, id: usize) -> Option<f64> {
        match self {
            JobCubes::Placement(cubes) => cubes.get(id).and_then(|c| c.bound),
            _ => None,
        }
    }

    /// Cube `id` of an exchange or a tour of `puzzle`, as a certificate names it.
    pub fn route_cube(&self, id: usize, puzzle: &Puzzle) -> Result<RouteCube, String> {
        match (self, puzzle) {
            (JobCubes::Exchange(cubes), _) => Ok(cubes[id].route_cube()),
            (JobCubes::Tour(cubes), Puzzle::Tour(tour)) => cubes[id].route_cube(tour),
            _ => Err("only an exchange's or a tour's cube is a route's".into()),
        }
    }
}

/// A job directory and its paths.
#[derive(Clone, Debug)]
pub struct JobDir {
    /// The directory.
    pub root: PathBuf,
}

impl JobDir {
    /// The job directory at `root`.
    pub fn at(root: &Path) -> JobDir {
        JobDir { root: root.to_path_buf() }
    }

    /// A file of the directory.
    pub fn file(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    /// The result file of cube `id`.
    pub fn result_path(&self, id: usize) -> PathBuf {
        self.root.join("results").join(format!("cube-{id}.json"))
    }

    /// The file of cube `id`'s stopped search ([`CubeProgress`]).
    pub fn progress_path(&self, id: usize) -> PathBuf {
        self.root.join("results").join(format!("cube-{id}.open.json"))
    }

    /// How far the stopped searches of cube `id` came, if one was stopped.
    pub fn progress(&self, id: usize) -> Result<Option<CubeProgress>, JobError> {
        let path = self.progress_path(id);
        if !path.exists() {
            return Ok(None);
        }
        let progress: CubeProgress = read_json(&path)?;
        if progress.cube != id {
            return Err(malformed(&path, format!("it names cube {}, not {id}", progress.cube)));
        }
        Ok(Some(progress))
    }

    /// Writes how far a stopped search of a cube came, atomically as a result.
    pub fn write_progress(&self, progress: &CubeProgress) -> Result<(), JobError> {
        let path = self.progress_path(progress.cube);
        let text = serde_json::to_string_pretty(progress).map_err(|e| malformed(&path, e.to_string()))?;
        write_atomically(&path, &text)
    }

    /// Removes the record of cube `id`'s stopped search (once the cube has its result).
    pub fn forget_progress(&self, id: usize) -> Result<(), JobError> {
        let path = self.progress_path(id);
        match fs::remove_file(&path) {
            Err(source) if source.kind() != std::io::ErrorKind::NotFound => Err(JobError::Io { path, source }),
            _ => Ok(()),
        }
    }

    /// Reads the split: `job.json`, the puzzle, the cubes and the cuts, checked against the
    /// job's id and count.
    pub fn open(&self) -> Result<OpenJob, JobError> {
        let path = self.file("job.json");
        let job: Job = read_json(&path)?;
        if job.format != FORMAT {
            return Err(malformed(
                &path,
                format!("format {} is not {FORMAT}, the one this knights-sat reads", job.format),
            ));
        }
        let puzzle_path = self.file("puzzle.toml");
        let puzzle_text = read_text(&puzzle_path)?;
        let puzzle = puzzle::parse(&puzzle_text, &puzzle_path.display().to_string())
            .map_err(|e| malformed(&puzzle_path, e.to_string()))?;
        let path = self.file("cubes.json");
        let text = read_text(&path)?;
        let cuts_path = self.file("cuts.json");
        let cuts_text = read_text(&cuts_path)?;
        if digest(&[&puzzle_text, &text, &cuts_text]) != job.id {
            return Err(malformed(
                &path,
                "the puzzle, the cubes or the cuts changed since the split (the job's id differs)".into(),
            ));
        }
        let parsed = |e: serde_json::Error| malformed(&path, e.to_string());
        let cubes = match &puzzle {
            Puzzle::Placement(_) => JobCubes::Placement(serde_json::from_str(&text).map_err(parsed)?),
            Puzzle::Exchange(_) => JobCubes::Exchange(serde_json::from_str(&text).map_err(parsed)?),
            Puzzle::Tour(_) => JobCubes::Tour(serde_json::from_str(&text).map_err(parsed)?),
        };
        if cubes.len() != job.cubes {
            return Err(malformed(&path, format!("{} cubes, where job.json says {}", cubes.len(), job.cubes)));
        }
        let cuts: Vec<Cut> = serde_json::from_str(&cuts_text).map_err(|e| malformed(&cuts_path, e.to_string()))?;
        Ok(OpenJob { dir: self.clone(), job, puzzle, cubes, cuts })
    }

    /// What the split's branching measured (`pseudocosts.json`), for the cubes' searches to
    /// start from; `None` for a job split before it was written, or another family's.
    pub fn pseudocosts(&self) -> Result<Option<PseudocostTable>, JobError> {
        let path = self.file(PSEUDOCOSTS);
        if !path.exists() {
            return Ok(None);
        }
        read_json(&path).map(Some)
    }

    /// The result of cube `id`, if its file exists.
    pub fn result(&self, id: usize) -> Result<Option<CubeResult>, JobError> {
        let path = self.result_path(id);
        if !path.exists() {
            return Ok(None);
        }
        read_json(&path).map(Some)
    }

    /// The directory of cube `id`'s part of the certificate of a certified exchange or tour job.
    pub fn proof_dir(&self, id: usize) -> PathBuf {
        self.root.join("proofs").join(format!("cube-{id}"))
    }

    /// The fewest moves of a route another cube than `asking` has found, from the files of
    /// `found/` (one empty file per route, named by its value and its cube: `16-cube-3`). An
    /// announcement counts while its cube's result still holds the route: a cube searched
    /// again may have lost it (it asked no horizon that another cube had announced).
    pub fn shortest_found(&self, asking: usize) -> Option<usize> {
        let entries = fs::read_dir(self.file("found")).ok()?;
        let announced = entries.filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            let (value, cube) = name.split_once("-cube-")?;
            Some((value.parse::<usize>().ok()?, cube.parse::<usize>().ok()?))
        });
        let holds = |(value, cube): (usize, usize)| {
            cube != asking && self.result(cube).ok().flatten().is_some_and(|r| r.value == Some(value))
        };
        announced.filter(|&a| holds(a)).map(|a| a.0).min()
    }

    /// Tells the other cubes that cube `cube` found a route of `value` moves (after its result
    /// is written), so that they ask no horizon from `value` on.
    pub fn announce_found(&self, value: usize, cube: usize) -> Result<(), JobError> {
        let dir = self.file("found");
        fs::create_dir_all(&dir).map_err(|source| JobError::Io { path: dir.clone(), source })?;
        let path = dir.join(format!("{value}-cube-{cube}"));
        fs::write(&path, "").map_err(|source| JobError::Io { path, source })
    }

    /// Writes the result of a cube: into a file of its own, then renamed into place, so a
    /// task killed on the way leaves no result rather than half of one.
    pub fn write_result(&self, result: &CubeResult) -> Result<(), JobError> {
        let path = self.result_path(result.cube);
        let text = serde_json::to_string_pretty(result).map_err(|e| malformed(&path, e.to_string()))?;
        write_atomically(&path, &text)
    }
}

/// The job's id: a 64-bit FNV-1a digest of the texts of the puzzle, the cubes and the cuts.
pub fn digest(texts: &[&str]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in texts.iter().flat_map(|text| text.bytes().chain([0])) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// `items` as a JSON array, one item a line.
pub fn json_lines<T: Serialize>(items: &[T]) -> String {
    let lines: Vec<String> =
        items.iter().map(|item| serde_json::to_string(item).expect("plain data serialises")).collect();
    format!("[\n{}\n]\n", lines.join(",\n"))
}

/// Writes `text` to `path` through a temporary file in the same directory and a rename.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), JobError> {
    let io = |source| JobError::Io { path: path.to_path_buf(), source };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let temporary = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let mut file = fs::File::create(&temporary).map_err(io)?;
    file.write_all(text.as_bytes()).map_err(io)?;
    file.sync_all().map_err(io)?;
    drop(file);
    fs::rename(&temporary, path).map_err(io)
}

/// Reads a text file.
pub fn read_text(path: &Path) -> Result<String, JobError> {
    fs::read_to_string(path).map_err(|source| JobError::Io { path: path.to_path_buf(), source })
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, JobError> {
    serde_json::from_str(&read_text(path)?).map_err(|e| malformed(path, e.to_string()))
}

fn malformed(path: &Path, why: String) -> JobError {
    JobError::Malformed { path: path.to_path_buf(), why }
}
