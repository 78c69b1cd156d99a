//! Localizing a patch is linear in its size on adversarial shapes (a new
//! file with many functions, deep nesting, one huge line): 4x the input must
//! take well under 16x (quadratic) the time. Small sizes, so this runs in a
//! debug build.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_patch::{localize, parse_patch, LocalizeOptions, MemTree, LISTED_DEPTH};
use codethread_testkit::adversarial::{
    assert_subquadratic, deep_js, many_python_functions, new_file_patch, one_line_js,
};

fn run(path: &str, content: &str) {
    let p = parse_patch(&new_file_patch(path, content)).unwrap();
    let loc = localize(&MemTree::new(), &p, &LocalizeOptions::default()).unwrap();
    assert!(!loc.added_functions.is_empty());
}

#[test]
fn new_file_with_many_functions_is_linear() {
    assert_subquadratic("localize a new file of many functions", 2000, |n| {
        run("new.py", &many_python_functions(n))
    });
}

#[test]
fn one_huge_line_is_linear() {
    assert_subquadratic("localize a new file of one huge line", 1000, |n| {
        run("new.js", &one_line_js(n))
    });
}

#[test]
fn deep_nesting_is_linear() {
    assert_subquadratic("localize a new file of nested functions", 1000, |n| {
        run("new.js", &deep_js(n))
    });
}

/// Each changed line is listed by at most LISTED_DEPTH + 1 enclosing
/// functions (so the output is linear), and always by its innermost ones.
#[test]
fn deep_nesting_lists_each_line_a_bounded_number_of_times() {
    let depth = 300;
    let content = deep_js(depth);
    let lines = content.lines().count();
    let p = parse_patch(&new_file_patch("new.js", &content)).unwrap();
    let loc = localize(&MemTree::new(), &p, &LocalizeOptions::default()).unwrap();
    assert_eq!(loc.added_functions.len(), depth);
    let listed: usize = loc
        .added_functions
        .iter()
        .map(|f| f.changed_lines_after.len())
        .sum();
    assert!(
        listed <= (LISTED_DEPTH + 1) * lines,
        "{listed} listed lines for {lines} lines"
    );
    for (i, f) in loc.added_functions.iter().enumerate() {
        // Function f{i} opens on line i + 1 and holds it.
        assert!(f.changed_lines_after.contains(&(i + 1)), "f{i}");
        // Shallow enough: every line of the function down to LISTED_DEPTH levels.
        let inner =
            (i + 1..=(i + 1 + LISTED_DEPTH).min(depth)).all(|l| f.changed_lines_after.contains(&l));
        assert!(
            inner,
            "f{i}: {:?}",
            &f.changed_lines_after[..5.min(f.changed_lines_after.len())]
        );
    }
    // A shallow file lists every line of a function, nested ones included.
    let shallow = deep_js(5);
    let p = parse_patch(&new_file_patch("new.js", &shallow)).unwrap();
    let loc = localize(&MemTree::new(), &p, &LocalizeOptions::default()).unwrap();
    let all: Vec<usize> = (1..=shallow.lines().count()).collect();
    assert_eq!(loc.added_functions[0].changed_lines_after, all);
}

/// Chunked localization (every image chunked, 2 KB chunks) is linear too:
/// a new file of many small functions, and a Ruby file of top-level
/// methods (windows cut before an `end` have an ERROR root).
#[test]
fn chunked_images_are_linear() {
    let opts = LocalizeOptions::default().chunks(
        codethread_lang::ChunkOptions::default()
            .min_file_bytes(0)
            .chunk_bytes(2_048)
            .max_unit_tokens(50_000),
    );
    let run = |path: &str, content: &str| {
        let p = parse_patch(&new_file_patch(path, content)).unwrap();
        let loc = localize(&MemTree::new(), &p, &opts).unwrap();
        assert!(!loc.added_functions.is_empty());
    };
    assert_subquadratic("localize chunked Python functions", 2000, |n| {
        run("new.py", &many_python_functions(n))
    });
    assert_subquadratic("localize chunked Ruby methods", 1000, |n| {
        let src: String = (0..n)
            .map(|i| format!("def f{i}(x)\n  return 1 if x\n  \"#{{x}}\"\nend\n"))
            .collect();
        run("new.rb", &src)
    });
}

/// A patch that edits every function of a file: with three lines of
/// context its hunks merge into one that spans the file. Applying and
/// localizing it is linear (the removed lines of a hunk were found by a
/// search of its kept lines per line: quadratic in the hunk; 4 MB of a
/// Ruby module took 14.9 s, now 7.0 s, and 16 MB 194 s, now 33 s).
#[test]
fn one_hunk_over_the_whole_file_is_linear() {
    let shape = |n: usize| {
        let before = many_python_functions(n);
        let after = before.replace("    return -x\n", "    return -x - 1\n");
        let patch = codethread_patch::diff_files(
            &[codethread_patch::FileChange::new(
                b"m.py",
                Some(before.as_bytes()),
                Some(after.as_bytes()),
            )],
            &codethread_patch::DiffOptions::default(),
        )
        .unwrap();
        assert_eq!(
            patch.files[0].hunks.len(),
            1,
            "the edits merge into one hunk"
        );
        let mut tree = MemTree::new();
        tree.insert(b"m.py".to_vec(), before.into_bytes());
        (tree, patch, after)
    };
    // Each size's input is made once (writing the diff is not what is
    // measured: the minimum of the runs leaves it out).
    let made = std::cell::RefCell::new(std::collections::HashMap::new());
    let input = |n: usize| {
        made.borrow_mut()
            .entry(n)
            .or_insert_with(|| shape(n))
            .clone()
    };
    // Applying (the part that was quadratic) alone, then localizing.
    assert_subquadratic("apply an edit of every function", 4000, |n| {
        let (mut tree, patch, after) = input(n);
        tree.apply(&patch, &codethread_patch::ApplyOptions::default())
            .unwrap();
        assert_eq!(tree.get(b"m.py"), Some(after.as_bytes()));
    });
    assert_subquadratic("localize an edit of every function", 2000, |n| {
        let (tree, patch, _) = input(n);
        let loc = localize(&tree, &patch, &LocalizeOptions::default()).unwrap();
        assert_eq!(loc.targets.len(), n);
    });
}

/// Writing the diff of such an edit is linear too (the histogram diff of a
/// whole file peels one piece per recursion: 4x the lines took 15x the
/// time). A large file is cut at lines unique on both sides first; the
/// diff still applies to give the new file, and reverses to the old one.
#[test]
fn writing_a_diff_of_every_function_is_linear() {
    let made = std::cell::RefCell::new(std::collections::HashMap::new());
    let input = |n: usize| {
        made.borrow_mut()
            .entry(n)
            .or_insert_with(|| {
                let before = many_python_functions(n);
                // Every function edited; every 5th loses a line, every 7th
                // gains two, and one block moves to the end.
                let mut after = String::new();
                for (i, f) in before.split_inclusive("\n\n").enumerate() {
                    let mut f = f.replace("    return -x\n", "    return -x - 1\n");
                    if i % 5 == 0 {
                        f = f.replace("    x = a + b  # sum\n", "");
                    }
                    if i % 7 == 0 {
                        f = f.replace("    if x >", "    y = 1\n    y += x\n    if x >");
                    }
                    after.push_str(&f);
                }
                after.push_str("def moved():\n    return 0\n");
                (before, after)
            })
            .clone()
    };
    let diff = |before: &str, after: &str| {
        codethread_patch::diff_files(
            &[codethread_patch::FileChange::new(
                b"m.py",
                Some(before.as_bytes()),
                Some(after.as_bytes()),
            )],
            &codethread_patch::DiffOptions::default(),
        )
        .unwrap()
    };
    assert_subquadratic("diff an edit of every function", 4000, |n| {
        let (before, after) = input(n);
        assert_eq!(diff(&before, &after).files.len(), 1);
    });
    for n in [100, 4000, 16000] {
        let (before, after) = input(n);
        let patch = diff(&before, &after);
        let mut tree = MemTree::new();
        tree.insert(b"m.py".to_vec(), before.clone().into_bytes());
        tree.apply(&patch, &codethread_patch::ApplyOptions::default())
            .unwrap();
        assert_eq!(tree.get(b"m.py"), Some(after.as_bytes()), "n = {n}");
        let back = diff(&after, &before);
        tree.apply(&back, &codethread_patch::ApplyOptions::default())
            .unwrap();
        assert_eq!(tree.get(b"m.py"), Some(before.as_bytes()), "n = {n}");
    }
}

/// The pre-images localization keeps for the PR0 step hold trees of at
/// most `KEPT_TREE_SOURCE_BYTES` of source in all (a tree takes tens of
/// times its source); every image keeps its index.
#[test]
fn kept_trees_are_bounded() {
    use codethread_patch::{localize_keeping, KEPT_TREE_SOURCE_BYTES};
    let before = many_python_functions(6000); // about 700 KB, parsed whole
    assert!(before.len() * 4 > KEPT_TREE_SOURCE_BYTES && before.len() < 1_000_000);
    let after = before.replace("    return -x\n", "    return -x - 1\n");
    let names: Vec<String> = (0..4).map(|i| format!("m{i}.py")).collect();
    let changes: Vec<codethread_patch::FileChange<'_>> = names
        .iter()
        .map(|n| {
            codethread_patch::FileChange::new(
                n.as_bytes(),
                Some(before.as_bytes()),
                Some(after.as_bytes()),
            )
        })
        .collect();
    let patch =
        codethread_patch::diff_files(&changes, &codethread_patch::DiffOptions::default()).unwrap();
    let mut tree = MemTree::new();
    for n in &names {
        tree.insert(n.as_bytes().to_vec(), before.clone().into_bytes());
    }
    let (loc, images) = localize_keeping(&tree, &patch, &LocalizeOptions::default()).unwrap();
    assert_eq!(loc.targets.len(), 4 * 6000);
    assert_eq!(images.len(), 4);
    let held: usize = images
        .values()
        .filter_map(|k| k.file.as_ref().map(|f| f.source.len()))
        .sum();
    assert!(
        held > 0 && held <= KEPT_TREE_SOURCE_BYTES,
        "{held} bytes of trees kept"
    );
    assert!(images.values().any(|k| k.file.is_none()));
    assert!(images.values().all(|k| k.functions.len() >= 6000));
}
