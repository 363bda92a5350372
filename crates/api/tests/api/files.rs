//! What Suanli writes: whole files, only over regular files, never over a
//! read-only one, and a multi-file export all or nothing.

use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};

use suanli_api::{Lang, write_atomic};

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios").join(name)
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn a_device_file_is_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let device = dir.path().join("null");
    // A character device like /dev/null (1, 3), made here: never the real /dev.
    let made = std::process::Command::new("mknod").arg(&device).args(["c", "1", "3"]).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("SKIPPED a_device_file_is_never_replaced: mknod is not permitted here (needs root or CAP_MKNOD)");
        return;
    }
    let err = write_atomic(&device, b"%PDF-1.7 proposal").unwrap_err();
    let text = err.message(Lang::En);
    assert!(text.contains(&device.display().to_string()), "{text}");
    assert!(text.contains("not a regular file"), "{text}");
    assert!(err.message(Lang::Zh).contains("不是普通文件"), "{}", err.message(Lang::Zh));
    assert!(std::fs::symlink_metadata(&device).unwrap().file_type().is_char_device(), "the device was replaced");
    // Through the use case too: a proposal to the device is refused.
    let meta = suanli_api::proposal::ProposalMeta { date: "2026-11-30".into(), ..Default::default() };
    let db = dir.path().join("db.sqlite");
    let err = suanli_api::proposal::proposal(&example("a100-8x-buy-vs-rent.toml"), Some(&db), Lang::En, &meta, &device)
        .unwrap_err();
    assert_eq!(err.code(), suanli_api::ErrorCode::Write);
    assert!(std::fs::symlink_metadata(&device).unwrap().file_type().is_char_device());
}

#[test]
fn a_directory_or_a_symlink_is_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    assert!(write_atomic(&sub, b"x").unwrap_err().message(Lang::En).contains("not a regular file"));
    assert!(sub.is_dir());

    let target = dir.path().join("target.txt");
    std::fs::write(&target, b"old").unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let text = write_atomic(&link, b"new").unwrap_err().message(Lang::En);
    assert!(text.contains("symbolic link"), "{text}");
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(&target).unwrap(), b"old");
}

#[test]
fn a_read_only_target_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("proposal.pdf");
    std::fs::write(&file, b"the old proposal").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    let err = write_atomic(&file, b"a new one").unwrap_err();
    let text = err.message(Lang::En);
    assert!(text.contains(&file.display().to_string()) && text.contains("read-only"), "{text}");
    assert!(err.message(Lang::Zh).contains("只读"), "{}", err.message(Lang::Zh));
    assert_eq!(std::fs::read(&file).unwrap(), b"the old proposal");
    assert_eq!(mode(&file), 0o444);
}

#[test]
fn a_replaced_file_keeps_its_permissions_and_no_temporary_is_left() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("book.json");
    std::fs::write(&file, b"old").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    write_atomic(&file, b"new").unwrap();
    assert_eq!(std::fs::read(&file).unwrap(), b"new");
    assert_eq!(mode(&file), 0o600, "a private file stays private");
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("book.json")]);
}

#[test]
fn an_export_is_all_or_nothing_when_one_target_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let xlsx = dir.path().join("good.xlsx");
    let csv = dir.path().join("csv");
    std::fs::create_dir(&csv).unwrap();
    let ro = csv.join("monthly.csv");
    std::fs::write(&ro, b"kept").unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
    let scenario = example("a100-8x-buy-vs-rent.toml");
    let err = suanli_api::proposal::export(&scenario, Some(&db), Lang::En, Some(&xlsx), Some(&csv)).unwrap_err();
    assert!(err.message(Lang::En).contains("monthly.csv"), "{}", err.message(Lang::En));
    assert!(!xlsx.exists(), "good.xlsx was written although the export failed");
    let left: Vec<_> = std::fs::read_dir(&csv).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, vec![std::ffi::OsString::from("monthly.csv")], "only the refused file is there");
    assert_eq!(std::fs::read(&ro).unwrap(), b"kept");
}

#[test]
fn an_export_is_all_or_nothing_when_a_directory_cannot_be_made() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let xlsx = dir.path().join("good.xlsx");
    // A file where the CSV directory's parent should be: even root cannot make `plain/sub`.
    let plain = dir.path().join("plain");
    std::fs::write(&plain, b"a file").unwrap();
    let csv = plain.join("sub");
    let scenario = example("a100-8x-buy-vs-rent.toml");
    let err = suanli_api::proposal::export(&scenario, Some(&db), Lang::En, Some(&xlsx), Some(&csv)).unwrap_err();
    assert_eq!(err.code(), suanli_api::ErrorCode::Write);
    assert!(!xlsx.exists(), "good.xlsx was written although the export failed");

    // And when an existing xlsx would be replaced, it is still the old one.
    std::fs::write(&xlsx, b"the old workbook").unwrap();
    suanli_api::proposal::export(&scenario, Some(&db), Lang::En, Some(&xlsx), Some(&csv)).unwrap_err();
    assert_eq!(std::fs::read(&xlsx).unwrap(), b"the old workbook");

    // Without the broken target, both are written.
    let csv = dir.path().join("out/csv");
    let written = suanli_api::proposal::export(&scenario, Some(&db), Lang::En, Some(&xlsx), Some(&csv)).unwrap();
    assert_eq!(written.len(), 1 + 8, "the workbook and eight CSV files");
    assert!(std::fs::read(&xlsx).unwrap().starts_with(b"PK"));
}

#[test]
fn a_signed_pack_and_its_signature_are_written_together_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let (c, _) = suanli_api::catalog::open_catalog(Some(&db)).unwrap();
    let keys = dir.path().join("keys");
    let (_, secret) = suanli_api::catalog::keygen(&keys).unwrap();
    let out = dir.path().join("pack.json");
    // A directory where the signature should go: the pack must not be written alone.
    std::fs::create_dir(dir.path().join("pack.json.minisig")).unwrap();
    let version = c.version().unwrap().unwrap() + 1;
    let subset = suanli_api::catalog::Subset::default();
    suanli_api::catalog::pack_export(&c, &out, Some(&secret), version, "team", &subset).unwrap_err();
    assert!(!out.exists(), "a pack without its signature was written");
}

#[test]
fn the_secret_key_is_private() {
    let dir = tempfile::tempdir().unwrap();
    let (public, secret) = suanli_api::catalog::keygen(&dir.path().join("keys")).unwrap();
    assert_eq!(mode(&secret), 0o600, "the secret key is readable by others");
    assert_eq!(mode(&public) & 0o600, 0o600);
}

#[test]
fn a_file_is_never_written_into_a_directory_that_is_not_there() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-dir/proposal.pdf");
    let err = write_atomic(&missing, b"x").unwrap_err();
    assert_eq!(err.code(), suanli_api::ErrorCode::Write);
    assert!(!dir.path().join("no-such-dir").exists(), "a directory was made for a single file");
}
