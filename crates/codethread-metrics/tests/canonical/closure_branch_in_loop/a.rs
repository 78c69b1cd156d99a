fn visit(groups: &[Vec<i32>]) {
    for g in groups {
        g.iter().for_each(|x| {
            if *x > 0 {
                handle(*x);
            }
        });
    }
}
