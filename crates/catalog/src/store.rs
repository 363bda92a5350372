//! Rows in and out of SQLite through their serde shape, so each table is
//! written once (its struct) and not again as column lists. A column whose
//! name starts with `_` is the database's own bookkeeping (which change
//! added an imported offer), not a field of the row: reads leave it out.

use rusqlite::types::Value as Sql;
use rusqlite::{Connection, Params};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value as Json};

mod bind;

use crate::Error;

/// Inserts (or replaces) a row into `table`; column names are the row's field names.
pub fn insert<T: Serialize>(conn: &Connection, table: &str, row: &T) -> Result<(), Error> {
    insert_rows(conn, table, [row])
}

/// Inserts (or replaces) rows into `table`, the statement written once for
/// rows with the same fields (every row of one struct has them all).
pub fn insert_rows<'a, T: Serialize + 'a>(
    conn: &Connection,
    table: &str,
    rows: impl IntoIterator<Item = &'a T>,
) -> Result<(), Error> {
    write_rows(conn, table, None, rows.into_iter().map(|row| (row, None)))
}

/// Writes rows keyed by `id` into `table`, each with a value for the
/// bookkeeping column `mark`: a new row is inserted with it, a row already
/// there takes the new fields and keeps the `mark` it had.
pub fn upsert_rows<'a, T: Serialize + 'a>(
    conn: &Connection,
    table: &str,
    mark: &str,
    rows: impl IntoIterator<Item = (&'a T, Option<i64>)>,
) -> Result<(), Error> {
    write_rows(conn, table, Some(mark), rows)
}

/// Both writes: without a `mark`, a row with the same key is replaced;
/// with one, it is updated and keeps its mark. Each row's fields are bound
/// to the statement's parameters as serde walks them ([`bind::fields`]),
/// no map of it built. (One statement per row: a statement of many rows'
/// `VALUES` was measured slower.)
fn write_rows<'a, T: Serialize + 'a>(
    conn: &Connection,
    table: &str,
    mark: Option<&str>,
    rows: impl IntoIterator<Item = (&'a T, Option<i64>)>,
) -> Result<(), Error> {
    let (mut columns, mut names) = (Vec::new(), Vec::new());
    let mut stmt: Option<rusqlite::CachedStatement<'_>> = None;
    for (row, marked) in rows {
        // Bound to the statement of the row before when it has the same
        // fields (every row of one struct has), else to one made for its own.
        names.clear();
        let bound =
            stmt.as_mut().is_some_and(|s| bind::fields(row, &mut names, Some(&mut **s)).is_ok() && names == columns);
        if !bound {
            names.clear();
            bind::fields(row, &mut names, None)?;
            if names.is_empty() {
                return Err(Error::Internal(format!("a {table} row has no fields")));
            }
            columns.clone_from(&names);
            stmt = Some(conn.prepare_cached(&write_sql(table, &columns, mark))?);
            names.clear();
            bind::fields(row, &mut names, stmt.as_deref_mut())?;
        }
        let stmt = stmt.as_mut().ok_or_else(|| Error::Internal(format!("a {table} row has no statement")))?;
        if mark.is_some() {
            stmt.raw_bind_parameter(columns.len() + 1, marked)?;
        }
        stmt.raw_execute()?;
    }
    Ok(())
}

fn write_sql(table: &str, columns: &[&str], mark: Option<&str>) -> String {
    // Quoted: a field may be an SQL keyword (`case`).
    let quoted: Vec<String> = columns.iter().map(|k| format!("\"{k}\"")).collect();
    let count = columns.len() + usize::from(mark.is_some());
    let placeholders: Vec<String> = (1..=count).map(|i| format!("?{i}")).collect();
    match mark {
        None => format!("INSERT OR REPLACE INTO {table} ({}) VALUES ({})", quoted.join(", "), placeholders.join(", ")),
        Some(mark) => {
            let updates: Vec<String> =
                quoted.iter().filter(|k| *k != "\"id\"").map(|k| format!("{k} = excluded.{k}")).collect();
            format!(
                "INSERT INTO {table} ({}, {mark}) VALUES ({}) ON CONFLICT(id) DO UPDATE SET {}",
                quoted.join(", "),
                placeholders.join(", "),
                updates.join(", ")
            )
        }
    }
}

/// Runs a query and reads each row into `T` by column name.
pub fn select<T: DeserializeOwned, P: Params>(conn: &Connection, sql: &str, params: P) -> Result<Vec<T>, Error> {
    let mut stmt = conn.prepare_cached(sql)?;
    let names: Vec<String> = stmt.column_names().map(str::to_owned).collect();
    let mut rows = stmt.query(params)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        let mut map = Map::with_capacity(names.len());
        for (i, name) in names.iter().enumerate().filter(|(_, n)| !n.starts_with('_')) {
            let value = match row.get::<_, Sql>(i)? {
                Sql::Null => Json::Null,
                Sql::Integer(n) => Json::Number(n.into()),
                Sql::Real(x) => Number::from_f64(x).map_or(Json::Null, Json::Number),
                Sql::Text(s) => Json::String(s),
                Sql::Blob(_) => Json::Null,
            };
            map.insert(name.clone(), value);
        }
        out.push(serde_json::from_value(Json::Object(map))?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        OnDemand,
    }

    #[derive(Serialize)]
    struct Row {
        id: &'static str,
        n: f64,
        flag: Option<bool>,
        list: Vec<u32>,
        kind: Kind,
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<&'static str>,
    }

    fn stored(conn: &Connection) -> Vec<String> {
        let mut stmt = conn
            .prepare("SELECT concat_ws('|', id, quote(n), quote(flag), quote(list), quote(kind), quote(note)) FROM t ORDER BY id")
            .unwrap();
        stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    }

    #[test]
    fn rows_are_stored_as_their_json_shape_and_a_row_with_other_fields_gets_its_own_statement() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t (id TEXT PRIMARY KEY, n REAL, flag TEXT, list TEXT, kind TEXT, note TEXT)")
            .unwrap();
        let rows = [
            Row { id: "a", n: 1.5, flag: Some(true), list: vec![1, 2], kind: Kind::OnDemand, note: Some("x") },
            // No `note` field: written without one, not with the row before's.
            Row { id: "b", n: f64::NAN, flag: None, list: vec![], kind: Kind::OnDemand, note: None },
            Row { id: "c", n: 3.0, flag: Some(false), list: vec![3], kind: Kind::OnDemand, note: Some("z") },
        ];
        insert_rows(&conn, "t", &rows).unwrap();
        assert_eq!(
            stored(&conn),
            [
                "a|1.5|'true'|'[1,2]'|'on_demand'|'x'",
                "b|NULL|NULL|'[]'|'on_demand'|NULL",
                "c|3.0|'false'|'[3]'|'on_demand'|'z'",
            ]
        );
    }
}
