//! Where a certificate's proof lives: `proof.pbp` as text, or `proof.pbp.gz` compressed with
//! gzip, written through a counting writer and read back as a stream of lines.
//!
//! Proofs of the larger puzzles run to hundreds of megabytes of text that compresses about
//! fivefold, so [`ProofCompression::Auto`] keeps small proofs readable and compresses large ones.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;

/// The proof as text.
pub const PROOF: &str = "proof.pbp";
/// The proof compressed with gzip.
pub const PROOF_GZ: &str = "proof.pbp.gz";
/// Under [`ProofCompression::Auto`], proofs longer than this are compressed.
pub const AUTO_GZIP_BYTES: u64 = 64 << 20;

/// Under [`ProofCompression::Auto`], a proof this long starts being compressed on a thread of
/// its own while its text is still written, in case it passes [`AUTO_GZIP_BYTES`].
const EARLY_GZIP_BYTES: u64 = 16 << 20;

/// The chunks handed to that thread.
const CHUNK_BYTES: usize = 1 << 20;

/// The two bytes that start every gzip member.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// How the proof is stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProofCompression {
    /// Text, compressed once it passes [`AUTO_GZIP_BYTES`].
    #[default]
    Auto,
    /// Always text (`proof.pbp`).
    None,
    /// Always gzip (`proof.pbp.gz`), compressed while it is written.
    Gzip,
}

knights_sat_encodings::named_values!(ProofCompression { Auto => "auto", None => "none", Gzip => "gzip" });

impl FromStr for ProofCompression {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        Self::from_name(name)
            .ok_or_else(|| format!("unknown proof compression `{name}`; expected one of {}", Self::NAMES.join(", ")))
    }
}

/// A proof written to disk, with its sizes.
#[derive(Clone, Debug)]
pub struct StoredProof {
    /// `proof.pbp` or `proof.pbp.gz`.
    pub path: PathBuf,
    /// Bytes of the proof's text.
    pub text_bytes: u64,
    /// Bytes on disk (the compressed size for `proof.pbp.gz`).
    pub stored_bytes: u64,
    /// Lines of the proof's text.
    pub lines: u64,
}

impl StoredProof {
    /// Moves the proof file from the folder it was written in (a racer's or a lane's) into the
    /// certificate `dir`, under the same name.
    pub fn move_into(mut self, dir: &Path) -> io::Result<StoredProof> {
        let name = self.path.file_name().ok_or_else(|| io::Error::other("a proof file without a name"))?;
        let target = dir.join(name);
        std::fs::rename(&self.path, &target)?;
        self.path = target;
        Ok(self)
    }
}

/// A writer that counts the bytes and lines passing through it.
pub struct Counting<W> {
    inner: W,
    bytes: u64,
    lines: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = self.inner.write(buf)?;
        self.bytes += written as u64;
        self.lines += buf[..written].iter().filter(|&&b| b == b'\n').count() as u64;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

enum Sink {
    Text(BufWriter<File>),
    Gzip(BufWriter<GzEncoder<BufWriter<File>>>),
    /// Text, with a gzip copy that keeps pace once the text is long.
    Auto(BufWriter<File>, Copy),
}

/// Under `auto`, the gzip copy of the proof: compressed on a thread of its own once the text
/// passes [`EARLY_GZIP_BYTES`], so that a long proof costs the time of writing it rather than
/// that and then the time of compressing it (on two cores; the copy of a proof that stays
/// short is dropped).
enum Copy {
    /// Not started: the text so far.
    Waiting { text: Vec<u8>, early: u64, path: PathBuf },
    /// Compressing what it is sent.
    Running { chunk: Vec<u8>, sender: std::sync::mpsc::SyncSender<Vec<u8>>, worker: Worker },
}

/// The thread that compresses.
type Worker = std::thread::JoinHandle<io::Result<()>>;

impl Copy {
    fn feed(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Copy::Waiting { text, early, path } => {
                text.extend_from_slice(buf);
                if text.len() as u64 >= *early {
                    let (sender, receiver) = std::sync::mpsc::sync_channel::<Vec<u8>>(8);
                    let file = File::create(&*path)?;
                    let worker = std::thread::Builder::new().name("gzip".into()).spawn(move || {
                        let mut encoder = GzEncoder::new(BufWriter::new(file), level());
                        for chunk in receiver {
                            encoder.write_all(&chunk)?;
                        }
                        encoder.finish()?.flush()
                    })?;
                    let first = std::mem::take(text);
                    *self = Copy::Running { chunk: Vec::with_capacity(CHUNK_BYTES), sender, worker };
                    if let Copy::Running { sender, .. } = self {
                        Self::send(sender, first);
                    }
                }
            }
            Copy::Running { chunk, sender, .. } => {
                chunk.extend_from_slice(buf);
                if chunk.len() >= CHUNK_BYTES {
                    let full = std::mem::replace(chunk, Vec::with_capacity(CHUNK_BYTES));
                    Self::send(sender, full);
                }
            }
        }
        Ok(())
    }

    fn send(sender: &std::sync::mpsc::SyncSender<Vec<u8>>, chunk: Vec<u8>) {
        // A closed channel means the worker failed; its error comes out when it is joined.
        let _ = sender.send(chunk);
    }

    /// Completes the copy: whether it holds the whole proof.
    fn finish(self) -> io::Result<bool> {
        match self {
            Copy::Waiting { .. } => Ok(false),
            Copy::Running { chunk, sender, worker } => {
                Self::send(&sender, chunk);
                drop(sender);
                worker.join().map_err(|_| io::Error::other("the gzip thread panicked"))??;
                Ok(true)
            }
        }
    }
}

/// The proof file being written; [`ProofWriter::finish`] completes it.
pub struct ProofWriter {
    dir: PathBuf,
    auto_threshold: u64,
    /// Buffered before the sink: a proof is written a few bytes at a time.
    out: Counting<BufWriter<Sink>>,
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Text(w) => w.write(buf),
            Sink::Gzip(w) => w.write(buf),
            Sink::Auto(w, copy) => {
                w.write_all(buf)?;
                copy.feed(buf)?;
                Ok(buf.len())
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Text(w) | Sink::Auto(w, _) => w.flush(),
            Sink::Gzip(w) => w.flush(),
        }
    }
}

impl ProofWriter {
    /// Starts the proof of the certificate in `dir`, removing a proof left there before.
    pub fn create(dir: &Path, compression: ProofCompression) -> io::Result<Self> {
        remove_proofs(dir)?;
        let sink = match compression {
            ProofCompression::Gzip => {
                let encoder = GzEncoder::new(BufWriter::new(File::create(dir.join(PROOF_GZ))?), level());
                Sink::Gzip(BufWriter::with_capacity(1 << 16, encoder))
            }
            ProofCompression::None => Sink::Text(BufWriter::new(File::create(dir.join(PROOF))?)),
            ProofCompression::Auto => {
                let copy = Copy::Waiting { text: Vec::new(), early: EARLY_GZIP_BYTES, path: dir.join(PROOF_GZ) };
                Sink::Auto(BufWriter::new(File::create(dir.join(PROOF))?), copy)
            }
        };
        Ok(Self {
            dir: dir.to_path_buf(),
            auto_threshold: AUTO_GZIP_BYTES,
            out: Counting { inner: BufWriter::with_capacity(1 << 16, sink), bytes: 0, lines: 0 },
        })
    }

    /// Under `auto`, starts the gzip copy once the text passes `bytes` (for tests).
    #[cfg(test)]
    fn copy_from(&mut self, bytes: u64) {
        if let Sink::Auto(_, Copy::Waiting { early, .. }) = self.out.inner.get_mut() {
            *early = bytes;
        }
    }

    /// Where the proof's text goes.
    pub fn writer(&mut self) -> &mut Counting<impl Write> {
        &mut self.out
    }

    /// Gives the proof up unfinished: waits for the gzip copy's thread, if one runs, so that
    /// nothing writes into the folder afterwards. The files stay for the caller to remove.
    pub fn discard(self) {
        // What is still buffered is given up with the rest.
        let (sink, _) = self.out.inner.into_parts();
        if let Sink::Auto(_, Copy::Running { sender, worker, .. }) = sink {
            drop(sender);
            // Its error, if any, concerns a file being given up.
            let _ = worker.join();
        }
    }

    /// Completes the file (compressing a long proof under `auto`) and returns its sizes.
    pub fn finish(self) -> io::Result<StoredProof> {
        let (text_bytes, lines) = (self.out.bytes, self.out.lines);
        let path = match self.out.inner.into_inner().map_err(|e| e.into_error())? {
            Sink::Text(mut w) => {
                w.flush()?;
                self.dir.join(PROOF)
            }
            Sink::Gzip(w) => {
                w.into_inner().map_err(|e| e.into_error())?.finish()?.flush()?;
                self.dir.join(PROOF_GZ)
            }
            Sink::Auto(mut w, copy) => {
                w.flush()?;
                let (text, gzip) = (self.dir.join(PROOF), self.dir.join(PROOF_GZ));
                let copied = copy.finish()?;
                if text_bytes > self.auto_threshold {
                    if !copied {
                        compress(&text, &gzip)?;
                    }
                    std::fs::remove_file(&text)?;
                    gzip
                } else {
                    if copied {
                        std::fs::remove_file(&gzip)?;
                    }
                    text
                }
            }
        };
        let stored_bytes = std::fs::metadata(&path)?.len();
        Ok(StoredProof { path, text_bytes, stored_bytes, lines })
    }
}

/// Removes the proof files (text or gzip) of the certificate in `dir`, if there are any.
pub fn remove_proofs(dir: &Path) -> io::Result<()> {
    for name in [PROOF, PROOF_GZ] {
        match std::fs::remove_file(dir.join(name)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    Ok(())
}

/// The gzip level: the fastest. Measured on the 73 MB proof of knight domination 15x15 (the
/// `gzip` command, one run): level 1 took 0.67 s for 27 MB, level 6 (zlib's default) 3.33 s
/// for 23 MB; level 6 cost more than the search that made the proof.
fn level() -> Compression {
    Compression::fast()
}

/// Compresses the file `from` into the gzip file `to`.
fn compress(from: &Path, to: &Path) -> io::Result<()> {
    let mut encoder = GzEncoder::new(BufWriter::new(File::create(to)?), level());
    io::copy(&mut BufReader::with_capacity(1 << 16, File::open(from)?), &mut encoder)?;
    encoder.finish()?.flush()
}

/// The proof file of the certificate in `dir`, or why there is not exactly one.
pub fn find(dir: &Path) -> Result<PathBuf, String> {
    match (dir.join(PROOF).is_file(), dir.join(PROOF_GZ).is_file()) {
        (true, false) => Ok(dir.join(PROOF)),
        (false, true) => Ok(dir.join(PROOF_GZ)),
        (true, true) => {
            Err(format!("{} holds both {PROOF} and {PROOF_GZ}; a certificate has one proof", dir.display()))
        }
        (false, false) => Err(format!("{} has neither {PROOF} nor {PROOF_GZ}", dir.display())),
    }
}

/// Opens a proof for reading line by line, decompressing it when it starts as gzip does.
pub fn open(path: &Path) -> io::Result<Box<dyn BufRead + Send>> {
    let mut file = File::open(path)?;
    let mut magic = [0u8; 2];
    let read = read_up_to(&mut file, &mut magic)?;
    let start = io::Cursor::new(magic[..read].to_vec()).chain(file);
    Ok(if read == 2 && magic == GZIP_MAGIC {
        Box::new(BufReader::with_capacity(1 << 16, MultiGzDecoder::new(start)))
    } else {
        Box::new(BufReader::with_capacity(1 << 16, start))
    })
}

/// Reads until `buf` is full or the input ends; how many bytes were read.
fn read_up_to(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty directory for one test, which removes it once its checks have passed.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("knights-sat-proof-file-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn round_trip(compression: ProofCompression, name: &str) -> (StoredProof, String) {
        let dir = scratch(name);
        let mut proof = ProofWriter::create(&dir, compression).unwrap();
        for i in 0..1000 {
            writeln!(proof.writer(), "rup +1 x{i} >= 1 ;").unwrap();
        }
        let stored = proof.finish().unwrap();
        assert_eq!(find(&dir).unwrap(), stored.path);
        let mut text = String::new();
        open(&stored.path).unwrap().read_to_string(&mut text).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        (stored, text)
    }

    #[test]
    fn text_and_gzip_read_back_the_same_lines() {
        let (plain, text) = round_trip(ProofCompression::None, "none");
        let (gzip, unzipped) = round_trip(ProofCompression::Gzip, "gzip");
        assert_eq!(text, unzipped);
        assert_eq!(text.lines().count(), 1000);
        assert_eq!((plain.lines, gzip.lines), (1000, 1000));
        assert_eq!(plain.text_bytes, text.len() as u64);
        assert_eq!(plain.stored_bytes, plain.text_bytes);
        assert!(gzip.path.ends_with(PROOF_GZ));
        assert!(gzip.stored_bytes * 5 < gzip.text_bytes, "{gzip:?}");
    }

    #[test]
    fn auto_keeps_a_short_proof_as_text_and_compresses_a_long_one() {
        let (stored, _) = round_trip(ProofCompression::Auto, "auto");
        assert!(stored.path.ends_with(PROOF));
        let dir = scratch("auto-long");
        let mut proof = ProofWriter::create(&dir, ProofCompression::Auto).unwrap();
        proof.auto_threshold = 100;
        for i in 0..100 {
            writeln!(proof.writer(), "rup +1 x{i} >= 1 ;").unwrap();
        }
        let stored = proof.finish().unwrap();
        assert!(stored.path.ends_with(PROOF_GZ), "{stored:?}");
        assert!(!dir.join(PROOF).exists());
        let mut text = String::new();
        open(&stored.path).unwrap().read_to_string(&mut text).unwrap();
        assert_eq!((text.lines().count(), text.len() as u64), (100, stored.text_bytes));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The gzip copy made alongside the text is the proof once it is long, and is dropped when
    /// the proof stays short.
    #[test]
    fn auto_compresses_alongside_the_text_and_keeps_what_the_length_asks() {
        for (threshold, compressed) in [(100, true), (1 << 20, false)] {
            let dir = scratch(&format!("auto-alongside-{threshold}"));
            let mut proof = ProofWriter::create(&dir, ProofCompression::Auto).unwrap();
            proof.auto_threshold = threshold;
            proof.copy_from(50);
            for i in 0..20_000 {
                writeln!(proof.writer(), "rup +1 x{i} >= 1 ;").unwrap();
            }
            let stored = proof.finish().unwrap();
            assert_eq!(stored.path.ends_with(PROOF_GZ), compressed, "{stored:?}");
            assert_eq!(find(&dir).unwrap(), stored.path, "one proof file is left");
            let mut text = String::new();
            open(&stored.path).unwrap().read_to_string(&mut text).unwrap();
            assert_eq!((text.lines().count(), text.len() as u64), (20_000, stored.text_bytes));
            assert!(text.ends_with("rup +1 x19999 >= 1 ;\n"));
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

    #[test]
    fn a_new_proof_replaces_the_old_one_whatever_its_form() {
        let dir = scratch("replace");
        ProofWriter::create(&dir, ProofCompression::Gzip).unwrap().finish().unwrap();
        ProofWriter::create(&dir, ProofCompression::None).unwrap().finish().unwrap();
        assert_eq!(find(&dir).unwrap(), dir.join(PROOF));
        std::fs::write(dir.join(PROOF_GZ), b"").unwrap();
        assert!(find(&dir).unwrap_err().contains("both"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn compression_names_parse() {
        for name in ProofCompression::NAMES {
            assert_eq!(name.parse::<ProofCompression>().unwrap().to_string(), name);
        }
        assert!("zip".parse::<ProofCompression>().unwrap_err().contains("auto, none, gzip"));
    }
}
