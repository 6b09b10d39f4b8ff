//! `batchcrypto eip7702-authority`: the authorities of EIP-7702
//! authorizations, one per line (README, "eip7702-authority"): each
//! authorization's signer, the account a set-code transaction delegates.
//!
//! In an authorization as an RPC answer's `authorizationList` lists it,
//! `{"chainId","address","nonce","yParity","r","s"}` (quantities or data
//! in hex: the chain id, r and s up to 32 bytes, the nonce up to 8, the
//! y parity 1, the address exactly 20), out `{"authority":"0x<20>"}` or
//! `{"authority":null,"reason"}` (`bad_v`, `r_out_of_range`,
//! `s_out_of_range`, `high_s`, `recovery_failed`). A missing or mistyped
//! field, bad hex or a field too wide makes the line malformed.

use std::io::Write;

use batchcrypto::ops::authority::{self, AuthorityResult};
use batchcrypto::{Engine, FlatBytes, Selection};

use crate::Fatal;
use crate::lines::{Field, LineJob, LineVerb, VerbArgs, hex_fixed, parse_object, push_item, word, write_refused};

pub fn job(args: VerbArgs) -> LineJob {
    args.job(AuthorityVerb, "eip7702-authority")
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct AuthorizationLine<'a> {
    #[serde(borrow, default)]
    chain_id: Field<'a>,
    #[serde(borrow, default)]
    address: Field<'a>,
    #[serde(borrow, default)]
    nonce: Field<'a>,
    #[serde(borrow, default)]
    y_parity: Field<'a>,
    #[serde(borrow, default)]
    r: Field<'a>,
    #[serde(borrow, default)]
    s: Field<'a>,
}

/// A quantity of at most `N` bytes, as `N` bytes big-endian.
fn narrow<const N: usize>(name: &str, value: &Field<'_>) -> Result<[u8; N], String> {
    let wide = word(name, value)?;
    let (high, low) = wide.split_at(32 - N);
    if high.iter().any(|&b| b != 0) {
        return Err(format!("field \"{name}\": over {} bits", 8 * N));
    }
    let mut out = [0u8; N];
    out.copy_from_slice(low);
    Ok(out)
}

struct AuthorityVerb;

impl LineVerb for AuthorityVerb {
    type Batch = FlatBytes;
    type Out = AuthorityResult;
    const OK_LABEL: &'static str = "recovered";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut FlatBytes, _scratch: &mut Vec<u8>) -> Result<(), String> {
        let l: AuthorizationLine = parse_object(line)?;
        let item = authority::encode(
            &word("chainId", &l.chain_id)?,
            &hex_fixed::<20>("address", &l.address)?,
            u64::from_be_bytes(narrow::<8>("nonce", &l.nonce)?),
            narrow::<1>("yParity", &l.y_parity)?[0],
            &word("r", &l.r)?,
            &word("s", &l.s)?,
        );
        push_item(batch, &item)
    }

    fn batch_bytes(batch: &FlatBytes) -> usize {
        // The authorizations and each item's authority.
        batch.bytes().len() + batch.len() * 20
    }

    fn run(&self, engine: &Engine, batch: &FlatBytes) -> Result<(Vec<AuthorityResult>, Selection), Fatal> {
        let outcome = engine.eip7702_authorities(batch)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &AuthorityResult, w: &mut dyn Write) -> std::io::Result<bool> {
        match out {
            Ok(authority) => {
                writeln!(w, "{{\"authority\":\"0x{}\"}}", hex::encode(authority))?;
                Ok(true)
            }
            Err(reason) => write_refused("authority", reason, w),
        }
    }
}
