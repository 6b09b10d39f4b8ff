//! snarkjs's JSON (circom's toolchain: `snarkjs zkey export
//! verificationkey`, `snarkjs groth16 prove`) as this module's encodings.
//!
//! Numbers are decimal strings (a `0x` hexadecimal string or a JSON
//! integer is taken too); points are projective triples as snarkjs writes
//! them, `[x, y, "1"]` for G1 and `[[x.c0, x.c1], [y.c0, y.c1], ["1",
//! "0"]]` for G2 (the real coefficient first, where EIP-197 puts it
//! second), a z of zero the point at infinity. A public input is kept as
//! written, up to 2^256 - 1: one not below r is the item's
//! `non_canonical_element`, not reduced.

use num_bigint::BigUint;
use serde_json::Value;

use super::{G1_LEN, G2_LEN, PROOF_LEN, WORD};
use crate::error::{Error, OpName};
use crate::ops::Op;

/// The protocol tags taken: snarkjs's, and `groth` as snarkjs before 0.2
/// (2020) wrote it.
const PROTOCOLS: [&str; 2] = ["groth16", "groth"];

/// BN254's `curve` tags.
const BN254: [&str; 2] = ["bn128", "bn254"];
/// BLS12-381's `curve` tags (snarkjs writes `bls12381`).
pub(crate) const BLS12_381: [&str; 3] = ["bls12381", "bls12_381", "bls12-381"];
/// Each curve's tags and the operation (and CLI verb) that takes its
/// objects.
const CURVE_OPS: [(&[&str], &str); 2] = [
    (&BN254, "groth16_verify_bn254, `verify groth16`,"),
    (&BLS12_381, "groth16_verify_bls12_381, `verify groth16-bls12-381`,"),
];

/// An error naming what was refused.
fn refuse(reason: String) -> Error {
    Error::InvalidInput {
        op: OpName::Op(Op::Groth16VerifyBn254),
        reason,
    }
}

/// A number: a decimal or `0x` string, or a JSON integer.
pub(crate) fn number(v: &Value, what: &str) -> Result<BigUint, String> {
    match v {
        Value::String(s) => match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            Some(hex) => BigUint::parse_bytes(hex.as_bytes(), 16),
            None => BigUint::parse_bytes(s.as_bytes(), 10),
        },
        Value::Number(n) => n.as_u64().map(BigUint::from),
        _ => None,
    }
    .ok_or_else(|| format!("{what} is not a number (a decimal or 0x string): {v}"))
}

/// A number up to 2^256 - 1 as a 32-byte big-endian word.
pub(crate) fn word_of(n: &BigUint, what: &str) -> Result<[u8; WORD], String> {
    let be = n.to_bytes_be();
    if be.len() > WORD {
        return Err(format!("{what} is above 2^256 - 1"));
    }
    let mut w = [0u8; WORD];
    w[WORD - be.len()..].copy_from_slice(&be);
    Ok(w)
}

/// A number as a 32-byte big-endian word.
pub fn word(v: &Value, what: &str) -> Result<[u8; WORD], Error> {
    number(v, what).and_then(|n| word_of(&n, what)).map_err(refuse)
}

/// The items of a JSON array of `len` entries.
fn array<'a>(v: &'a Value, len: usize, what: &str) -> Result<&'a [Value], String> {
    match v.as_array() {
        Some(a) if a.len() == len => Ok(a),
        _ => Err(format!("{what} is not an array of {len}")),
    }
}

/// Whether the projective z (a number, or an Fp2's two) is zero or one.
fn z_is_zero(z: &[BigUint], what: &str) -> Result<bool, String> {
    let zero = z.iter().all(|c| *c == BigUint::ZERO);
    if zero || (z[0] == BigUint::from(1u8) && z[1..].iter().all(|c| *c == BigUint::ZERO)) {
        return Ok(zero);
    }
    Err(format!("{what} is not affine: its z is neither 1 nor 0"))
}

/// A point's affine coordinates as snarkjs writes them (G1: x, y; G2:
/// x.c0, x.c1, y.c0, y.c1), `None` for the point at infinity.
pub(crate) type Coords = Option<Vec<BigUint>>;

/// A G1 point `[x, y, z]` (or `[x, y]`).
pub(crate) fn g1_coords(v: &Value, what: &str) -> Result<Coords, String> {
    let a = match v.as_array() {
        Some(a) if a.len() == 2 || a.len() == 3 => a,
        _ => return Err(format!("{what} is not a G1 point [x, y, z]")),
    };
    if a.len() == 3 && z_is_zero(&[number(&a[2], what)?], what)? {
        return Ok(None);
    }
    Ok(Some(vec![number(&a[0], what)?, number(&a[1], what)?]))
}

/// A G2 point `[[x.c0, x.c1], [y.c0, y.c1], [z.c0, z.c1]]` (or without z).
pub(crate) fn g2_coords(v: &Value, what: &str) -> Result<Coords, String> {
    let a = match v.as_array() {
        Some(a) if a.len() == 2 || a.len() == 3 => a,
        _ => return Err(format!("{what} is not a G2 point [[x0, x1], [y0, y1], [z0, z1]]")),
    };
    let pair = |v: &Value| -> Result<[BigUint; 2], String> {
        let p = array(v, 2, what)?;
        Ok([number(&p[0], what)?, number(&p[1], what)?])
    };
    if a.len() == 3 && z_is_zero(&pair(&a[2])?, what)? {
        return Ok(None);
    }
    let ([x0, x1], [y0, y1]) = (pair(&a[0])?, pair(&a[1])?);
    Ok(Some(vec![x0, x1, y0, y1]))
}

/// A G1 point as its EIP-197 encoding.
fn encode_g1(c: &Coords, what: &str) -> Result<[u8; G1_LEN], String> {
    let mut out = [0u8; G1_LEN];
    if let Some(c) = c {
        out[..WORD].copy_from_slice(&word_of(&c[0], what)?);
        out[WORD..].copy_from_slice(&word_of(&c[1], what)?);
    }
    Ok(out)
}

/// A G2 point as its EIP-197 encoding (x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0).
fn encode_g2(c: &Coords, what: &str) -> Result<[u8; G2_LEN], String> {
    let mut out = [0u8; G2_LEN];
    if let Some(c) = c {
        for (k, j) in [1, 0, 3, 2].into_iter().enumerate() {
            out[k * WORD..(k + 1) * WORD].copy_from_slice(&word_of(&c[j], what)?);
        }
    }
    Ok(out)
}

/// A G1 point `[x, y, z]` (or `[x, y]`) as its EIP-197 encoding.
pub fn g1(v: &Value, what: &str) -> Result<[u8; G1_LEN], Error> {
    g1_coords(v, what).and_then(|c| encode_g1(&c, what)).map_err(refuse)
}

/// A G2 point `[[x.c0, x.c1], [y.c0, y.c1], [z.c0, z.c1]]` as its
/// EIP-197 encoding (x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0).
pub fn g2(v: &Value, what: &str) -> Result<[u8; G2_LEN], Error> {
    g2_coords(v, what).and_then(|c| encode_g2(&c, what)).map_err(refuse)
}

/// Checks an optional string field against the values accepted.
fn tag(obj: &Value, field: &str, accepted: &[&str], what: &str) -> Result<(), String> {
    match obj.get(field) {
        None => Ok(()),
        Some(Value::String(s)) if accepted.contains(&s.as_str()) => Ok(()),
        Some(other) => {
            // The other curve's objects: say which operation takes them.
            let other_op = match other.as_str() {
                Some(c) if CURVE_OPS[0].0.contains(&c) => Some(CURVE_OPS[0].1),
                Some(c) if CURVE_OPS[1].0.contains(&c) => Some(CURVE_OPS[1].1),
                _ => None,
            };
            let hint = other_op.map(|op| format!(" ({op} takes it)")).unwrap_or_default();
            Err(format!(
                "{what}'s {field} is {other}, not {}{hint}",
                accepted.join(" or ")
            ))
        }
    }
}

/// A `verification_key.json`'s points, read for a key on a curve
/// `curves` names (snarkjs's `curve` tag, when there is one).
pub(crate) struct KeyJson {
    pub(crate) alpha: Coords,
    /// beta, gamma, delta.
    pub(crate) g2: [Coords; 3],
    pub(crate) ic: Vec<Coords>,
}

/// A `verification_key.json` read.
pub(crate) fn key_json(json: &str, curves: &[&str]) -> Result<KeyJson, String> {
    let v: Value = serde_json::from_str(json).map_err(|e| format!("the verifying key is not JSON: {e}"))?;
    tag(&v, "protocol", &PROTOCOLS, "the verifying key")?;
    tag(&v, "curve", curves, "the verifying key")?;
    let field = |name: &str| v.get(name).ok_or_else(|| format!("the verifying key has no {name}"));
    let ic = field("IC")?
        .as_array()
        .ok_or_else(|| "the verifying key's IC is not an array".to_string())?;
    if ic.is_empty() {
        return Err("the verifying key has no IC points".into());
    }
    if let Some(n) = v.get("nPublic")
        && n.as_u64() != Some(ic.len() as u64 - 1)
    {
        return Err(format!(
            "the verifying key's nPublic ({n}) is not its IC points less one ({})",
            ic.len() - 1
        ));
    }
    // snarkjs before 0.2 spelt alpha "alfa".
    let alpha = field("vk_alpha_1").or_else(|_| field("vk_alfa_1"))?;
    let g2 = |name: &str| field(name).and_then(|p| g2_coords(p, name));
    Ok(KeyJson {
        alpha: g1_coords(alpha, "vk_alpha_1")?,
        g2: [g2("vk_beta_2")?, g2("vk_gamma_2")?, g2("vk_delta_2")?],
        ic: ic
            .iter()
            .enumerate()
            .map(|(j, p)| g1_coords(p, &format!("IC[{j}]")))
            .collect::<Result<_, _>>()?,
    })
}

/// A `verification_key.json` as the key's encoding (for
/// [`super::VerifyingKey::from_bytes`]).
pub fn verifying_key(json: &str) -> Result<Vec<u8>, Error> {
    let read = || -> Result<Vec<u8>, String> {
        let k = key_json(json, &BN254)?;
        let mut out = encode_g1(&k.alpha, "vk_alpha_1")?.to_vec();
        for (c, name) in k.g2.iter().zip(["vk_beta_2", "vk_gamma_2", "vk_delta_2"]) {
            out.extend(encode_g2(c, name)?);
        }
        for (j, c) in k.ic.iter().enumerate() {
            out.extend(encode_g1(c, &format!("IC[{j}]"))?);
        }
        Ok(out)
    };
    read().map_err(refuse)
}

/// A proof object's points (A, B, C) read for a proof on a curve `curves`
/// names.
pub(crate) fn proof_coords(proof: &Value, curves: &[&str]) -> Result<[Coords; 3], String> {
    tag(proof, "protocol", &PROTOCOLS, "the proof")?;
    tag(proof, "curve", curves, "the proof")?;
    let field = |name: &str| proof.get(name).ok_or_else(|| format!("the proof has no {name}"));
    Ok([
        g1_coords(field("pi_a")?, "pi_a")?,
        g2_coords(field("pi_b")?, "pi_b")?,
        g1_coords(field("pi_c")?, "pi_c")?,
    ])
}

/// A proof object (`pi_a`, `pi_b`, `pi_c`, as `proof.json` holds it) as
/// the proof's encoding.
pub fn proof(proof: &Value) -> Result<[u8; PROOF_LEN], Error> {
    let read = || -> Result<[u8; PROOF_LEN], String> {
        let [a, b, c] = proof_coords(proof, &BN254)?;
        let mut out = [0u8; PROOF_LEN];
        out[..G1_LEN].copy_from_slice(&encode_g1(&a, "pi_a")?);
        out[G1_LEN..G1_LEN + G2_LEN].copy_from_slice(&encode_g2(&b, "pi_b")?);
        out[G1_LEN + G2_LEN..].copy_from_slice(&encode_g1(&c, "pi_c")?);
        Ok(out)
    };
    read().map_err(refuse)
}

/// Public inputs (`public.json`'s array) as 32-byte big-endian words, in
/// order, each up to 2^256 - 1.
pub(crate) fn public_words(public: &Value) -> Result<Vec<[u8; WORD]>, String> {
    let inputs = public
        .as_array()
        .ok_or_else(|| "the public inputs are not an array".to_string())?;
    inputs
        .iter()
        .enumerate()
        .map(|(j, x)| {
            let what = format!("public input {j}");
            number(x, &what).and_then(|n| word_of(&n, &what))
        })
        .collect()
}

/// Public inputs (`public.json`'s array) as their 32-byte words, in order.
pub fn public_inputs(public: &Value) -> Result<Vec<u8>, Error> {
    public_words(public).map(|w| w.concat()).map_err(refuse)
}

/// A proof object and its public inputs as an item's bytes.
pub fn item(proof_json: &Value, public: &Value) -> Result<Vec<u8>, Error> {
    let mut out = proof(proof_json)?.to_vec();
    out.extend(public_inputs(public)?);
    Ok(out)
}

/// [`item`] from the two files' text (`proof.json`, `public.json`).
pub fn item_from_text(proof_json: &str, public_json: &str) -> Result<Vec<u8>, Error> {
    let (proof, public) = texts(proof_json, public_json).map_err(refuse)?;
    item(&proof, &public)
}

/// The two files' text (`proof.json`, `public.json`) as JSON.
pub(crate) fn texts(proof_json: &str, public_json: &str) -> Result<(Value, Value), String> {
    let parse =
        |what: &str, text: &str| serde_json::from_str::<Value>(text).map_err(|e| format!("{what} is not JSON: {e}"));
    Ok((
        parse("the proof", proof_json)?,
        parse("the public inputs", public_json)?,
    ))
}
