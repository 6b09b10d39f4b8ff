//! The EVM precompiles over BN254 (EIP-196/197) and BLS12-381 (EIP-2537's
//! multi-scalar multiplications, pairing check, additions and maps) and
//! EIP-4844's point evaluation, EIP-198's MODEXP and the other
//! precompiles (ECRECOVER, SHA256, RIPEMD160, IDENTITY, P256VERIFY) on any
//! input.
//!
//! The first byte picks the precompile, the rest is the call's input, so
//! that the go-ethereum vectors seed the corpus as they are
//! (`fuzz/seed_corpus.py`). The MSMs are compared with the oracle's sum of
//! single multiplications (the CPU path runs blst's Pippenger); the other
//! calls share their parsing with the oracle, so there the target finds
//! panics and answers that differ from the oracle's, not parsing that both
//! get wrong (the go-ethereum vectors in tests/all do that).

use batchcrypto::ops::{bls, evm};
use batchcrypto::{Engine, FlatBytes};

use super::{answers, answers_of, engine, same};

/// One fuzz input: the precompile (`data[0] % 17`: 0-4 the first five of
/// `Precompile::ALL`, 5 EIP-2537's pairing check, 6-16 the others of
/// `ALL`: 11 MODEXP, 12-16 ECRECOVER, SHA256, RIPEMD160, IDENTITY,
/// P256VERIFY) and the input of one call, made twice in one batch (once whole
/// and once without its last byte).
pub fn run(data: &[u8]) {
    check(engine(), data);
}

/// [`run`] on `e`.
pub fn check(e: &Engine, data: &[u8]) {
    let Some((&which, input)) = data.split_first() else {
        return;
    };
    let mut inputs = FlatBytes::new();
    for call in [input, &input[..input.len().saturating_sub(1)]] {
        assert!(inputs.push(call), "inputs far below 4 GiB");
    }
    let calls: Vec<&[u8]> = (0..inputs.len()).map(|i| inputs.get(i)).collect();
    let which = usize::from(which) % (evm::Precompile::ALL.len() + 1);
    match (which != 5).then(|| evm::Precompile::ALL[which - usize::from(which > 5)]) {
        Some(p) => {
            let got = answers_of(e, batchcrypto::Op::Evm(p), e.evm(p, &inputs));
            let want: Vec<evm::CallResult> = calls.iter().map(|c| evm::oracle::call(p, c)).collect();
            same(&format!("evm {p}"), &got, &want);
        }
        None => {
            let got = answers(e, e.eip2537_pairing(&inputs));
            let want: Vec<_> = calls.iter().map(|c| bls::eip2537::pairing_check(c)).collect();
            same("eip2537_pairing", &got, &want);
        }
    }
}
