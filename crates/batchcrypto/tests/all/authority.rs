//! The authorities of EIP-7702 authorizations (`eip7702_authority`) on
//! every engine: `testdata/eth-txs/authorizations.json`'s 9 known answers
//! (signed by eth-account, which names each authority), their RLP as
//! `authority::encode` makes it from the RPC fields, on the oracle and
//! every engine, the GPU ones on the GPU; generated authorizations,
//! hostile of every kind, against the oracle item by item and in number;
//! the layouts' edges.

use batchcrypto::Reason;
use batchcrypto::ops::authority::{AuthorityResult, encode, oracle, sample};

use crate::support;

/// Every engine's authorities of `auths` equal `want`, item by item and in
/// number; the GPU engines' from the GPU (the `ecrecover` kernel).
fn assert_authorities(auths: &[Vec<u8>], want: &[AuthorityResult], what: &str) {
    support::assert_addresses(auths, want, what, |e, b| e.eip7702_authorities(b).expect("authorities"));
}

/// A JSON quantity or data as `N` bytes big-endian.
fn word<const N: usize>(v: &serde_json::Value) -> [u8; N] {
    let digits = v.as_str().expect("hex").trim_start_matches("0x");
    let bytes = hex::decode(format!("{digits:0>width$}", width = 2 * N)).expect("hex");
    bytes.try_into().expect("N bytes")
}

#[test]
fn known_authorities_on_every_engine() {
    let Some(cases) = support::vectors_json("eth-txs/authorizations.json") else {
        return;
    };
    let cases = cases.as_array().expect("a list");
    assert_eq!(cases.len(), 9);
    let mut auths = Vec::new();
    let mut want = Vec::new();
    for c in cases {
        let name = c["name"].as_str().expect("name");
        let rlp = hex::decode(c["rlp"].as_str().expect("rlp")).expect("hex");
        let made = encode(
            &word::<32>(&c["chainId"]),
            &word::<20>(&c["address"]),
            u64::from_be_bytes(word::<8>(&c["nonce"])),
            word::<1>(&c["yParity"])[0],
            &word::<32>(&c["r"]),
            &word::<32>(&c["s"]),
        );
        assert_eq!(made, rlp, "{name}: encode");
        let authority = Ok(word::<20>(&c["authority"]));
        assert_eq!(oracle::authority(&rlp), authority, "{name}");
        auths.push(rlp);
        want.push(authority);
    }
    assert_authorities(&auths, &want, "known answers");
}

#[test]
fn generated_authorizations_match_the_oracle_on_every_engine() {
    let made = sample::authorizations(0..200, 4, 19, 0.4);
    let auths: Vec<Vec<u8>> = made.iter().map(|(m, _)| m.clone()).collect();
    let want: Vec<AuthorityResult> = auths.iter().map(|a| oracle::authority(a)).collect();
    for ((_, kind), w) in made.iter().zip(&want) {
        assert_eq!(w.is_ok(), *kind == "valid", "{kind}: {w:?}");
    }
    for kind in sample::HOSTILE.iter().chain(&["valid"]) {
        assert!(made.iter().any(|(_, k)| k == kind), "{kind}");
    }
    assert_authorities(&auths, &want, "generated");
    assert_authorities(&[], &[], "no items");
}

/// Layouts at the edges: a string instead of a list, a list of five or
/// seven fields, a nonce of nine bytes, a y parity of 2 (`bad_v`) and
/// of 256 (no u8: malformed).
#[test]
fn the_layouts_edges() {
    let good = encode(&[0; 32], &[7; 20], 1, 0, &[1; 32], &[2; 32]);
    let list = |fields: &[&[u8]]| {
        let mut payload = Vec::new();
        for f in fields {
            rlp_string(f, &mut payload);
        }
        // Every list here is over 55 bytes and under 256.
        let mut out = vec![0xf8, u8::try_from(payload.len()).expect("under 256")];
        out.extend(payload);
        out
    };
    let cases: Vec<(Vec<u8>, Reason)> = vec![
        (vec![0x80 + 3, 1, 2, 3], Reason::MalformedAuthorization),
        (
            list(&[&[], &[7; 20], &[1], &[], &[1; 32]]),
            Reason::MalformedAuthorization,
        ),
        (
            list(&[&[], &[7; 20], &[1], &[], &[1; 32], &[2; 32], &[]]),
            Reason::MalformedAuthorization,
        ),
        (
            list(&[&[], &[7; 20], &[1; 9], &[], &[1; 32], &[2; 32]]),
            Reason::MalformedAuthorization,
        ),
        (list(&[&[], &[7; 20], &[1], &[2], &[1; 32], &[2; 32]]), Reason::BadV),
        (
            list(&[&[], &[7; 20], &[1], &[1, 0], &[1; 32], &[2; 32]]),
            Reason::MalformedAuthorization,
        ),
        ([&good[..], &[0]].concat(), Reason::MalformedAuthorization),
    ];
    // The list helper writes what `encode` writes for the same fields.
    assert_eq!(list(&[&[], &[7; 20], &[1], &[], &[1; 32], &[2; 32]]), good);
    let (auths, want): (Vec<Vec<u8>>, Vec<AuthorityResult>) = cases.into_iter().map(|(a, r)| (a, Err(r))).unzip();
    let got: Vec<AuthorityResult> = auths.iter().map(|a| oracle::authority(a)).collect();
    assert_eq!(got, want);
    assert_authorities(&auths, &want, "edges");
}

/// RLP of a byte string (one byte under 0x80 as itself).
fn rlp_string(bytes: &[u8], out: &mut Vec<u8>) {
    match bytes {
        [b] if *b < 0x80 => out.push(*b),
        _ => {
            out.push(0x80 + bytes.len() as u8);
            out.extend_from_slice(bytes);
        }
    }
}
