//! JSON never carries a non-finite number. serde_json writes NaN and ±inf
//! as `null`, which would pass a broken figure off as a missing one; so
//! JSON is walked at each edge before it leaves — the CLI's `--format json`
//! (`terminal::json`), every desktop reply that holds a number (the shell's
//! `with*` and `blocking`), the evaluation and simulation JSON here — and one
//! holding such a number is refused with the field's path
//! (`options[2].total_nominal`).

use std::fmt;

use serde::Serialize;
use serde::ser;

use crate::Error;

/// Refuses a value whose serialised form holds a NaN or an infinity.
pub fn ensure_finite<T: Serialize + ?Sized>(value: &T) -> Result<(), Error> {
    let mut walk = Walk::default();
    value.serialize(&mut walk).map_err(|NonFinite(field)| Error::NonFinite { field })
}

/// The path of the first non-finite number.
#[derive(Debug)]
struct NonFinite(String);

impl fmt::Display for NonFinite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a finite number", self.0)
    }
}

impl std::error::Error for NonFinite {}

impl ser::Error for NonFinite {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        NonFinite(msg.to_string())
    }
}

/// Walks a value as a serializer would, keeping the path it is at.
#[derive(Default)]
struct Walk {
    path: Vec<String>,
    /// Index of the next element, one per open sequence.
    indices: Vec<usize>,
}

impl Walk {
    fn here(&self) -> String {
        let mut out = String::new();
        for p in &self.path {
            if !out.is_empty() && !p.starts_with('[') {
                out.push('.');
            }
            out.push_str(p);
        }
        if out.is_empty() { "(value)".to_owned() } else { out }
    }

    fn float(&self, x: f64) -> Result<(), NonFinite> {
        if x.is_finite() { Ok(()) } else { Err(NonFinite(self.here())) }
    }

    fn at<T: Serialize + ?Sized>(&mut self, segment: String, value: &T) -> Result<(), NonFinite> {
        self.path.push(segment);
        let r = value.serialize(&mut *self);
        self.path.pop();
        r
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NonFinite> {
        let i = self.indices.last().copied().unwrap_or(0);
        if let Some(last) = self.indices.last_mut() {
            *last += 1;
        }
        self.at(format!("[{i}]"), value)
    }

    fn open(&mut self) -> Result<&mut Self, NonFinite> {
        self.indices.push(0);
        Ok(self)
    }

    fn close(&mut self) -> Result<(), NonFinite> {
        self.indices.pop();
        Ok(())
    }
}

/// A map key as text, for the path (`breakdown.hardware`).
fn key_text<T: Serialize + ?Sized>(key: &T) -> String {
    serde_json::to_value(key).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_else(|| "{key}".to_owned())
}

impl<'a> ser::Serializer for &'a mut Walk {
    type Ok = ();
    type Error = NonFinite;
    type SerializeSeq = &'a mut Walk;
    type SerializeTuple = &'a mut Walk;
    type SerializeTupleStruct = &'a mut Walk;
    type SerializeTupleVariant = &'a mut Walk;
    type SerializeMap = MapWalk<'a>;
    type SerializeStruct = &'a mut Walk;
    type SerializeStructVariant = &'a mut Walk;

    fn serialize_bool(self, _: bool) -> Result<(), NonFinite> {
        Ok(())
    }
    fn serialize_i8(self, _: i8) -> Result<(), NonFinite> {
        Ok(())
    }
    fn serialize_i16(self, _: i16) -> Result<(), NonFinite> {
        Ok(())
    }
    fn serialize_i32(self, _: i32) -> Result<(), NonFinite> {
        Ok(())
    }
    fn serialize_i64(self, _: i64) -> Result<(), NonFinite> {
        Ok(())
    }
    fn serialize_u8(self, _: u8) -> Result<(), NonFinite> {
        Ok(())
    }
    fn serialize_u16(self, _: u16) -> Result<(), NonFinite> {
        Ok(())
    }
    fn serialize_u32(self, _: u32) -> Result<(), NonFinite> {
        Ok(())
    }
    fn serialize_u64(self, _: u64) -> Result<(), NonFinite> {
        Ok(())
    }
    fn serialize_f32(self, x: f32) -> Result<(), NonFinite> {
        self.float(f64::from(x))
    }
    fn serialize_f64(self, x: f64) -> Result<(), NonFinite> {
        self.float(x)
    }
    fn serialize_char(self, _: char) -> Result<(), NonFinite> {
        Ok(())
    }
    fn serialize_str(self, _: &str) -> Result<(), NonFinite> {
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), NonFinite> {
        Ok(())
    }
    fn serialize_none(self) -> Result<(), NonFinite> {
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), NonFinite> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), NonFinite> {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), NonFinite> {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), NonFinite> {
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), NonFinite> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), NonFinite> {
        self.at(variant.to_owned(), value)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, NonFinite> {
        self.open()
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, NonFinite> {
        self.open()
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, NonFinite> {
        self.open()
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self, NonFinite> {
        self.open()
    }
    fn serialize_map(self, _: Option<usize>) -> Result<MapWalk<'a>, NonFinite> {
        Ok(MapWalk { walk: self, key: None })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, NonFinite> {
        Ok(self)
    }
    fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self, NonFinite> {
        Ok(self)
    }
}

macro_rules! sequence {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for &mut Walk {
            type Ok = ();
            type Error = NonFinite;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NonFinite> {
                self.element(value)
            }
            fn end(self) -> Result<(), NonFinite> {
                self.close()
            }
        }
    )*};
}
sequence!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeStruct for &mut Walk {
    type Ok = ();
    type Error = NonFinite;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), NonFinite> {
        self.at(key.to_owned(), value)
    }
    fn end(self) -> Result<(), NonFinite> {
        Ok(())
    }
}

impl ser::SerializeStructVariant for &mut Walk {
    type Ok = ();
    type Error = NonFinite;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), NonFinite> {
        self.at(key.to_owned(), value)
    }
    fn end(self) -> Result<(), NonFinite> {
        Ok(())
    }
}

/// A map: keys are remembered for the path of their values.
struct MapWalk<'a> {
    walk: &'a mut Walk,
    key: Option<String>,
}

impl ser::SerializeMap for MapWalk<'_> {
    type Ok = ();
    type Error = NonFinite;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), NonFinite> {
        self.key = Some(key_text(key));
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NonFinite> {
        let key = self.key.take().unwrap_or_default();
        self.walk.at(key, value)
    }
    fn end(self) -> Result<(), NonFinite> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::collections::BTreeMap;

    use super::*;

    #[derive(Serialize)]
    struct Row {
        id: String,
        totals: Vec<f64>,
        breakdown: BTreeMap<&'static str, f64>,
        pair: (String, f64),
    }

    #[test]
    fn a_non_finite_number_is_named_by_its_path() {
        let mut row = Row {
            id: "a".into(),
            totals: vec![1.0, 2.0],
            breakdown: BTreeMap::from([("hardware", 3.0)]),
            pair: ("x".into(), 4.0),
        };
        assert!(ensure_finite(&vec![&row]).is_ok());
        row.totals[1] = f64::NAN;
        let Err(Error::NonFinite { field }) = ensure_finite(&vec![&row]) else { panic!() };
        assert_eq!(field, "[0].totals[1]");
        row.totals[1] = 0.0;
        row.breakdown.insert("power", f64::INFINITY);
        let Err(Error::NonFinite { field }) = ensure_finite(&row) else { panic!() };
        assert_eq!(field, "breakdown.power");
        row.breakdown.clear();
        row.pair.1 = f64::NEG_INFINITY;
        let Err(Error::NonFinite { field }) = ensure_finite(&row) else { panic!() };
        assert_eq!(field, "pair[1]");
    }
}
