//! The agent-side datasets every build carries (codethread-scaffold's
//! [`codethread_scaffold::build`]): the mini-swe-agent layouts of the
//! Implementation Task and of the Follow-On Issue, made from the chain's
//! exports and sealed setups, never through a planted link.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use codethread_bench::parse_instances;
use codethread_chain::{BuildOptions, BuildStatus, Chain, SnapshotSource};
use serde_json::{json, Value};

const M_BASE: &str = "def f(x):\n    return x + 1\n\n\ndef g():\n    return 2\n";
const M_GOLD: &str = "def f(x):\n    return x + 2\n\n\ndef g():\n    return 2\n";

struct Fixture {
    dir: PathBuf,
    chain: Chain,
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn gold() -> String {
    let mut before = codethread_patch::MemTree::new();
    before.insert(b"m.py".to_vec(), M_BASE.as_bytes().to_vec());
    let mut after = codethread_patch::MemTree::new();
    after.insert(b"m.py".to_vec(), M_GOLD.as_bytes().to_vec());
    let d =
        codethread_patch::diff_trees(&before, &after, &codethread_patch::DiffOptions::default())
            .expect("diff");
    String::from_utf8(d.to_bytes()).expect("utf-8")
}

fn rows() -> Vec<codethread_bench::Instance> {
    let row = json!({
        "instance_id": "o__r-1", "repo": "o/r", "base_commit": "abc", "patch": gold(),
        "FAIL_TO_PASS": ["t.py::test_f"], "PASS_TO_PASS": ["t.py::test_g"], "version": "1.0",
        "image": "img", "eval_script": "#!/bin/bash\n", "log_parser": "parse_log_pytest",
        "eval_type": "pass_and_fail"
    });
    parse_instances(Path::new("rows.jsonl"), &row.to_string())
        .expect("rows")
        .items
}

fn snapshots(dir: &Path) -> PathBuf {
    let snaps = dir.join("snap");
    let f = snaps.join("o__r-1/before/m.py");
    std::fs::create_dir_all(f.parent().expect("parent")).expect("mkdir");
    std::fs::write(&f, M_BASE).expect("write");
    snaps
}

fn fixture(tag: &str) -> Fixture {
    let dir = std::env::temp_dir().join(format!("ct-subsets-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let snaps = snapshots(&dir);
    let out = dir.join("chain");
    let s = codethread_scaffold::build(
        &rows(),
        &mut SnapshotSource::new(&snaps),
        &BuildOptions::default().out(out.clone()),
        &mut |_, _, _| {},
    )
    .expect("build");
    assert!(
        matches!(s.outcomes[0].status, BuildStatus::Built { .. }),
        "{:?}",
        s.outcomes
    );
    Fixture {
        chain: Chain::open(&out, Default::default()).expect("open"),
        dir,
    }
}

#[test]
fn exports_have_the_mini_swe_agent_layout() {
    let fx = fixture("mini");
    let root = fx.chain.dir.join("exports/mini-swe-agent/implementation");
    let subset = root.join("subset");
    let files: Vec<_> = std::fs::read_dir(&subset)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(files, vec![std::ffi::OsString::from("test.jsonl")]);
    let row: Value = serde_json::from_str(
        std::fs::read_to_string(subset.join("test.jsonl"))
            .unwrap()
            .trim(),
    )
    .unwrap();
    let f = row["setup_patch_file"].as_str().unwrap();
    assert!(Path::new(f).is_absolute(), "{f}");
    // The sealed PR0: literals only, none of PR0's removed lines.
    let sealed = std::fs::read(f).unwrap();
    assert_eq!(
        sealed,
        std::fs::read(fx.chain.dir.join("instances/o__r-1/pr0_sealed.patch")).unwrap()
    );
    assert!(sealed.windows(16).any(|w| w == b"GIT binary patch"));
    assert!(!sealed.windows(2).any(|w| w == b"@@"));
    for k in [
        "patch",
        "pr0_patch",
        "pr1_human_patch",
        "gold_patch",
        "setup_patch",
    ] {
        assert!(row.get(k).is_none(), "agent-side row carries {k}");
    }
    // Every upstream column is in the export.
    for k in ["image", "eval_script", "log_parser", "eval_type"] {
        assert!(row[k].is_string(), "{k}");
    }
    let fo = fx
        .chain
        .dir
        .join("exports/mini-swe-agent/follow_on_human_pr1/subset/test.jsonl");
    let row: Value = serde_json::from_str(std::fs::read_to_string(fo).unwrap().trim()).unwrap();
    assert_eq!(
        std::fs::read(row["setup_patch_file"].as_str().unwrap()).unwrap(),
        b""
    );
}

#[cfg(unix)]
#[test]
fn a_planted_mini_swe_agent_link_is_not_followed() {
    let d = std::env::temp_dir().join(format!("ct-subsets-link-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let snaps = snapshots(&d);
    let insts = rows();
    let opts = |out: &Path| BuildOptions::default().out(out.to_path_buf());
    // Deeper: a real exports/ directory whose mini-swe-agent/ is a link. The
    // instances build; the exports refuse the link and write nothing behind it.
    let out2 = d.join("chain2");
    let behind = d.join("behind_mini");
    std::fs::create_dir_all(out2.join("exports")).unwrap();
    std::fs::create_dir_all(&behind).unwrap();
    std::os::unix::fs::symlink(&behind, out2.join("exports/mini-swe-agent")).unwrap();
    let r = codethread_scaffold::build(
        &insts,
        &mut SnapshotSource::new(&snaps),
        &opts(&out2),
        &mut |_, _, _| {},
    );
    let e = r.expect_err("a planted exports/mini-swe-agent link is refused");
    assert!(e.to_string().contains("mini-swe-agent"), "{e}");
    assert_eq!(
        std::fs::read_dir(&behind).unwrap().count(),
        0,
        "wrote through exports/mini-swe-agent/"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// `integrations/swe-agent/` and `integrations/harbor/` hold exactly the
/// files every SWE-agent batch and grader image are built from
/// (codethread-scaffold's constants). `CODETHREAD_BLESS=1` rewrites them.
#[test]
fn integration_files_equal_the_constants() {
    use codethread_scaffold::{harbor, swe_agent as sa};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../integrations");
    let runtime = sa::runtime_dockerfile();
    let grader = harbor::grader_dockerfile();
    let bless = std::env::var_os("CODETHREAD_BLESS").is_some();
    for (name, text) in [
        ("swe-agent/codethread.yaml", sa::CONFIG),
        ("swe-agent/runtime.Dockerfile", runtime.as_str()),
        ("swe-agent/Dockerfile", sa::IMAGE_DOCKERFILE),
        ("swe-agent/swerex-remote", sa::SWEREX_REMOTE),
        ("swe-agent/agent_network.sh", sa::AGENT_NETWORK_SCRIPT),
        ("harbor/grader.Dockerfile", grader.as_str()),
        ("harbor/grader-python", harbor::GRADER_PYTHON),
    ] {
        let path = root.join(name);
        if bless {
            std::fs::write(&path, text).unwrap();
        }
        let on_disk =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("integrations/{name}: {e}"));
        assert_eq!(
            on_disk, text,
            "integrations/{name} (CODETHREAD_BLESS=1 rewrites it)"
        );
    }
}

/// SWE-bench Pro's images hold the repository at `/app` (issue 33, item 4): an agent's image of
/// a Pro instance starts from Pro's image with `/testbed` a link to `/app` before the setup
/// runs there, in both subsets; a SWE-bench row's image is left as it names it.
#[test]
fn pro_agent_images_start_from_pros_image_at_app() {
    let dir = std::env::temp_dir().join(format!("ct-subsets-pro-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let id = "instance_o__r-0123456789abcdef0123456789abcdef01234567-vnan";
    let f = dir.join("snap").join(id).join("before/m.py");
    std::fs::create_dir_all(f.parent().unwrap()).unwrap();
    std::fs::write(&f, M_BASE).unwrap();
    let row = json!({
        "instance_id": id, "repo": "o/r", "base_commit": "abc", "patch": gold(),
        "fail_to_pass": "['t.py::test_f']", "pass_to_pass": "['t.py::test_g']",
        "dockerhub_tag": "o.r-0123456789abcdef0123456789abcdef01234567",
        "repo_language": "python", "issue_specificity": "['major_bug']",
        "requirements": "", "interface": "", "problem_statement": "fix f"
    });
    let insts = parse_instances(Path::new("pro.jsonl"), &row.to_string())
        .unwrap()
        .items;
    assert_eq!(insts.len(), 1);
    let out = dir.join("chain");
    let s = codethread_scaffold::build(
        &insts,
        &mut SnapshotSource::new(dir.join("snap")),
        &BuildOptions::default().out(out.clone()),
        &mut |_, _, _| {},
    )
    .unwrap();
    assert!(
        matches!(s.outcomes[0].status, BuildStatus::Built { .. }),
        "{:?}",
        s.outcomes
    );
    for subset in ["implementation", "follow_on_human_pr1"] {
        let docker = std::fs::read_to_string(
            out.join("exports/mini-swe-agent")
                .join(subset)
                .join("environments")
                .join(id)
                .join("Dockerfile"),
        )
        .unwrap();
        let lines: Vec<&str> = docker.lines().collect();
        assert_eq!(
            lines[1], "FROM jefzda/sweap-images:o.r-0123456789abcdef0123456789abcdef01234567",
            "{docker}"
        );
        assert_eq!(
            lines[2], "RUN rmdir /testbed 2>/dev/null; [ -e /testbed ] || ln -s /app /testbed",
            "{docker}"
        );
        assert_eq!(lines[3], "WORKDIR /testbed", "{docker}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    // A SWE-bench row: its own image, nothing added.
    let fx = fixture("pro-contrast");
    let docker = std::fs::read_to_string(
        fx.chain
            .dir
            .join("exports/mini-swe-agent/implementation/environments/o__r-1/Dockerfile"),
    )
    .unwrap();
    assert!(!docker.contains("ln -s"), "{docker}");
}
