//! Names shared by the agent-side layouts: the setup-patch field of a
//! mini-swe-agent row and the tags of per-instance images.

/// Field of a mini-swe-agent row naming the file holding its setup patch
/// (absolute path): the startup command of
/// `integrations/mini-swe-agent/codethread.yaml` applies that file, so the
/// patch never goes through a command line (no argument-length limit).
pub(crate) const SETUP_PATCH_FILE_FIELD: &str = "setup_patch_file";

/// The tag of an instance's setup image: `codethread/<task>:<id>`, each part
/// reduced to the characters Docker references allow (a tag longer than
/// 128 characters keeps its head and a hash of the whole id).
pub(crate) fn setup_image_name(task: &str, instance_id: &str) -> String {
    let clean = |s: &str, lower: bool| -> String {
        s.chars()
            .map(|c| {
                let c = if lower { c.to_ascii_lowercase() } else { c };
                if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
                    c
                } else {
                    '-'
                }
            })
            .collect()
    };
    let mut repo = clean(task, true).trim_matches(['.', '-', '_']).to_string();
    if repo.is_empty() {
        repo = "setup".into();
    }
    let mut tag = clean(instance_id, false)
        .trim_start_matches(['.', '-'])
        .to_string();
    if tag.is_empty() || tag.len() > 128 {
        use sha2::Digest;
        let h = sha2::Sha256::digest(instance_id.as_bytes());
        let hex: String = h.iter().take(8).map(|b| format!("{b:02x}")).collect();
        tag = format!("{}-{hex}", &tag[..tag.len().min(111)]);
    }
    format!("codethread/{repo}:{tag}")
}
