//! `cli`: the service's request path (the CLI's own verbs), from the
//! bytes a caller sends to the bytes it gets back, without the network.
//!
//! An input's first byte picks an operation (modulo 128): one of [`ROUTES`]
//! (every operation the service runs, with options), or, past them, a
//! route the input writes itself (its text up to the first newline: path
//! words and a query). The second byte says where to cut the request into three. The
//! rest is the request's body: JSON Lines, or a binary verb's records
//! (`msm`'s terms: the library's sample points, edited by the input, and
//! scalars from it). What must hold, for any input (a failure is a crash
//! that libFuzzer keeps):
//!
//! - nothing panics: not the query's decoding, the route's parsing, the
//!   body's splitting into lines, nor a verb's parsing, running or writing;
//! - the query decodes as `application/x-www-form-urlencoded` says
//!   (`%XX` with two hex digits, `+` a space; anything else after `%` is an
//!   error), checked against a decoder written here;
//! - a JSON Lines request gets one JSON object per line, an error naming
//!   its own line (`merkle`: the root, or one error per bad line);
//! - requests answered together in one batch (as a lane runs them) get
//!   exactly what each gets alone, and, for verbs that answer item by item,
//!   the three parts' answers are the whole request's (line numbers
//!   counted within each request);
//! - a lane's title names its verb: a route whose title is a listed
//!   route's gets the listed route's answers.
//!
//! The answers themselves are the library's, which the other targets
//! compare with the oracles; the CLI's golden files hold the verbs' fields.
//! `crates/batchcrypto-cli/tests/fuzz.rs` replays the committed inputs.

use std::sync::OnceLock;

use batchcrypto::Engine;
use batchcrypto::ops::msm::{self, Curve};
use batchcrypto_cli::fuzzing::{Output, Payload, Served, body_lines, job, query_pairs};

/// The operations an input's first byte picks, as a route's path (after
/// `/v1/`) and query. A blob, or the 64 cells a recovery needs, makes a
/// line past [`MAX_LINE_BYTES`]: the KZG routes run short lines (their
/// counts, indices and fields are what is fuzzed there).
pub const ROUTES: [&str; 67] = [
    "verify/ed25519",
    "verify/ed25519?policy=zip215",
    "verify/secp256k1",
    "verify/secp256k1?low_s=true",
    "ecrecover",
    "ecrecover?low-s=1",
    "verify/p256",
    "verify/bip340",
    "verify/sr25519",
    "verify/sr25519?context=polkadot",
    "verify/bls",
    "verify/bls?batch=true",
    "verify/bls-aggregate",
    "verify/bls-fast-aggregate",
    "verify/ml-dsa-44",
    "verify/ml-dsa-65",
    "verify/ml-dsa-87",
    "hash/keccak256",
    "hash/sha3-256",
    "hash/sha256",
    "merkle",
    "merkle?hash=sha256&proof=0,2,5",
    "merkle?hash=keccak256&proof=1",
    "mlkem/keygen?set=512",
    "mlkem/keygen",
    "mlkem/keygen?set=1024",
    "mlkem/encaps?set=512",
    "mlkem/encaps",
    "mlkem/encaps?set=1024",
    "mlkem/decaps?set=512",
    "mlkem/decaps",
    "mlkem/decaps?set=1024",
    "evm/bn256-add",
    "evm/bn256-mul",
    "evm/bn256-pairing",
    "evm/bls-g1msm",
    "evm/bls-g2msm",
    "eip2537-pairing",
    "hash/keccak256?raw=32",
    "hash/sha256?raw=64",
    "hash/sha3-256?raw=1",
    "ntt?field=goldilocks&log_n=2",
    "ntt?field=bn254-fr&log_n=1&inverse=true",
    "ntt?field=bls12-381-fr&log_n=2&input_order=bit-reversed",
    "ntt?field=goldilocks-negacyclic&log_n=4",
    "msm?curve=bn254-g1",
    "msm?curve=bls12-381-g1",
    "msm?curve=bls12-381-g2",
    "evm/bls-g1add",
    "evm/bls-g2add",
    "evm/bls-map-g1",
    "evm/bls-map-g2",
    "evm/point-evaluation",
    "verify/kzg-cell",
    "evm/modexp",
    "evm/ecrecover",
    "evm/sha256",
    "evm/ripemd160",
    "evm/identity",
    "evm/p256verify",
    "verify/slh-dsa?set=sha2-128s",
    "poseidon",
    "kzg/compute-cells",
    "kzg/recover-cells",
    "hash/blake2b-256",
    "hash/blake3",
    "hash/blake3?raw=64",
];

/// What an input's first byte picks from, modulo: a listed route below
/// [`ROUTES`]' length, a written route from it (67 to 127).
pub const CHOICES: usize = 128;
const _: () = assert!(ROUTES.len() < CHOICES);

/// Lines or records a request may hold here (the service allows 65,536;
/// the batches' own limits are the other targets' work).
const MAX_ITEMS: usize = 48;
/// The longest line (the service's `--max-request-bytes`, 64 MiB by
/// default, is its cap too): long enough for an ML-DSA-87 item.
const MAX_LINE_BYTES: usize = 20_000;

/// One input through the request path on `engine` (a CPU engine for the
/// campaigns and the replay).
pub fn check(engine: &Engine, data: &[u8]) {
    let [choice, cuts, rest @ ..] = data else {
        return;
    };
    let listed = usize::from(*choice) % CHOICES;
    let (route, body) = match ROUTES.get(listed) {
        Some(route) => (route.as_bytes(), rest),
        None => match rest.iter().position(|&b| b == b'\n') {
            Some(at) => (&rest[..at], &rest[at + 1..]),
            None => (rest, &[][..]),
        },
    };
    let Ok(route) = std::str::from_utf8(route) else {
        return;
    };
    let (path, query) = route.split_once('?').unwrap_or((route, ""));
    let words: Vec<&str> = path.split('/').filter(|w| !w.is_empty()).collect();
    let params = query_pairs(query);
    assert_eq!(
        params.as_ref().ok(),
        form_decoded(query).as_ref(),
        "query {query:?} decoded as {params:?}"
    );
    let Ok(params) = params else {
        return;
    };
    let served = match job(&words, &params) {
        Ok(served) => served,
        Err(_) if listed < ROUTES.len() => panic!("listed route {route:?} refused"),
        Err(_) => return,
    };
    let Some(items) = items(&served, body) else {
        return;
    };
    let answers = answered(engine, &served, &items, *cuts);
    if listed >= ROUTES.len()
        && let Some((other, listed_route)) = listed_with_title(&served.title)
    {
        let theirs = answered(engine, other, &items, *cuts);
        assert_eq!(
            answers, theirs,
            "route {route:?} and {listed_route:?} share the title {:?}",
            served.title
        );
    }
}

/// A request's items: its lines, or a binary verb's records.
enum Items {
    Lines(Vec<Result<String, String>>),
    Records(Vec<Vec<u8>>),
    /// `msm`'s terms: a point and a scalar each.
    Terms(Vec<(Vec<u8>, Vec<u8>)>),
}

impl Items {
    fn len(&self) -> usize {
        match self {
            Items::Lines(v) => v.len(),
            Items::Records(v) => v.len(),
            Items::Terms(v) => v.len(),
        }
    }

    /// Items `range` as one request.
    fn payload(&self, range: std::ops::Range<usize>) -> Payload {
        match self {
            Items::Lines(v) => Payload::Lines(v[range].to_vec()),
            Items::Records(v) => Payload::Records(v[range].concat()),
            Items::Terms(v) => {
                let terms = &v[range];
                let points = terms.iter().flat_map(|(p, _)| p.iter().copied());
                Payload::Records(
                    points
                        .chain(terms.iter().flat_map(|(_, s)| s.iter().copied()))
                        .collect(),
                )
            }
        }
    }
}

/// The body as the verb reads it: its lines, or its whole records (a
/// last partial one, which the service refuses with the whole request, is
/// left out); `None`: more than [`MAX_ITEMS`].
fn items(served: &Served, body: &[u8]) -> Option<Items> {
    let Some(record) = served.verb.record() else {
        let lines = body_lines(body, MAX_LINE_BYTES, MAX_ITEMS).unwrap_or_else(|e| panic!("reading a body: {e}"))?;
        return Some(Items::Lines(lines));
    };
    if let Some(curve) = msm_curve(&served.title) {
        return Some(Items::Terms(terms(curve, body)));
    }
    let records: Vec<Vec<u8>> = body.chunks_exact(record).map(<[u8]>::to_vec).collect();
    (records.len() <= MAX_ITEMS).then_some(Items::Records(records))
}

/// The curve of an `msm` lane whose points are uncompressed (the sample
/// points' encoding); a compressed one takes the body as it is.
fn msm_curve(title: &str) -> Option<Curve> {
    let rest = title.strip_prefix("msm --curve ")?;
    let curve = rest.strip_suffix(" --encoding uncompressed")?;
    curve.parse().ok()
}

/// Up to 16 terms: the sample points, their bytes edited by the triples
/// (offset high, offset low, xor) after the scalars.
fn terms(curve: Curve, body: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let n = (body.len() / msm::SCALAR_LEN).min(16);
    let (scalars, edits) = body.split_at(n * msm::SCALAR_LEN);
    let mut points = msm::sample::points(curve, n, 1);
    let len = curve.point_len();
    for edit in edits.chunks_exact(3) {
        if n == 0 {
            break;
        }
        let at = usize::from(u16::from_be_bytes([edit[0], edit[1]])) % (n * len);
        points[at / len][at % len] ^= edit[2];
    }
    points
        .into_iter()
        .zip(scalars.chunks_exact(msm::SCALAR_LEN).map(<[u8]>::to_vec))
        .collect()
}

/// A request's answer, comparable across runs: an output's lines with
/// random values masked (encapsulation without `m`), or the refusal.
type Answer = Result<(Vec<u8>, Vec<(usize, String)>), String>;

/// The whole request's answer, after checking it against the three parts'
/// answers together (one batch) and alone.
fn answered(engine: &Engine, served: &Served, items: &Items, cuts: u8) -> Answer {
    let n = items.len();
    let a = n * usize::from(cuts >> 4) / 16;
    let b = (n * usize::from(cuts & 15) / 16).max(a);
    let parts = [items.payload(0..a), items.payload(a..b), items.payload(b..n)];
    let whole = items.payload(0..n);
    let random = served.title.starts_with("mlkem encaps");
    let run = |requests: &[&Payload]| -> Vec<Answer> {
        let (outputs, _) = served
            .verb
            .answer(engine, requests)
            .unwrap_or_else(|e| panic!("{}: the engine failed: {}", served.title, e.0));
        assert_eq!(outputs.len(), requests.len(), "{}: answers for requests", served.title);
        outputs
            .into_iter()
            .zip(requests)
            .map(|(out, request)| out.map(|o| checked(served, request, o, random)))
            .collect()
    };
    let whole = run(&[&whole]).remove(0);
    let together = run(&[&parts[0], &parts[1], &parts[2]]);
    let alone: Vec<Answer> = parts.iter().flat_map(|p| run(&[p])).collect();
    assert_eq!(
        together, alone,
        "{}: a batch of three requests against each alone",
        served.title
    );
    if !served.whole {
        let mut joined = (Vec::new(), Vec::new());
        let mut first = 0;
        for (part, answer) in parts.iter().zip(&alone) {
            let (body, refused) = answer
                .as_ref()
                .unwrap_or_else(|e| panic!("{}: a request refused: {e}", served.title));
            match part {
                Payload::Lines(_) => joined.0.extend(renumbered(body, first)),
                Payload::Records(_) => joined.0.extend_from_slice(body),
            }
            joined.1.extend(refused.iter().map(|(i, why)| (i + first, why.clone())));
            first += part.items(served.verb.record());
        }
        assert_eq!(
            Ok(joined),
            whole,
            "{}: three requests' answers against the whole request's",
            served.title
        );
    }
    whole
}

/// `output` checked as a JSON Lines answer to `request` (one JSON object
/// per line, an error naming its own line), random values masked.
fn checked(served: &Served, request: &Payload, output: Output, random: bool) -> (Vec<u8>, Vec<(usize, String)>) {
    let Payload::Lines(lines) = request else {
        return (output.body, output.refused);
    };
    let text = String::from_utf8(output.body).unwrap_or_else(|e| panic!("{}: output not UTF-8: {e}", served.title));
    let out: Vec<&str> = text.lines().collect();
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "{}: unterminated output",
        served.title
    );
    if !served.whole {
        assert_eq!(out.len(), lines.len(), "{}: output lines for input lines", served.title);
    }
    let mut masked = String::new();
    for (k, line) in out.iter().enumerate() {
        let value: serde_json::Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("{}: output line {}: {e}: {line}", served.title, k + 1));
        let object = value
            .as_object()
            .unwrap_or_else(|| panic!("{}: output line {} not an object: {line}", served.title, k + 1));
        match object.get("error") {
            Some(error) => {
                let error = error
                    .as_str()
                    .unwrap_or_else(|| panic!("{}: error not a string: {line}", served.title));
                let number = error
                    .strip_prefix("line ")
                    .and_then(|e| e.split_once(':'))
                    .and_then(|(n, _)| n.parse::<usize>().ok());
                // `merkle` (one answer for all its lines) names the lines
                // it could not read, or says why there is no root.
                let named = match number {
                    Some(n) if served.whole => (1..=lines.len()).contains(&n),
                    Some(n) => n == k + 1,
                    None => served.whole,
                };
                assert!(named, "{}: output line {}: {line}", served.title, k + 1);
                masked.push_str(line);
            }
            None if random => masked.push_str("(random)"),
            None => masked.push_str(line),
        }
        masked.push('\n');
    }
    (masked.into_bytes(), output.refused)
}

/// JSON Lines `body` with each error's line number moved up by `by` (a
/// later part's lines are numbered from 1 within it).
fn renumbered(body: &[u8], by: usize) -> Vec<u8> {
    const PREFIX: &str = "{\"error\":\"line ";
    let text = std::str::from_utf8(body).unwrap_or_else(|e| panic!("output not UTF-8: {e}"));
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        let moved = line.strip_prefix(PREFIX).and_then(|rest| {
            let (n, tail) = rest.split_once(':')?;
            Some(format!("{PREFIX}{}:{tail}", n.parse::<usize>().ok()? + by))
        });
        out.push_str(moved.as_deref().unwrap_or(line));
    }
    out.into_bytes()
}

/// The listed route whose lane has `title`, and that route.
fn listed_with_title(title: &str) -> Option<(&'static Served, &'static str)> {
    static LISTED: OnceLock<Vec<(Served, &'static str)>> = OnceLock::new();
    let listed = LISTED.get_or_init(|| {
        ROUTES
            .iter()
            .map(|route| {
                let (path, query) = route.split_once('?').unwrap_or((route, ""));
                let words: Vec<&str> = path.split('/').collect();
                let params = query_pairs(query).unwrap_or_else(|e| panic!("{route}: {e}"));
                let served = job(&words, &params).unwrap_or_else(|e| panic!("{route}: {e}"));
                (served, *route)
            })
            .collect()
    });
    listed
        .iter()
        .find(|(served, _)| served.title == title)
        .map(|(served, route)| (served, *route))
}

/// A query's `(name, value)` pairs as `application/x-www-form-urlencoded`
/// decodes them (`&` between pairs, the first `=` between name and value,
/// `+` a space, `%` and two hex digits a byte), `None` where a `%` is not
/// followed by two hex digits or the bytes are not UTF-8: the rule the
/// service documents, written again to check it.
fn form_decoded(query: &str) -> Option<Vec<(String, String)>> {
    fn decode(s: &str) -> Option<String> {
        let mut out = Vec::new();
        let mut bytes = s.bytes();
        while let Some(b) = bytes.next() {
            out.push(match b {
                b'%' => {
                    let hi = char::from(bytes.next()?).to_digit(16)?;
                    let lo = char::from(bytes.next()?).to_digit(16)?;
                    u8::try_from(hi * 16 + lo).ok()?
                }
                b'+' => b' ',
                b => b,
            });
        }
        String::from_utf8(out).ok()
    }
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            Some((decode(name)?, decode(value)?))
        })
        .collect()
}
