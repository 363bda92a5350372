//! Rows in and out of SQLite through their serde shape, so each table is
//! written once (its struct) and not again as column lists. A column whose
//! name starts with `_` is the database's own bookkeeping (which change
//! added an imported offer), not a field of the row: reads leave it out.

use rusqlite::types::Value as Sql;
use rusqlite::{Connection, Params};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value as Json};

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
/// with one, it is updated and keeps its mark.
fn write_rows<'a, T: Serialize + 'a>(
    conn: &Connection,
    table: &str,
    mark: Option<&str>,
    rows: impl IntoIterator<Item = (&'a T, Option<i64>)>,
) -> Result<(), Error> {
    let mut columns: Vec<String> = Vec::new();
    let mut stmt = None;
    for (row, marked) in rows {
        let Json::Object(map) = serde_json::to_value(row)? else {
            return Err(Error::Internal(format!("a {table} row is not a record")));
        };
        if !map.keys().eq(columns.iter()) {
            columns = map.keys().cloned().collect();
            stmt = Some(conn.prepare_cached(&write_sql(table, &columns, mark))?);
        }
        let mark_value = mark.map(|_| marked.map_or(Sql::Null, Sql::Integer));
        let values = map.into_iter().map(|(_, v)| to_sql(v)).chain(mark_value);
        let stmt = stmt.as_mut().ok_or_else(|| Error::Internal(format!("a {table} row has no fields")))?;
        stmt.execute(rusqlite::params_from_iter(values))?;
    }
    Ok(())
}

fn write_sql(table: &str, columns: &[String], mark: Option<&str>) -> String {
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

fn to_sql(v: Json) -> Sql {
    match v {
        Json::Null => Sql::Null,
        Json::Bool(b) => Sql::Text(b.to_string()),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Sql::Integer(i),
            None => Sql::Real(n.as_f64().unwrap_or(f64::NAN)),
        },
        Json::String(s) => Sql::Text(s),
        other => Sql::Text(other.to_string()),
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
