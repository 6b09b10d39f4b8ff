//! The messages of `proto/batchcrypto/v1/batchcrypto.proto`, written with
//! prost's derive rather than generated (no `protoc` in the build); a test
//! checks every field's number and wire type against the .proto file. The
//! service's tests include this file to speak the same messages.

use std::collections::HashMap;

/// The gRPC path of `BatchCrypto.Run`.
pub const RUN_PATH: &str = "/batchcrypto.v1.BatchCrypto/Run";

/// `batchcrypto.v1.RunRequest`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RunRequest {
    /// The operation as the HTTP path names it after `/v1/`.
    #[prost(string, tag = "1")]
    pub op: String,
    /// Its options, as the HTTP query's.
    #[prost(map = "string, string", tag = "2")]
    pub options: HashMap<String, String>,
    /// The CLI's JSON Lines input, one line per element.
    #[prost(string, repeated, tag = "3")]
    pub lines: Vec<String>,
    /// A binary operation's input (`ntt`, `msm`, `hash` with `raw`).
    #[prost(bytes = "vec", tag = "4")]
    pub data: Vec<u8>,
}

/// `batchcrypto.v1.RunResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RunResponse {
    /// The CLI's output line for each input line, in order.
    #[prost(string, repeated, tag = "1")]
    pub lines: Vec<String>,
    /// The backend that ran the batch; empty when no line held an item.
    #[prost(string, tag = "2")]
    pub backend: String,
    /// Lines in the batch this request ran in.
    #[prost(uint64, tag = "3")]
    pub batch_lines: u64,
    /// A binary operation's output.
    #[prost(bytes = "vec", tag = "4")]
    pub data: Vec<u8>,
    /// A binary operation's refused records (their output bytes are zeros).
    #[prost(message, repeated, tag = "5")]
    pub refused: Vec<Refused>,
}

/// `batchcrypto.v1.Refused`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Refused {
    /// The record's index in the request, from 0.
    #[prost(uint64, tag = "1")]
    pub record: u64,
    /// Why, as the CLI's reason code (`non_canonical_element`).
    #[prost(string, tag = "2")]
    pub reason: String,
}

#[cfg(test)]
mod proto_file {
    use super::*;
    use prost::Message;

    const PROTO: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../proto/batchcrypto/v1/batchcrypto.proto"
    ));

    /// Each field of `message` in the .proto: (number, wire type).
    fn declared(message: &str) -> Vec<(u64, u64)> {
        let start = PROTO
            .find(&format!("message {message} {{"))
            .unwrap_or_else(|| panic!("no message {message} in the .proto"));
        let body = &PROTO[start..];
        let body = &body[..body.find("\n}").unwrap_or(body.len())];
        let mut fields: Vec<(u64, u64)> = body
            .lines()
            .map(|l| l.split("//").next().unwrap_or("").trim())
            .filter(|l| l.ends_with(';'))
            .map(|l| {
                let (decl, number) = l.trim_end_matches(';').rsplit_once('=').expect("field = number");
                let ty = decl.split_whitespace().next().expect("type");
                let wire = match ty {
                    "uint64" | "int64" | "uint32" | "int32" | "bool" => 0,
                    _ => 2,
                };
                (number.trim().parse().expect("field number"), wire)
            })
            .collect();
        fields.sort_unstable();
        fields
    }

    /// The (number, wire type) of each field in an encoding.
    fn encoded(bytes: &[u8]) -> Vec<(u64, u64)> {
        let mut buf = bytes;
        let mut fields = Vec::new();
        while !buf.is_empty() {
            let key = prost::encoding::decode_varint(&mut buf).expect("key");
            let wire = key & 7;
            match wire {
                0 => {
                    prost::encoding::decode_varint(&mut buf).expect("varint");
                }
                2 => {
                    let len = prost::encoding::decode_varint(&mut buf).expect("length") as usize;
                    buf = &buf[len..];
                }
                other => panic!("unexpected wire type {other}"),
            }
            if !fields.contains(&(key >> 3, wire)) {
                fields.push((key >> 3, wire));
            }
        }
        fields.sort_unstable();
        fields
    }

    #[test]
    fn messages_match_the_proto_file() {
        let request = RunRequest {
            op: "hash/keccak256".into(),
            options: HashMap::from([("a".into(), "b".into())]),
            lines: vec!["{}".into(), "{}".into()],
            data: vec![1, 2],
        };
        assert_eq!(encoded(&request.encode_to_vec()), declared("RunRequest"));
        let refused = Refused {
            record: 3,
            reason: "non_canonical_element".into(),
        };
        assert_eq!(encoded(&refused.encode_to_vec()), declared("Refused"));
        let response = RunResponse {
            lines: vec!["{}".into()],
            backend: "cpu".into(),
            batch_lines: 7,
            data: vec![0],
            refused: vec![refused],
        };
        assert_eq!(encoded(&response.encode_to_vec()), declared("RunResponse"));
        assert!(
            PROTO.contains("package batchcrypto.v1;") && PROTO.contains("rpc Run(RunRequest) returns (RunResponse);")
        );
        assert_eq!(RUN_PATH, "/batchcrypto.v1.BatchCrypto/Run");
    }
}
