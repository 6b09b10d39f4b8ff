// STROBE-128/1600 (Hamburg, "The STROBE protocol framework", v1.0.2) as
// merlin transcripts use it (merlin 3.0's strobe.rs): meta_ad and ad
// absorb, prf begins with F and then squeezes; rate STROBE_R = 166 bytes.
// Composed after the Keccak layer (keccak_f1600 on u64 lanes).
//
// A transcript is a program rendered from Rust in front of this file
// (gpu/merlin.rs): segment j < STROBE_SEGS is STROBE_SEG[j] = (flags,
// source, arg, len). Flags != 0 begin an operation (STROBE's begin_op:
// absorb the previous operation's start and the flags; with flag C, run F
// unless at a block start); flags = 0 continue the current one. Then the
// segment absorbs the bytes of its source:
//   STROBE_SRC_CONST   `len` bytes of STROBE_BYTES from `arg`
//   STROBE_SRC_U32     `arg` as four little-endian bytes
//   STROBE_SRC_LEN_OF  the length of item source `arg`, four little-endian bytes
//   STROBE_SRC_ITEM+   the item's own bytes, from the kernel's
//                      transcript_item_len(src, item) and
//                      transcript_item_byte(src, item, k)
// The program ends with a prf operation, whose output is the first bytes of
// the returned state (squeezing fewer than STROBE_R bytes runs no F).
//
// Bytes absorbed since the last F collect in `pend` (168 bytes: F's padding
// reaches byte STROBE_R + 1) and are XORed into the state only at F, so the
// state is indexed by constants and the bytes by one dynamic index.

const STROBE_R: u32 = 166u;
const STROBE_FLAG_C: u32 = 4u;

fn strobe_source_len(seg: vec4<u32>, item: u32) -> u32 {
    if seg.y == STROBE_SRC_CONST {
        return seg.w;
    }
    if seg.y == STROBE_SRC_U32 || seg.y == STROBE_SRC_LEN_OF {
        return 4u;
    }
    return transcript_item_len(seg.y, item);
}

fn strobe_source_byte(seg: vec4<u32>, item: u32, k: u32) -> u32 {
    if seg.y == STROBE_SRC_CONST {
        return STROBE_BYTES[seg.z + k];
    }
    if seg.y == STROBE_SRC_U32 {
        return (seg.z >> (8u * k)) & 0xffu;
    }
    if seg.y == STROBE_SRC_LEN_OF {
        return (transcript_item_len(seg.z, item) >> (8u * k)) & 0xffu;
    }
    return transcript_item_byte(seg.y, item, k);
}

// Runs the program for `item` from the state after STROBE's initial F:
// the state after the program's last operation began.
fn strobe_transcript(item: u32) -> array<Lane, 25> {
    var st = strobe_init();
    var pend: array<u32, 42>;
    var pos = 0u;
    var pos_begin = 0u;
    var j = 0u;
    // Byte k of segment j, counting its two begin bytes.
    var k = 0u;
    loop {
        if j == STROBE_SEGS {
            break;
        }
        let seg = STROBE_SEG[j];
        let head = select(0u, 2u, seg.x != 0u);
        if k == head + strobe_source_len(seg, item) {
            j += 1u;
            k = 0u;
            continue;
        }
        var byte: u32;
        if k < head {
            if k == 0u {
                byte = pos_begin;
                pos_begin = pos + 1u;
            } else {
                byte = seg.x;
            }
        } else {
            byte = strobe_source_byte(seg, item, k - head);
        }
        pend[pos >> 2u] ^= byte << ((pos & 3u) * 8u);
        pos += 1u;
        k += 1u;
        // F when the block is full (absorb), or when an operation with C has
        // absorbed its begin bytes (begin_op; pos > 0 here).
        if pos == STROBE_R || (head == 2u && k == 2u && (seg.x & STROBE_FLAG_C) != 0u) {
            pend[pos >> 2u] ^= pos_begin << ((pos & 3u) * 8u);
            pend[(pos + 1u) >> 2u] ^= 0x04u << (((pos + 1u) & 3u) * 8u);
            // Byte STROBE_R + 1 = 167: word 41, top byte.
            pend[41] ^= 0x80000000u;
            for (var l = 0u; l < 21u; l++) {
                st[l] ^= lane(pend[2u * l], pend[2u * l + 1u]);
            }
            keccak_f1600(&st);
            pend = array<u32, 42>();
            pos = 0u;
            pos_begin = 0u;
        }
    }
    return st;
}
