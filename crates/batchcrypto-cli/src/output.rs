//! Where a verb's answers go, so that no input and no earlier answer is ever
//! lost to a failed or interrupted run.
//!
//! - `--output -` writes stdout. A reader that goes away (`| head -1`) ends
//!   the run quietly with status 0, as ripgrep does ([`write_failed`]).
//! - `--output FILE` for a regular (or new) file writes a temporary file in
//!   the same folder, renamed over FILE only by [`Output::commit`] when the
//!   run completes: an earlier FILE survives any failure. An interrupted
//!   run keeps what it answered in `FILE.partial` ([`Output::keep_partial`]).
//!   Other files (`/dev/null`, a FIFO) are written in place.
//! - The output may not be the input: the same file (same device and inode,
//!   through links too) is refused before anything is opened for writing,
//!   also when stdout is redirected into the input file.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::Fatal;

/// The buffered destination of a run.
pub struct Output {
    writer: BufWriter<Box<dyn Write>>,
    /// (temporary file, destination) while a file is written by rename.
    rename: Option<(PathBuf, PathBuf)>,
}

fn is_dash(p: &Path) -> bool {
    p.as_os_str() == "-"
}

impl Output {
    /// Opens `path` (`-`: stdout), refusing the file `input` reads.
    pub fn open(path: &Path, input: Option<&Path>) -> Result<Output, Fatal> {
        let input = input.filter(|p| !is_dash(p));
        if let Some(input) = input {
            let same = if is_dash(path) {
                same_file(input, Path::new("/dev/stdout"))
            } else {
                same_file(input, path)
            };
            if same {
                return Err(Fatal(format!(
                    "--output {} is the input file {}: it would be overwritten before it is read; write elsewhere",
                    if is_dash(path) {
                        "(stdout)".into()
                    } else {
                        path.display().to_string()
                    },
                    input.display()
                )));
            }
        }
        if is_dash(path) {
            return Ok(Output {
                writer: BufWriter::with_capacity(1 << 20, Box::new(io::stdout())),
                rename: None,
            });
        }
        let in_place = fs::metadata(path).is_ok_and(|m| !m.is_file());
        if in_place {
            let file = OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| Fatal(format!("cannot open output {}: {e}", path.display())))?;
            return Ok(Output {
                writer: BufWriter::with_capacity(1 << 20, Box::new(file)),
                rename: None,
            });
        }
        let (temp, file) = temp_beside(path)?;
        Ok(Output {
            writer: BufWriter::with_capacity(1 << 20, Box::new(file)),
            rename: Some((temp, path.to_path_buf())),
        })
    }

    /// Flushes and moves the answers into place: the run is complete.
    pub fn commit(mut self) -> Result<(), Fatal> {
        self.writer.flush().map_err(write_failed)?;
        if let Some((temp, dest)) = self.rename.take() {
            fs::rename(&temp, &dest).map_err(|e| {
                let _ = fs::remove_file(&temp);
                Fatal(format!("cannot move the output into place at {}: {e}", dest.display()))
            })?;
        }
        Ok(())
    }

    /// Flushes what was answered and, for a file, moves it to `FILE.partial`
    /// (the destination keeps its old content). Returns where the answers are.
    pub fn keep_partial(mut self) -> Result<Option<PathBuf>, Fatal> {
        self.writer.flush().map_err(write_failed)?;
        match self.rename.take() {
            Some((temp, dest)) => {
                let mut partial = dest.into_os_string();
                partial.push(".partial");
                let partial = PathBuf::from(partial);
                fs::rename(&temp, &partial)
                    .map_err(|e| Fatal(format!("cannot keep the partial output at {}: {e}", partial.display())))?;
                Ok(Some(partial))
            }
            None => Ok(None),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer.flush()
    }
}

impl Drop for Output {
    /// A run that neither committed nor kept its answers leaves no
    /// temporary file behind.
    fn drop(&mut self) {
        if let Some((temp, _)) = self.rename.take() {
            let _ = fs::remove_file(temp);
        }
    }
}

/// A new file next to `dest`, named after it and this process.
fn temp_beside(dest: &Path) -> Result<(PathBuf, File), Fatal> {
    let name = dest
        .file_name()
        .ok_or_else(|| Fatal(format!("--output {}: not a file name", dest.display())))?;
    let dir = dest
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    for n in 0..100u32 {
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".batchcrypto-{}-{n}.tmp", std::process::id()));
        let temp = dir.join(temp_name);
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(Fatal(format!("cannot create output {}: {e}", dest.display()))),
        }
    }
    Err(Fatal(format!(
        "cannot create a temporary file beside {}",
        dest.display()
    )))
}

/// Whether `a` and `b` name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(ma), Ok(mb)) = (fs::metadata(a), fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        ma.dev() == mb.dev() && ma.ino() == mb.ino() && ma.is_file()
    }
    #[cfg(not(unix))]
    {
        ma.is_file() && mb.is_file() && fs::canonicalize(a).ok() == fs::canonicalize(b).ok()
    }
}

/// The error of a failed write. A closed pipe on the other end (`| head`)
/// is not a failure of this run: the process ends here, quietly, status 0.
pub fn write_failed(e: io::Error) -> Fatal {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    Fatal(format!("writing output: {e}"))
}

/// Writes a line to stdout; a closed pipe ends the process quietly
/// ([`write_failed`]). For the verbs that print reports.
pub fn print_line(line: impl std::fmt::Display) -> Result<(), Fatal> {
    let mut out = io::stdout().lock();
    writeln!(out, "{line}").map_err(write_failed)
}

/// `println!` for report verbs: a closed pipe ends the process quietly
/// ([`write_failed`]) instead of a panic. Used where `?` returns [`Fatal`].
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::output::print_line(format_args!($($arg)*))?
    };
}
pub(crate) use outln;

/// Writes text to stdout as it is, like `print!` ([`print_line`] for lines).
pub fn print_str(text: &str) -> Result<(), Fatal> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes()).map_err(write_failed)
}
