//! A row's fields straight onto a statement's parameters, by serde: the
//! field names in order, then each value bound as SQLite's own type, the
//! way the rows' JSON shape has always been stored (text, numbers, NULL for
//! none or a non-finite number, `true`/`false` as text, anything nested as
//! its JSON text). No map, key or value is allocated per row.

use std::fmt;

use rusqlite::Statement;
use rusqlite::types::Null;
use serde::Serialize;
use serde::ser::{self, Impossible, SerializeStruct};

use crate::Error;

/// Walks `row` (a struct): pushes its field names onto `names` and, with a
/// statement, binds each field to the parameter of its position (from 1).
pub fn fields<T: Serialize + ?Sized>(
    row: &T,
    names: &mut Vec<&'static str>,
    stmt: Option<&mut Statement<'_>>,
) -> Result<(), Error> {
    let row_ser = RowSer { names, stmt, index: 0 };
    row.serialize(row_ser).map_err(|e| match e {
        Bind::Sql(e) => Error::from(e),
        Bind::NotRecord => Error::Internal("a row is not a record".into()),
        Bind::Nested | Bind::Custom(_) => Error::Internal(format!("a row's field could not be written: {e}")),
    })
}

#[derive(Debug)]
enum Bind {
    Sql(rusqlite::Error),
    /// The row is not a struct.
    NotRecord,
    /// A field is a list, map or record: written as its JSON text instead.
    Nested,
    Custom(String),
}

impl fmt::Display for Bind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bind::Sql(e) => write!(f, "{e}"),
            Bind::NotRecord => f.write_str("not a record"),
            Bind::Nested => f.write_str("a nested value"),
            Bind::Custom(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Bind {}

impl ser::Error for Bind {
    fn custom<M: fmt::Display>(msg: M) -> Self {
        Bind::Custom(msg.to_string())
    }
}

impl From<rusqlite::Error> for Bind {
    fn from(e: rusqlite::Error) -> Self {
        Bind::Sql(e)
    }
}

struct RowSer<'r, 's, 'c> {
    names: &'r mut Vec<&'static str>,
    stmt: Option<&'s mut Statement<'c>>,
    index: usize,
}

impl SerializeStruct for RowSer<'_, '_, '_> {
    type Ok = ();
    type Error = Bind;

    fn serialize_field<V: Serialize + ?Sized>(&mut self, key: &'static str, value: &V) -> Result<(), Bind> {
        self.names.push(key);
        self.index += 1;
        let Some(stmt) = self.stmt.as_deref_mut() else {
            return Ok(());
        };
        match value.serialize(Cell { stmt: &mut *stmt, index: self.index }) {
            Err(Bind::Nested) => {
                let json = serde_json::to_string(value).map_err(|e| Bind::Custom(e.to_string()))?;
                Ok(stmt.raw_bind_parameter(self.index, json)?)
            }
            other => other,
        }
    }

    fn end(self) -> Result<(), Bind> {
        Ok(())
    }
}

/// Serializer methods that refuse their value with `$error`.
macro_rules! refuse {
    ($error:expr; $($method:ident($($arg:ty),*) -> $ok:ty;)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<$ok, Bind> { Err($error) })*
    };
}

/// Serializer methods that bind their integer as SQLite's 64-bit integer.
macro_rules! integers {
    ($($method:ident($t:ty)),*) => {
        $(fn $method(self, v: $t) -> Result<(), Bind> { self.bind(i64::from(v)) })*
    };
}

/// The types and methods of lists, maps and variants with data, refused
/// with `$error`.
macro_rules! refuse_compounds {
    ($error:expr) => {
        type Ok = ();
        type Error = Bind;
        type SerializeSeq = Impossible<(), Bind>;
        type SerializeTuple = Impossible<(), Bind>;
        type SerializeTupleStruct = Impossible<(), Bind>;
        type SerializeTupleVariant = Impossible<(), Bind>;
        type SerializeMap = Impossible<(), Bind>;
        type SerializeStructVariant = Impossible<(), Bind>;

        fn serialize_newtype_variant<V: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &V,
        ) -> Result<(), Bind> {
            Err($error)
        }

        refuse! { $error;
            serialize_seq(Option<usize>) -> Self::SerializeSeq;
            serialize_tuple(usize) -> Self::SerializeTuple;
            serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
            serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
            serialize_map(Option<usize>) -> Self::SerializeMap;
            serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
        }
    };
}

impl<'r, 's, 'c> ser::Serializer for RowSer<'r, 's, 'c> {
    type SerializeStruct = Self;

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Bind> {
        Ok(self)
    }

    fn serialize_newtype_struct<V: Serialize + ?Sized>(self, _: &'static str, value: &V) -> Result<(), Bind> {
        value.serialize(self)
    }

    fn serialize_some<V: Serialize + ?Sized>(self, value: &V) -> Result<(), Bind> {
        value.serialize(self)
    }

    // Only a struct is a row.
    refuse_compounds!(Bind::NotRecord);
    refuse! { Bind::NotRecord;
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_char(char) -> ();
        serialize_str(&str) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
    }
}

/// One field's value, bound to parameter `index`.
struct Cell<'s, 'c> {
    stmt: &'s mut Statement<'c>,
    index: usize,
}

impl Cell<'_, '_> {
    fn bind<V: rusqlite::ToSql>(self, value: V) -> Result<(), Bind> {
        Ok(self.stmt.raw_bind_parameter(self.index, value)?)
    }
}

impl<'s, 'c> ser::Serializer for Cell<'s, 'c> {
    type SerializeStruct = Impossible<(), Bind>;

    fn serialize_bool(self, v: bool) -> Result<(), Bind> {
        self.bind(if v { "true" } else { "false" })
    }
    integers!(serialize_i8(i8), serialize_i16(i16), serialize_i32(i32), serialize_i64(i64));
    integers!(serialize_u8(u8), serialize_u16(u16), serialize_u32(u32));
    fn serialize_u64(self, v: u64) -> Result<(), Bind> {
        match i64::try_from(v) {
            Ok(i) => self.bind(i),
            Err(_) => self.bind(v as f64),
        }
    }
    fn serialize_f32(self, v: f32) -> Result<(), Bind> {
        self.serialize_f64(f64::from(v))
    }
    /// JSON has no NaN or infinity: as before, they are stored as NULL.
    fn serialize_f64(self, v: f64) -> Result<(), Bind> {
        if v.is_finite() { self.bind(v) } else { self.bind(Null) }
    }
    fn serialize_char(self, v: char) -> Result<(), Bind> {
        self.bind(v.to_string())
    }
    fn serialize_str(self, v: &str) -> Result<(), Bind> {
        self.bind(v)
    }
    fn serialize_none(self) -> Result<(), Bind> {
        self.bind(Null)
    }
    fn serialize_some<V: Serialize + ?Sized>(self, value: &V) -> Result<(), Bind> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Bind> {
        self.bind(Null)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Bind> {
        self.bind(Null)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), Bind> {
        self.bind(variant)
    }
    fn serialize_newtype_struct<V: Serialize + ?Sized>(self, _: &'static str, value: &V) -> Result<(), Bind> {
        value.serialize(self)
    }
    // Lists, maps, records and variants with data: written as JSON text by the caller.
    refuse_compounds!(Bind::Nested);
    refuse! { Bind::Nested;
        serialize_bytes(&[u8]) -> ();
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
    }
}
