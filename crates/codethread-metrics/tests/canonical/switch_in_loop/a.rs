fn score(xs: &[i32]) -> i32 {
    let mut n = 0;
    for x in xs {
        match x {
            1 => n += 1,
            2 => n += 2,
            _ => n += 0,
        }
    }
    n
}
