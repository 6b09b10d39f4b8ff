//! `batchcrypto msm`: one multi-scalar multiplication of the points in one
//! binary file and the scalars in another (no JSON): points back to back in
//! the curve's uncompressed encoding (`bn254-g1`: x ‖ y, 32-byte big-endian,
//! (0, 0) the identity; `bls12-381-g1`/`-g2`: blst's 96/192-byte form) or,
//! with `--encoding compressed`, its compressed one (`bn254-g1`: arkworks'
//! 32 bytes; BLS12-381: ZCash's 48/96 bytes), scalars 32 bytes
//! little-endian each, one per point. The output is the sum in the points'
//! encoding. A bad point gives its reason on
//! stderr (`malformed_point`, `not_on_curve`, `point_not_in_subgroup`),
//! no output and exit status 2; files of different counts are a usage
//! error (3). See the library's `ops::msm`.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use batchcrypto::ops::msm::{Curve, Encoding};

use crate::output::{Output, write_failed};
use crate::{EXIT_MALFORMED, Fatal};

#[derive(clap::Args)]
pub struct Args {
    /// bn254-g1, bls12-381-g1 or bls12-381-g2.
    #[arg(long)]
    curve: Curve,
    /// File of points (`-`: stdin).
    #[arg(long)]
    points: PathBuf,
    /// uncompressed or compressed: how the points are written, and the sum.
    #[arg(long, default_value = "uncompressed")]
    encoding: Encoding,
    /// File of scalars, 32 bytes little-endian each (`-`: stdin, if the points are not).
    #[arg(long)]
    scalars: PathBuf,
    /// Output file for the sum; `-` writes stdout.
    #[arg(long, default_value = "-")]
    output: PathBuf,
    #[command(flatten)]
    engine: crate::EngineArgs,
}

fn read_all(path: &Path, what: &str) -> Result<Vec<u8>, Fatal> {
    let mut bytes = Vec::new();
    let read = if path.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut bytes))
    };
    read.map_err(|e| Fatal(format!("--{what} {}: {e}", path.display())))?;
    Ok(bytes)
}

pub fn run(args: Args) -> Result<ExitCode, Fatal> {
    if args.points.as_os_str() == "-" && args.scalars.as_os_str() == "-" {
        return Err(Fatal("--points and --scalars cannot both read stdin".to_string()));
    }
    let engine = args.engine.engine()?;
    let points = read_all(&args.points, "points")?;
    let scalars = read_all(&args.scalars, "scalars")?;
    let (curve, encoding) = (args.curve, args.encoding);
    let start = std::time::Instant::now();
    let outcome = engine.msm(curve, encoding, &points, &scalars)?;
    let terms = points.len() / curve.encoded_len(encoding);
    eprintln!(
        "batchcrypto msm --curve {curve} --encoding {encoding}: {terms} terms; backend {}; {:.3} s",
        outcome.selection,
        start.elapsed().as_secs_f64()
    );
    match outcome.output {
        Ok(sum) => {
            let mut output = Output::open(&args.output, Some(&args.points))?;
            output.write_all(&sum).map_err(write_failed)?;
            output.commit()?;
            Ok(ExitCode::SUCCESS)
        }
        Err(reason) => {
            eprintln!(
                "batchcrypto: error: a point is refused: {}; no sum was written",
                reason.code()
            );
            Ok(ExitCode::from(EXIT_MALFORMED))
        }
    }
}

/// `msm` as the service runs it: a request's body is one MSM, its points
/// (in `--encoding`) then its scalars, so that each term is a record of a
/// point and a scalar's bytes; the answer is the sum. Requests of one curve
/// and encoding share a batch, one engine call each.
#[cfg(feature = "serve")]
pub fn served(args: Args) -> crate::serve::Served {
    let (curve, encoding) = (args.curve, args.encoding);
    crate::serve::Served {
        verb: Box::new(MsmVerb { curve, encoding }),
        title: format!("msm --curve {curve} --encoding {encoding}"),
        // Without terms the sum is the identity, as the CLI writes it.
        whole: true,
    }
}

#[cfg(feature = "serve")]
struct MsmVerb {
    curve: Curve,
    encoding: Encoding,
}

#[cfg(feature = "serve")]
impl MsmVerb {
    /// A term's bytes in the body: its point and its scalar.
    fn term_len(&self) -> usize {
        self.curve.encoded_len(self.encoding) + batchcrypto::ops::msm::SCALAR_LEN
    }
}

#[cfg(feature = "serve")]
impl crate::serve::ServeVerb for MsmVerb {
    fn record(&self) -> Option<usize> {
        Some(self.term_len())
    }

    fn answer(
        &self,
        engine: &batchcrypto::Engine,
        requests: &[&crate::serve::Payload],
    ) -> Result<crate::serve::Outputs, Fatal> {
        let point = self.curve.encoded_len(self.encoding);
        let mut selection = None;
        let mut outputs = Vec::with_capacity(requests.len());
        for request in requests {
            let body = request.records()?;
            let (points, scalars) = body.split_at(body.len() / self.term_len() * point);
            let outcome = engine.msm(self.curve, self.encoding, points, scalars)?;
            selection = Some(outcome.selection);
            outputs.push(match outcome.output {
                Ok(sum) => Ok(crate::serve::Output {
                    body: sum,
                    refused: Vec::new(),
                }),
                Err(reason) => Err(format!("a point is refused: {}; no sum", reason.code())),
            });
        }
        Ok((outputs, selection))
    }
}
