//! Catalogue packs and keys: what a pack changes, removals, untrusting a key.

use crate::{stderr, stdout, suanli_on};

/// A pack of `db`'s catalogue whose tables `edit` changed, signed with `keys/suanli.key`.
fn crafted_pack(
    db: &std::path::Path,
    keys: &std::path::Path,
    out: &std::path::Path,
    edit: impl Fn(&mut suanli_catalog::pack::Pack),
) {
    use suanli_catalog::pack::{self, Subset};
    let (c, _) = suanli_catalog::Catalog::open(db, "2026-12-04T00:00:00Z").unwrap();
    let mut p = c.export_pack(c.version().unwrap().unwrap() + 1, "crafted", "2026-12-04", &Subset::default()).unwrap();
    edit(&mut p);
    let bytes = pack::to_bytes(&p).unwrap();
    let sk = std::fs::read_to_string(keys.join("suanli.key")).unwrap();
    std::fs::write(out, &bytes).unwrap();
    std::fs::write(out.with_extension("json.minisig"), pack::sign(&bytes, &sk, p.version).unwrap()).unwrap();
}

#[test]
fn packs_say_what_they_change_and_a_large_removal_needs_allow_removals() {
    let dir = tempfile::tempdir().unwrap();
    let publisher = dir.path().join("publisher.sqlite");
    let receiver = dir.path().join("receiver.sqlite");
    let keys = dir.path().join("keys");
    let key = keys.join("suanli.key");
    assert!(suanli_on(&publisher, &["catalog", "keygen", "--out", keys.to_str().unwrap()]).status.success());
    assert!(suanli_on(&receiver, &["catalog", "trust", keys.join("suanli.pub").to_str().unwrap()]).status.success());

    // A provider pack: its scope printed, nothing outside it removed.
    let aws = dir.path().join("aws.json");
    let o = suanli_on(
        &publisher,
        &[
            "catalog",
            "pack",
            "export",
            "--provider",
            "aws",
            "--out",
            aws.to_str().unwrap(),
            "--key",
            key.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = suanli_on(&receiver, &["catalog", "pack", "verify", aws.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("covers: providers aws"), "{}", stdout(&o));
    assert!(stdout(&o).contains("offers: 0 added, 0 removed, 0 changed"), "{}", stdout(&o));
    let o = suanli_on(&receiver, &["catalog", "pack", "apply", aws.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("0 removed"), "{}", stdout(&o));

    // Edited names and notes are counted field by field.
    let edited = dir.path().join("edited.json");
    crafted_pack(&receiver, &keys, &edited, |p| {
        p.tables.offers[0].notes = Some("changed".into());
        p.tables.offers[1].instance = Some("renamed".into());
    });
    let o = suanli_on(&receiver, &["catalog", "pack", "verify", edited.to_str().unwrap()]);
    assert!(stdout(&o).contains("offers: 0 added, 0 removed, 2 changed (instance 1, notes 1)"), "{}", stdout(&o));

    // An empty whole-catalogue pack: refused without the flag, the catalogue as it was.
    let empty = dir.path().join("empty.json");
    crafted_pack(&receiver, &keys, &empty, |p| p.tables.offers.clear());
    let o = suanli_on(&receiver, &["catalog", "pack", "verify", empty.to_str().unwrap()]);
    assert!(stdout(&o).contains("covers: the whole catalogue"), "{}", stdout(&o));
    assert!(stdout(&o).contains("--allow-removals"), "{}", stdout(&o));
    let o = suanli_on(&receiver, &["catalog", "pack", "apply", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("nothing was changed") && stderr(&o).contains("--allow-removals"), "{}", stderr(&o));
    let o = suanli_on(&receiver, &["--lang", "zh", "catalog", "pack", "apply", empty.to_str().unwrap()]);
    assert!(stderr(&o).contains("--allow-removals") && stderr(&o).contains("移除"), "{}", stderr(&o));
    let o = suanli_on(&receiver, &["catalog", "pack", "apply", "--allow-removals", empty.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn untrust_removes_a_key_and_says_when_none_was_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let keys = dir.path().join("keys");
    assert!(suanli_on(&db, &["catalog", "keygen", "--out", keys.to_str().unwrap()]).status.success());
    let o = suanli_on(&db, &["catalog", "trust", keys.join("suanli.pub").to_str().unwrap()]);
    let id = stdout(&o).trim().rsplit(' ').next().unwrap().to_owned();
    let o = suanli_on(&db, &["catalog", "untrust", &id]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(&id), "{}", stdout(&o));
    let o = suanli_on(&db, &["catalog", "untrust", &id]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(&id), "{}", stderr(&o));
}
