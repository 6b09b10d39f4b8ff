/* A batchcrypto C ABI example: reads items as hex, one per line, from
 * stdin, answers them in one call, prints one answer line per item.
 *
 *   verify ed25519 strict|zip215   lines "PK SIG MSG"  -> "valid" | "invalid REASON"
 *   verify hash keccak256|sha256   lines "MSG"         -> the digest in hex
 *   verify ecrecover               lines "HASH SIG"    -> "0xADDRESS" | "invalid REASON"
 *
 * Fields are hex without 0x; "-" is an empty message. Build (after
 * `cargo build -p batchcrypto-ffi --release`):
 *
 *   cc -std=c11 -I crates/batchcrypto-ffi/include examples/c/verify.c \
 *      -L target/release -lbatchcrypto_ffi -Wl,-rpath,target/release -o verify
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batchcrypto.h"

/* A growable byte buffer with item offsets: one BcColumn. */
typedef struct {
  uint8_t *data;
  size_t len, cap;
  uint64_t *offsets;
  size_t n, offsets_cap;
} column_t;

static void die(const char *what) {
  fprintf(stderr, "verify: %s\n", what);
  exit(3);
}

static void *grow(void *p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return p;
  size_t c = *cap ? *cap : 64;
  while (c < need) c *= 2;
  p = realloc(p, c * size);
  if (!p) die("out of memory");
  *cap = c;
  return p;
}

static int nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Appends the hex field `hex` ("-" for empty) as one item of `col`. */
static void push_hex(column_t *col, const char *hex, size_t line) {
  size_t digits = strcmp(hex, "-") == 0 ? 0 : strlen(hex);
  if (digits % 2) {
    fprintf(stderr, "verify: line %zu: odd number of hex digits\n", line);
    exit(2);
  }
  col->data = grow(col->data, &col->cap, col->len + digits / 2 + 1, 1);
  for (size_t i = 0; i < digits; i += 2) {
    int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
    if (hi < 0 || lo < 0) {
      fprintf(stderr, "verify: line %zu: bad hex digit\n", line);
      exit(2);
    }
    col->data[col->len++] = (uint8_t)(hi << 4 | lo);
  }
  col->offsets = grow(col->offsets, &col->offsets_cap, col->n + 2, sizeof(uint64_t));
  if (col->n == 0) col->offsets[0] = 0;
  col->offsets[++col->n] = col->len;
}

/* The column as the ABI takes it: items delimited by offsets. */
static BcColumn as_column(const column_t *col) {
  BcColumn c = {col->data, col->len, 0, col->offsets};
  return c;
}

static void check(BcStatus status) {
  if (status != BC_STATUS_OK) {
    fprintf(stderr, "verify: error %d: %s\n", (int)status, bc_last_error());
    exit(3);
  }
}

static void print_hex(const uint8_t *bytes, size_t len) {
  for (size_t i = 0; i < len; i++) printf("%02x", bytes[i]);
}

int main(int argc, char **argv) {
  if (argc < 2) die("usage: verify ed25519 strict|zip215 | hash ALG | ecrecover");
  const char *op = argv[1];
  size_t fields = strcmp(op, "ed25519") == 0 ? 3 : strcmp(op, "ecrecover") == 0 ? 2 : 1;
  if (fields != 2 && argc < 3) die("missing the policy or hash name");

  column_t cols[3];
  memset(cols, 0, sizeof cols);
  char line[1 << 16];
  size_t lineno = 0;
  while (fgets(line, sizeof line, stdin)) {
    lineno++;
    char *save = NULL, *field = strtok_r(line, " \n", &save);
    for (size_t f = 0; f < fields; f++) {
      if (!field) {
        fprintf(stderr, "verify: line %zu: expected %zu fields\n", lineno, fields);
        return 2;
      }
      push_hex(&cols[f], field, lineno);
      field = strtok_r(NULL, " \n", &save);
    }
  }
  size_t n = cols[0].n;

  BcEngine *engine = NULL;
  check(bc_engine_new(NULL, &engine));
  if (strcmp(op, "ed25519") == 0) {
    BcColumn pks = as_column(&cols[0]), sigs = as_column(&cols[1]), msgs = as_column(&cols[2]);
    uint8_t *codes = malloc(n + 1);
    if (!codes) die("out of memory");
    check(bc_verify_ed25519(engine, argv[2], n, &pks, &sigs, &msgs, codes));
    for (size_t i = 0; i < n; i++) {
      if (codes[i] == 0) printf("valid\n");
      else printf("invalid %s\n", bc_reason_name(codes[i]));
    }
    free(codes);
  } else if (strcmp(op, "hash") == 0) {
    BcColumn msgs = as_column(&cols[0]);
    uint8_t *digests = malloc(32 * n + 1);
    if (!digests) die("out of memory");
    check(bc_hash(engine, argv[2], n, &msgs, digests));
    for (size_t i = 0; i < n; i++) {
      print_hex(digests + 32 * i, 32);
      printf("\n");
    }
    free(digests);
  } else if (strcmp(op, "ecrecover") == 0) {
    BcColumn hashes = as_column(&cols[0]), sigs = as_column(&cols[1]);
    uint8_t *addresses = malloc(20 * n + 1), *codes = malloc(n + 1);
    if (!addresses || !codes) die("out of memory");
    check(bc_ecrecover(engine, false, n, &hashes, &sigs, addresses, NULL, codes));
    for (size_t i = 0; i < n; i++) {
      if (codes[i] == 0) {
        printf("0x");
        print_hex(addresses + 20 * i, 20);
        printf("\n");
      } else {
        printf("invalid %s\n", bc_reason_name(codes[i]));
      }
    }
    free(addresses);
    free(codes);
  } else {
    die("unknown operation");
  }
  bc_engine_free(engine);
  for (size_t f = 0; f < 3; f++) {
    free(cols[f].data);
    free(cols[f].offsets);
  }
  return 0;
}
