//! Building a [`Value`] with every array and object allocated at its final
//! size, from the counts [`super::scan`] took. serde_json's own builder
//! grows each by doubling, which for a large array briefly holds the old
//! and the new buffer: up to three times the array's final size.

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::cell::Cell;
use std::fmt;

/// The seed: the counts, and the index of the next container to open.
#[derive(Clone, Copy)]
pub(super) struct SizedValue<'a> {
    pub sizes: &'a [u32],
    pub next: &'a Cell<usize>,
}

impl SizedValue<'_> {
    /// The count of the container being opened (0 when the scan and the
    /// parser disagree, which only a broken text can make them do).
    fn take_size(&self) -> usize {
        let index = self.next.get();
        self.next.set(index + 1);
        self.sizes.get(index).map_or(0, |&size| size as usize)
    }
}

impl<'de> DeserializeSeed<'de> for SizedValue<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for SizedValue<'_> {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut elements = Vec::with_capacity(self.take_size());
        while let Some(element) = access.next_element_seed(self)? {
            elements.push(element);
        }
        Ok(Value::Array(elements))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut members = Map::with_capacity(self.take_size());
        while let Some(key) = access.next_key::<String>()? {
            let value = access.next_value_seed(self)?;
            // A repeated name keeps its first position and takes the last
            // value, as JSON.parse does.
            members.insert(key, value);
        }
        Ok(Value::Object(members))
    }
}
