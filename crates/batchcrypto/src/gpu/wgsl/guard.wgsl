// Completion guard. Some drivers cut loops short without reporting an
// error: llvmpipe/lavapipe stops every loop of an invocation once all its
// loops together have run 65535 iterations. A kernel calls loops_intact()
// just before writing its completion flag: a loop whose bound (2, passed by
// the host) the compiler cannot see runs both iterations only if no loop
// limit was hit, so a truncated computation is reported, never returned.

// DONE_FLAG, LOOPS_CUT_FLAG, WORKGROUP_SIZE and LOOP_GUARD come before
// this file, rendered from the host's constants (gpu/shaders.rs `guard`).

fn loops_intact(bound: u32) -> bool {
    var n = 0u;
    for (var i = 0u; i < bound; i++) {
        n += 1u;
    }
    return bound == LOOP_GUARD && n == LOOP_GUARD;
}

// The item of a thread in a one-thread-per-item dispatch: the host spreads
// more than 65535 workgroups over y (see gpu/driver.rs).
fn item_index(gid: vec3<u32>, groups: vec3<u32>) -> u32 {
    return gid.y * groups.x * WORKGROUP_SIZE + gid.x;
}
