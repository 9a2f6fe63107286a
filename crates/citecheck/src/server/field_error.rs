//! Why a JSON value does not fit a request type, as data rather than text: [`FieldError`] is the
//! error type serde's derived code reports into (a missing field, an unknown field with the known
//! ones, a wrong type), and [`ValueDeserializer`] reads a parsed [`serde_json::Value`] with it.
//!
//! `serde_json` turns every such report into its own error's message at once, so a caller that
//! wants the field's name would have to read it back out of the text. Deserializing the value
//! through this deserializer keeps it: serde hands the name to [`de::Error::missing_field`] and
//! [`de::Error::unknown_field`], and those build a variant here.

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{MapAccessDeserializer, MapDeserializer, SeqDeserializer};
use serde::de::{self, IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::Value;

/// What serde found wrong with the value, as it reported it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldError {
    /// A required field is absent from its object.
    Missing { field: &'static str },
    /// The object has a field the type does not know; `expected` are those it does.
    Unknown {
        field: String,
        expected: &'static [&'static str],
    },
    /// A value of the wrong type, in serde's words (`invalid type: integer `3`, expected a
    /// string`).
    InvalidType(String),
    /// Anything else the type refuses (a wrong length, a value out of range, its own check).
    Other(String),
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldError::Missing { field } => write!(f, "missing field `{field}`"),
            FieldError::Unknown { field, expected } => {
                write!(f, "unknown field `{field}`, expected {}", OneOf(expected))
            }
            FieldError::InvalidType(message) | FieldError::Other(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for FieldError {}

impl de::Error for FieldError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        FieldError::Other(msg.to_string())
    }

    fn invalid_type(unexp: de::Unexpected<'_>, exp: &dyn de::Expected) -> Self {
        // JSON's word for serde's unit, as serde_json says it.
        if unexp == de::Unexpected::Unit {
            return FieldError::InvalidType(format!("invalid type: null, expected {exp}"));
        }
        FieldError::InvalidType(format!("invalid type: {unexp}, expected {exp}"))
    }

    fn missing_field(field: &'static str) -> Self {
        FieldError::Missing { field }
    }

    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        FieldError::Unknown {
            field: field.to_string(),
            expected,
        }
    }
}

/// A list of field names in words: `` `a` ``, `` `a` or `b` ``, `` one of `a`, `b`, `c` ``.
pub struct OneOf<'a>(pub &'a [&'a str]);

impl fmt::Display for OneOf<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            [] => f.write_str("no fields"),
            [one] => write!(f, "`{one}`"),
            [a, b] => write!(f, "`{a}` or `{b}`"),
            names => {
                f.write_str("one of ")?;
                for (i, name) in names.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "`{name}`")?;
                }
                Ok(())
            }
        }
    }
}

/// Reads a [`Value`] into any `Deserialize` type, reporting in the error type `E`.
pub struct ValueDeserializer<E> {
    value: Value,
    error: PhantomData<E>,
}

impl<E> ValueDeserializer<E> {
    pub fn new(value: Value) -> Self {
        ValueDeserializer {
            value,
            error: PhantomData,
        }
    }
}

impl<'de, E: de::Error> IntoDeserializer<'de, E> for ValueDeserializer<E> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

fn entries<E>(
    map: serde_json::Map<String, Value>,
) -> impl Iterator<Item = (String, ValueDeserializer<E>)> {
    map.into_iter()
        .map(|(key, value)| (key, ValueDeserializer::new(value)))
}

impl<'de, E: de::Error> de::Deserializer<'de> for ValueDeserializer<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    visitor.visit_u64(u)
                } else if let Some(i) = n.as_i64() {
                    visitor.visit_i64(i)
                } else {
                    // Every JSON number is one of the three without `arbitrary_precision`.
                    visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN))
                }
            }
            Value::String(s) => visitor.visit_string(s),
            Value::Array(items) => {
                let mut seq = SeqDeserializer::new(items.into_iter().map(ValueDeserializer::new));
                let value = visitor.visit_seq(&mut seq)?;
                seq.end()?;
                Ok(value)
            }
            Value::Object(map) => {
                let mut access = MapDeserializer::new(entries(map));
                let value = visitor.visit_map(&mut access)?;
                access.end()?;
                Ok(value)
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.value {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        match self.value {
            // A unit variant by name, or `{"variant": content}`.
            Value::String(s) => visitor.visit_enum(s.into_deserializer()),
            Value::Object(map) => visitor.visit_enum(MapAccessDeserializer::new(
                MapDeserializer::new(entries(map)),
            )),
            other => ValueDeserializer::new(other).deserialize_any(visitor),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_newtype_struct(self)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

/// Reads `value` into `T`, reporting what does not fit as a [`FieldError`] with its path.
pub fn from_value<T: de::DeserializeOwned>(
    value: Value,
) -> Result<T, serde_path_to_error::Error<FieldError>> {
    serde_path_to_error::deserialize(ValueDeserializer::<FieldError>::new(value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, rename_all = "snake_case")]
    enum Mode {
        Strict,
        Loose,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Inner {
        name: String,
        #[serde(default)]
        weight: Option<f64>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Outer {
        id: u32,
        tags: Vec<String>,
        inner: Inner,
        mode: Mode,
        #[serde(default)]
        note: Option<String>,
    }

    #[test]
    fn a_value_that_fits_reads_the_same_as_through_serde_json() {
        let value = serde_json::json!({
            "id": 7, "tags": ["a", "b"], "inner": {"name": "n", "weight": 1.5},
            "mode": "loose", "note": null
        });
        let ours: Outer = from_value(value.clone()).expect("fits");
        let theirs: Outer = serde_json::from_value(value).expect("fits");
        assert_eq!(ours, theirs);
    }

    #[test]
    fn each_misfit_is_reported_as_data_with_its_path() {
        let cases = [
            (
                serde_json::json!({"id": 1, "tags": [], "mode": "strict"}),
                ".",
                FieldError::Missing { field: "inner" },
            ),
            (
                serde_json::json!({"id": 1, "tags": [], "inner": {}, "mode": "strict"}),
                "inner",
                FieldError::Missing { field: "name" },
            ),
            (
                serde_json::json!({"id": 1, "tags": [], "inner": {"name": "n", "w": 1},
                    "mode": "strict"}),
                "inner.w",
                FieldError::Unknown {
                    field: "w".into(),
                    expected: &["name", "weight"],
                },
            ),
            (
                serde_json::json!({"id": 1, "tags": ["a", 2], "inner": {"name": "n"},
                    "mode": "strict"}),
                "tags[1]",
                FieldError::InvalidType("invalid type: integer `2`, expected a string".into()),
            ),
            (
                serde_json::json!({"id": -1, "tags": [], "inner": {"name": "n"},
                    "mode": "strict"}),
                "id",
                FieldError::Other("invalid value: integer `-1`, expected u32".into()),
            ),
        ];
        for (value, path, expected) in cases {
            let err = from_value::<Outer>(value.clone()).expect_err("misfit");
            assert_eq!(err.path().to_string(), path, "{value}");
            assert_eq!(err.inner(), &expected, "{value}");
        }
        let err = from_value::<Outer>(serde_json::json!({
            "id": 1, "tags": [], "inner": {"name": "n"}, "mode": "other"
        }))
        .expect_err("no such variant");
        assert_eq!(err.path().to_string(), "mode");
    }

    #[test]
    fn field_lists_read_as_words() {
        assert_eq!(OneOf(&["a"]).to_string(), "`a`");
        assert_eq!(OneOf(&["a", "b"]).to_string(), "`a` or `b`");
        assert_eq!(OneOf(&["a", "b", "c"]).to_string(), "one of `a`, `b`, `c`");
    }
}
