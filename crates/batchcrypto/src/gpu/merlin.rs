//! merlin transcripts (merlin 3.0, the transcripts of schnorrkel and of
//! many Polkadot protocols) compiled into programs for the device's
//! STROBE-128 interpreter (`wgsl/strobe.wgsl`).
//!
//! A transcript is written here as merlin's own calls ([`Call`]): the
//! renderer expands each into STROBE operations exactly as merlin's
//! `Transcript` does (`append_message(label, m)`: meta_ad(label),
//! meta_ad(len(m) as u32 LE, continuing), ad(m); `challenge_bytes(label,
//! n)`: meta_ad(label), meta_ad(n, continuing), prf(n)), after
//! `Transcript::new(label)`: STROBE's initial state, meta_ad("Merlin
//! v1.0"), append_message("dom-sep", label). The initial state (STROBE's
//! parameter block through Keccak-f[1600]) is computed here with the
//! `keccak` crate, merlin's own permutation.

use std::fmt::Write;

use super::shaders::u32_array;

/// STROBE's rate for a 128-bit security level (bytes).
const STROBE_R: u8 = 166;
/// STROBE operation flags (merlin's strobe.rs).
const FLAG_I: u32 = 1;
const FLAG_A: u32 = 1 << 1;
const FLAG_C: u32 = 1 << 2;
const FLAG_M: u32 = 1 << 4;

/// Sources of the bytes a segment absorbs (strobe.wgsl); kernels number
/// their item sources from [`SRC_ITEM`].
const SRC_CONST: u32 = 0;
const SRC_U32: u32 = 1;
const SRC_LEN_OF: u32 = 2;
/// The first source number a kernel may give its own bytes.
pub(crate) const SRC_ITEM: u32 = 3;

/// The message of an `append_message`.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Bytes {
    /// The same bytes for every item.
    Const(&'static [u8]),
    /// The kernel's source `n` (at least [`SRC_ITEM`]), per item.
    Item(u32),
}

/// One call on a merlin `Transcript`.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Call {
    /// `append_message(label, bytes)`.
    Append(&'static [u8], Bytes),
    /// `challenge_bytes(label, n)` (the last call; n < 166).
    Challenge(&'static [u8], u32),
}

/// merlin's protocol label.
const MERLIN_PROTOCOL_LABEL: &[u8] = b"Merlin v1.0";

/// A transcript's program for strobe.wgsl.
struct Program {
    /// (flags, source, arg, len) per segment.
    segments: Vec<[u32; 4]>,
    /// The constant bytes segments read.
    bytes: Vec<u8>,
}

impl Program {
    fn segment(&mut self, flags: u32, source: u32, arg: u32, len: u32) {
        self.segments.push([flags, source, arg, len]);
    }

    /// A segment absorbing constant bytes.
    fn constant(&mut self, flags: u32, data: &[u8]) {
        let arg = self.bytes.len() as u32;
        self.bytes.extend_from_slice(data);
        self.segment(flags, SRC_CONST, arg, data.len() as u32);
    }

    /// merlin's `append_message(label, message)`.
    fn append(&mut self, label: &[u8], message: Bytes) {
        self.constant(FLAG_M | FLAG_A, label);
        match message {
            Bytes::Const(data) => {
                self.segment(0, SRC_U32, data.len() as u32, 4);
                self.constant(FLAG_A, data);
            }
            Bytes::Item(src) => {
                assert!(src >= SRC_ITEM, "item sources start at {SRC_ITEM}");
                self.segment(0, SRC_LEN_OF, src, 4);
                self.segment(FLAG_A, src, 0, 0);
            }
        }
    }
}

/// The state after STROBE-128's initialisation (before the protocol label
/// is absorbed), as 25 little-endian lanes.
fn strobe_init() -> [u64; 25] {
    let mut bytes = [0u8; 200];
    bytes[..6].copy_from_slice(&[1, STROBE_R + 2, 1, 0, 1, 96]);
    bytes[6..18].copy_from_slice(b"STROBEv1.0.2");
    let mut lanes: [u64; 25] = std::array::from_fn(|i| u64::from_le_bytes(std::array::from_fn(|b| bytes[8 * i + b])));
    keccak::f1600(&mut lanes);
    lanes
}

/// The WGSL constants of the program for `Transcript::new(label)` followed
/// by `calls`, which must end with the one [`Call::Challenge`].
pub(crate) fn render(label: &'static [u8], calls: &[Call]) -> String {
    let mut p = Program {
        segments: Vec::new(),
        bytes: Vec::new(),
    };
    p.constant(FLAG_M | FLAG_A, MERLIN_PROTOCOL_LABEL);
    p.append(b"dom-sep", Bytes::Const(label));
    for (i, call) in calls.iter().enumerate() {
        match *call {
            Call::Append(label, message) => p.append(label, message),
            Call::Challenge(label, n) => {
                assert!(i + 1 == calls.len(), "the challenge ends the transcript");
                assert!(n < u32::from(STROBE_R), "one block of output");
                p.constant(FLAG_M | FLAG_A, label);
                p.segment(0, SRC_U32, n, 4);
                p.segment(FLAG_I | FLAG_A | FLAG_C, SRC_CONST, 0, 0);
            }
        }
    }
    assert!(
        matches!(calls.last(), Some(Call::Challenge(..))),
        "a transcript program ends with its challenge"
    );
    let mut src = format!(
        "const STROBE_SRC_CONST: u32 = {SRC_CONST}u;\nconst STROBE_SRC_U32: u32 = {SRC_U32}u;\nconst STROBE_SRC_LEN_OF: u32 = {SRC_LEN_OF}u;\nconst STROBE_SEGS: u32 = {}u;\n",
        p.segments.len()
    );
    let segs: Vec<String> = p
        .segments
        .iter()
        .map(|s| format!("vec4<u32>({}u, {}u, {}u, {}u)", s[0], s[1], s[2], s[3]))
        .collect();
    let _ = writeln!(
        src,
        "const STROBE_SEG = array<vec4<u32>, {}>({});",
        segs.len(),
        segs.join(", ")
    );
    // At least one entry: WGSL has no empty arrays.
    let mut bytes: Vec<u32> = p.bytes.iter().map(|b| u32::from(*b)).collect();
    if bytes.is_empty() {
        bytes.push(0);
    }
    src += &u32_array("STROBE_BYTES", &bytes);
    // A constructor, not a `const` array: naga types a const array apart
    // from the `array<Lane, 25>` of a variable.
    let lanes: Vec<String> = strobe_init().iter().map(|v| format!("{v:#018x}lu")).collect();
    let _ = writeln!(
        src,
        "fn strobe_init() -> array<Lane, 25> {{\n    return array<Lane, 25>({});\n}}",
        lanes.join(", ")
    );
    src
}
