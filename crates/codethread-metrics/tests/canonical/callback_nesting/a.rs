fn count_truthy(xs: &[bool]) -> i32 {
    let mut n = 0;
    xs.iter().for_each(|x| {
        if *x {
            n += 1;
        }
    });
    n
}
