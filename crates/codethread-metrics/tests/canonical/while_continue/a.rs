fn sum_odd(n: i32) -> i32 {
    let mut total = 0;
    let mut i = 0;
    while i < n {
        i += 1;
        if i % 2 == 0 {
            continue;
        }
        total += i;
    }
    total
}
