fn count_pairs(xs: &[i32], ys: &[i32]) -> i32 {
    let mut count = 0;
    for x in xs {
        for y in ys {
            if x == y && *x > 0 {
                count += 1;
            }
        }
    }
    count
}
