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

/// An error naming what was refused.
fn refuse(reason: String) -> Error {
    Error::InvalidInput {
        op: OpName::Op(Op::Groth16VerifyBn254),
        reason,
    }
}

/// A number as a 32-byte big-endian word.
pub fn word(v: &Value, what: &str) -> Result<[u8; WORD], Error> {
    let n = match v {
        Value::String(s) => match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            Some(hex) => BigUint::parse_bytes(hex.as_bytes(), 16),
            None => BigUint::parse_bytes(s.as_bytes(), 10),
        },
        Value::Number(n) => n.as_u64().map(BigUint::from),
        _ => None,
    }
    .ok_or_else(|| refuse(format!("{what} is not a number (a decimal or 0x string): {v}")))?;
    let be = n.to_bytes_be();
    if be.len() > WORD {
        return Err(refuse(format!("{what} is above 2^256 - 1")));
    }
    let mut w = [0u8; WORD];
    w[WORD - be.len()..].copy_from_slice(&be);
    Ok(w)
}

/// The items of a JSON array of `len` entries.
fn array<'a>(v: &'a Value, len: usize, what: &str) -> Result<&'a [Value], Error> {
    match v.as_array() {
        Some(a) if a.len() == len => Ok(a),
        _ => Err(refuse(format!("{what} is not an array of {len}"))),
    }
}

/// Whether the projective z (a number, or an Fp2's two) is zero or one.
fn z_is_zero(z: &[[u8; WORD]], what: &str) -> Result<bool, Error> {
    let zero = z.iter().all(|w| w.iter().all(|&b| b == 0));
    let mut one = [0u8; WORD];
    one[WORD - 1] = 1;
    if zero || (z[0] == one && z[1..].iter().all(|w| w.iter().all(|&b| b == 0))) {
        return Ok(zero);
    }
    Err(refuse(format!("{what} is not affine: its z is neither 1 nor 0")))
}

/// A G1 point `[x, y, z]` (or `[x, y]`) as its EIP-197 encoding.
pub fn g1(v: &Value, what: &str) -> Result<[u8; G1_LEN], Error> {
    let a = match v.as_array() {
        Some(a) if a.len() == 2 || a.len() == 3 => a,
        _ => return Err(refuse(format!("{what} is not a G1 point [x, y, z]"))),
    };
    let mut out = [0u8; G1_LEN];
    if a.len() == 3 && z_is_zero(&[word(&a[2], what)?], what)? {
        return Ok(out);
    }
    out[..WORD].copy_from_slice(&word(&a[0], what)?);
    out[WORD..].copy_from_slice(&word(&a[1], what)?);
    Ok(out)
}

/// A G2 point `[[x.c0, x.c1], [y.c0, y.c1], [z.c0, z.c1]]` as its
/// EIP-197 encoding (x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0).
pub fn g2(v: &Value, what: &str) -> Result<[u8; G2_LEN], Error> {
    let a = match v.as_array() {
        Some(a) if a.len() == 2 || a.len() == 3 => a,
        _ => {
            return Err(refuse(format!(
                "{what} is not a G2 point [[x0, x1], [y0, y1], [z0, z1]]"
            )));
        }
    };
    let pair = |v: &Value| -> Result<[[u8; WORD]; 2], Error> {
        let p = array(v, 2, what)?;
        Ok([word(&p[0], what)?, word(&p[1], what)?])
    };
    let mut out = [0u8; G2_LEN];
    if a.len() == 3 && z_is_zero(&pair(&a[2])?, what)? {
        return Ok(out);
    }
    let (x, y) = (pair(&a[0])?, pair(&a[1])?);
    for (k, w) in [x[1], x[0], y[1], y[0]].iter().enumerate() {
        out[k * WORD..(k + 1) * WORD].copy_from_slice(w);
    }
    Ok(out)
}

/// Checks an optional string field against the values accepted.
fn tag(obj: &Value, field: &str, accepted: &[&str], what: &str) -> Result<(), Error> {
    match obj.get(field) {
        None => Ok(()),
        Some(Value::String(s)) if accepted.contains(&s.as_str()) => Ok(()),
        Some(other) => Err(refuse(format!(
            "{what}'s {field} is {other}, not {}",
            accepted.join(" or ")
        ))),
    }
}

/// A `verification_key.json` as the key's encoding (for
/// [`super::VerifyingKey::from_bytes`]).
pub fn verifying_key(json: &str) -> Result<Vec<u8>, Error> {
    let v: Value = serde_json::from_str(json).map_err(|e| refuse(format!("the verifying key is not JSON: {e}")))?;
    tag(&v, "protocol", &PROTOCOLS, "the verifying key")?;
    tag(&v, "curve", &["bn128", "bn254"], "the verifying key")?;
    let field = |name: &str| {
        v.get(name)
            .ok_or_else(|| refuse(format!("the verifying key has no {name}")))
    };
    let ic = field("IC")?
        .as_array()
        .ok_or_else(|| refuse("the verifying key's IC is not an array".into()))?;
    if ic.is_empty() {
        return Err(refuse("the verifying key has no IC points".into()));
    }
    if let Some(n) = v.get("nPublic")
        && n.as_u64() != Some(ic.len() as u64 - 1)
    {
        return Err(refuse(format!(
            "the verifying key's nPublic ({n}) is not its IC points less one ({})",
            ic.len() - 1
        )));
    }
    // snarkjs before 0.2 spelt alpha "alfa".
    let alpha = field("vk_alpha_1").or_else(|_| field("vk_alfa_1"))?;
    let mut out = g1(alpha, "vk_alpha_1")?.to_vec();
    for name in ["vk_beta_2", "vk_gamma_2", "vk_delta_2"] {
        out.extend(g2(field(name)?, name)?);
    }
    for (j, p) in ic.iter().enumerate() {
        out.extend(g1(p, &format!("IC[{j}]"))?);
    }
    Ok(out)
}

/// A proof object (`pi_a`, `pi_b`, `pi_c`, as `proof.json` holds it) as
/// the proof's encoding.
pub fn proof(proof: &Value) -> Result<[u8; PROOF_LEN], Error> {
    tag(proof, "protocol", &PROTOCOLS, "the proof")?;
    tag(proof, "curve", &["bn128", "bn254"], "the proof")?;
    let field = |name: &str| {
        proof
            .get(name)
            .ok_or_else(|| refuse(format!("the proof has no {name}")))
    };
    let mut out = [0u8; PROOF_LEN];
    out[..G1_LEN].copy_from_slice(&g1(field("pi_a")?, "pi_a")?);
    out[G1_LEN..G1_LEN + G2_LEN].copy_from_slice(&g2(field("pi_b")?, "pi_b")?);
    out[G1_LEN + G2_LEN..].copy_from_slice(&g1(field("pi_c")?, "pi_c")?);
    Ok(out)
}

/// Public inputs (`public.json`'s array) as their 32-byte words, in order.
pub fn public_inputs(public: &Value) -> Result<Vec<u8>, Error> {
    let inputs = public
        .as_array()
        .ok_or_else(|| refuse("the public inputs are not an array".into()))?;
    let mut out = Vec::with_capacity(WORD * inputs.len());
    for (j, x) in inputs.iter().enumerate() {
        out.extend(word(x, &format!("public input {j}"))?);
    }
    Ok(out)
}

/// A proof object and its public inputs as an item's bytes.
pub fn item(proof_json: &Value, public: &Value) -> Result<Vec<u8>, Error> {
    let mut out = proof(proof_json)?.to_vec();
    out.extend(public_inputs(public)?);
    Ok(out)
}

/// [`item`] from the two files' text (`proof.json`, `public.json`).
pub fn item_from_text(proof_json: &str, public_json: &str) -> Result<Vec<u8>, Error> {
    let parse = |what: &str, text: &str| {
        serde_json::from_str::<Value>(text).map_err(|e| refuse(format!("{what} is not JSON: {e}")))
    };
    item(
        &parse("the proof", proof_json)?,
        &parse("the public inputs", public_json)?,
    )
}
