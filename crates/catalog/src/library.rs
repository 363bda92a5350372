//! The user's scenario library, the editor's autosaved draft and the app's
//! settings. Like the price book, these rows belong to the user: no
//! catalogue update, import or pack touches them.

use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::{Catalog, Error};

/// A saved scenario's name and dates (the text is fetched on open).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ScenarioMeta {
    /// Its id in the library.
    pub id: u32,
    /// The name the user gave it.
    pub name: String,
    /// When it was first saved (the caller's `now`).
    pub created_at: String,
    /// When it was last saved.
    pub updated_at: String,
}

/// The editor's last state: JSON that may not (yet) be a valid scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The editor's scenario as JSON, valid or not.
    pub scenario_json: String,
    /// The saved scenario it was opened from, if any.
    pub library_id: Option<u32>,
    /// When it was saved (the caller's time).
    pub saved_at: String,
}

const META: &str = "SELECT id, name, created_at, updated_at FROM library";

fn meta(row: &rusqlite::Row<'_>) -> rusqlite::Result<ScenarioMeta> {
    Ok(ScenarioMeta { id: row.get(0)?, name: row.get(1)?, created_at: row.get(2)?, updated_at: row.get(3)? })
}

impl Catalog {
    /// Saved scenarios, most recently changed first.
    pub fn library(&self) -> Result<Vec<ScenarioMeta>, Error> {
        let mut stmt = self.conn.prepare(&format!("{META} ORDER BY updated_at DESC, id DESC"))?;
        let rows = stmt.query_map([], meta)?.collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// One saved scenario's name and dates; [`Error::NotFound`] when there is
    /// none.
    pub fn library_meta(&self, id: u32) -> Result<ScenarioMeta, Error> {
        self.conn
            .query_row(&format!("{META} WHERE id = ?1"), [id], meta)
            .optional()?
            .ok_or_else(|| Error::NotFound(format!("scenario {id}")))
    }

    /// A saved scenario's TOML text.
    pub fn library_text(&self, id: u32) -> Result<String, Error> {
        self.conn
            .query_row("SELECT toml FROM library WHERE id = ?1", [id], |r| r.get(0))
            .optional()?
            .ok_or_else(|| Error::NotFound(format!("scenario {id}")))
    }

    /// Saves a new scenario (`id` = `None`) or replaces one, in one transaction.
    pub fn library_put(&mut self, id: Option<u32>, name: &str, toml: &str, now: &str) -> Result<ScenarioMeta, Error> {
        let tx = crate::write_transaction(&mut self.conn)?;
        let id = match id {
            Some(id) => {
                let n = tx.execute(
                    "UPDATE library SET name = ?2, toml = ?3, updated_at = ?4 WHERE id = ?1",
                    params![id, name, toml, now],
                )?;
                if n == 0 {
                    return Err(Error::NotFound(format!("scenario {id}")));
                }
                id
            }
            None => {
                tx.execute(
                    "INSERT INTO library (name, toml, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)",
                    params![name, toml, now],
                )?;
                u32::try_from(tx.last_insert_rowid()).map_err(|_| Error::Internal("library id beyond u32".into()))?
            }
        };
        tx.commit()?;
        self.library_meta(id)
    }

    /// Removes a saved scenario; the draft forgets it was opened from there.
    pub fn library_delete(&mut self, id: u32) -> Result<(), Error> {
        let tx = crate::write_transaction(&mut self.conn)?;
        let n = tx.execute("DELETE FROM library WHERE id = ?1", [id])?;
        if n == 0 {
            return Err(Error::NotFound(format!("scenario {id}")));
        }
        tx.execute("UPDATE draft SET library_id = NULL WHERE library_id = ?1", [id])?;
        tx.commit()?;
        Ok(())
    }

    /// The autosaved draft, if there is one.
    pub fn draft(&self) -> Result<Option<Draft>, Error> {
        Ok(self
            .conn
            .query_row("SELECT scenario_json, library_id, saved_at FROM draft WHERE slot = 1", [], |r| {
                Ok(Draft { scenario_json: r.get(0)?, library_id: r.get(1)?, saved_at: r.get(2)? })
            })
            .optional()?)
    }

    /// Saves the draft over the last one.
    pub fn put_draft(&mut self, draft: &Draft) -> Result<(), Error> {
        self.conn.execute(
            "INSERT INTO draft (slot, scenario_json, library_id, saved_at) VALUES (1, ?1, ?2, ?3)
             ON CONFLICT (slot) DO UPDATE SET scenario_json = ?1, library_id = ?2, saved_at = ?3",
            params![draft.scenario_json, draft.library_id, draft.saved_at],
        )?;
        Ok(())
    }

    /// Forgets the draft.
    pub fn clear_draft(&mut self) -> Result<(), Error> {
        self.conn.execute("DELETE FROM draft", [])?;
        Ok(())
    }

    /// A setting's stored value (JSON text).
    pub fn setting(&self, key: &str) -> Result<Option<String>, Error> {
        Ok(self.conn.query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| r.get(0)).optional()?)
    }

    /// Stores a setting's value (JSON text), replacing any earlier one.
    pub fn put_setting(&mut self, key: &str, value: &str) -> Result<(), Error> {
        self.conn.execute(
            "INSERT INTO settings (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = ?2",
            params![key, value],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> Catalog {
        Catalog::open_in_memory("2026-11-30T00:00:00Z").map(|(c, _)| c).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn saves_lists_renames_and_deletes() -> Result<(), Error> {
        let mut c = catalog();
        let a = c.library_put(None, "A", "name = \"A\"", "2026-11-30T01:00:00Z")?;
        let b = c.library_put(None, "B", "name = \"B\"", "2026-11-30T02:00:00Z")?;
        assert_eq!(c.library()?.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["B", "A"]);
        let a2 = c.library_put(Some(a.id), "A2", "name = \"A2\"", "2026-11-30T03:00:00Z")?;
        assert_eq!(
            (a2.id, a2.created_at.as_str(), a2.updated_at.as_str()),
            (a.id, "2026-11-30T01:00:00Z", "2026-11-30T03:00:00Z")
        );
        assert_eq!(c.library_text(a.id)?, "name = \"A2\"");
        c.put_draft(&Draft { scenario_json: "{}".into(), library_id: Some(b.id), saved_at: "t".into() })?;
        c.library_delete(b.id)?;
        assert_eq!(c.draft()?.map(|d| d.library_id), Some(None));
        assert!(matches!(c.library_delete(b.id), Err(Error::NotFound(_))));
        assert!(matches!(c.library_put(Some(b.id), "x", "", "t"), Err(Error::NotFound(_))));
        Ok(())
    }

    #[test]
    fn one_draft_and_settings_overwrite() -> Result<(), Error> {
        let mut c = catalog();
        assert_eq!(c.draft()?, None);
        c.put_draft(&Draft { scenario_json: "{\"a\":1}".into(), library_id: None, saved_at: "1".into() })?;
        c.put_draft(&Draft { scenario_json: "{\"a\":2}".into(), library_id: None, saved_at: "2".into() })?;
        assert_eq!(c.draft()?.map(|d| d.scenario_json), Some("{\"a\":2}".to_owned()));
        c.clear_draft()?;
        assert_eq!(c.draft()?, None);
        c.put_setting("lang", "\"zh\"")?;
        c.put_setting("lang", "\"en\"")?;
        assert_eq!(c.setting("lang")?.as_deref(), Some("\"en\""));
        Ok(())
    }
}
