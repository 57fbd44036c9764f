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
}

/// The proof file being written; [`ProofWriter::finish`] completes it.
pub struct ProofWriter {
    dir: PathBuf,
    compression: ProofCompression,
    auto_threshold: u64,
    out: Counting<Sink>,
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Text(w) => w.write(buf),
            Sink::Gzip(w) => w.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Text(w) => w.flush(),
            Sink::Gzip(w) => w.flush(),
        }
    }
}

impl ProofWriter {
    /// Starts the proof of the certificate in `dir`, removing a proof left there before.
    pub fn create(dir: &Path, compression: ProofCompression) -> io::Result<Self> {
        for name in [PROOF, PROOF_GZ] {
            match std::fs::remove_file(dir.join(name)) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
        }
        let sink = match compression {
            ProofCompression::Gzip => {
                let encoder = GzEncoder::new(BufWriter::new(File::create(dir.join(PROOF_GZ))?), level());
                Sink::Gzip(BufWriter::with_capacity(1 << 16, encoder))
            }
            ProofCompression::Auto | ProofCompression::None => {
                Sink::Text(BufWriter::new(File::create(dir.join(PROOF))?))
            }
        };
        Ok(Self {
            dir: dir.to_path_buf(),
            compression,
            auto_threshold: AUTO_GZIP_BYTES,
            out: Counting { inner: sink, bytes: 0, lines: 0 },
        })
    }

    /// Where the proof's text goes.
    pub fn writer(&mut self) -> &mut Counting<impl Write> {
        &mut self.out
    }

    /// Completes the file (compressing a long proof under `auto`) and returns its sizes.
    pub fn finish(self) -> io::Result<StoredProof> {
        let (text_bytes, lines) = (self.out.bytes, self.out.lines);
        let path = match self.out.inner {
            Sink::Text(mut w) => {
                w.flush()?;
                let text = self.dir.join(PROOF);
                if self.compression == ProofCompression::Auto && text_bytes > self.auto_threshold {
                    compress(&text, &self.dir.join(PROOF_GZ))?;
                    std::fs::remove_file(&text)?;
                    self.dir.join(PROOF_GZ)
                } else {
                    text
                }
            }
            Sink::Gzip(w) => {
                w.into_inner().map_err(|e| e.into_error())?.finish()?.flush()?;
                self.dir.join(PROOF_GZ)
            }
        };
        let stored_bytes = std::fs::metadata(&path)?.len();
        Ok(StoredProof { path, text_bytes, stored_bytes, lines })
    }
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
pub fn open(path: &Path) -> io::Result<Box<dyn BufRead>> {
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
    }

    #[test]
    fn a_new_proof_replaces_the_old_one_whatever_its_form() {
        let dir = scratch("replace");
        ProofWriter::create(&dir, ProofCompression::Gzip).unwrap().finish().unwrap();
        ProofWriter::create(&dir, ProofCompression::None).unwrap().finish().unwrap();
        assert_eq!(find(&dir).unwrap(), dir.join(PROOF));
        std::fs::write(dir.join(PROOF_GZ), b"").unwrap();
        assert!(find(&dir).unwrap_err().contains("both"));
    }

    #[test]
    fn compression_names_parse() {
        for name in ProofCompression::NAMES {
            assert_eq!(name.parse::<ProofCompression>().unwrap().to_string(), name);
        }
        assert!("zip".parse::<ProofCompression>().unwrap_err().contains("auto, none, gzip"));
    }
}
