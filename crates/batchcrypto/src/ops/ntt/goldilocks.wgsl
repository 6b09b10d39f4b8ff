// The NTT's arithmetic over Goldilocks (gpu/wgsl/goldilocks.wgsl) on the
// 64-bit elements of field64.wgsl, worked on in canonical form.

fn f_add(a: Elem, b: Elem) -> Elem {
    return gl_add(a, b);
}

fn f_sub(a: Elem, b: Elem) -> Elem {
    return gl_sub(a, b);
}

fn f_mul(a: Elem, b: Elem) -> Elem {
    return gl_mul(a, b);
}

fn canonical(x: Elem) -> bool {
    return x < GL_P;
}

// A non-canonical input becomes 0 (its polynomial is refused anyway).
fn to_work(x: Elem) -> Elem {
    return select(0lu, x, x < GL_P);
}

fn from_work(x: Elem) -> Elem {
    return x;
}
