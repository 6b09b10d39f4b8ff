//! The service's request path without its network: what the `cli` fuzz
//! target (`fuzz/src/cli.rs`) drives and `tests/fuzz.rs` replays. Not a
//! stable interface: it is the CLI's and the service's own code, exported
//! for those two only.
//!
//! A request's path and query become the CLI verb it stands for
//! ([`query_pairs`], [`job`]: the CLI's own parser); a JSON Lines body
//! becomes its lines as the CLI reads a file ([`body_lines`]); a lane then
//! answers several requests as one batch ([`ServeVerb::answer`]), each
//! with exactly the output a CLI run over its input writes.

pub use super::route::{job, query_pairs};
pub use super::verb::{Output, Payload, ServeVerb, Served};
pub use crate::lines::body_lines;
