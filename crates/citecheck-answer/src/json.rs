//! Small accessors over `serde_json::Value` that never panic: the readers walk untrusted JSON,
//! and a field of the wrong type is treated as absent (the reader then says what is missing).

use serde_json::Value;

/// The first of `keys` present in `v` (providers' REST JSON is camelCase where their Python
/// SDKs dump snake_case; Gemini is read in both).
pub fn field<'a>(v: &'a Value, keys: &[&str]) -> Option<&'a Value> {
    keys.iter().find_map(|k| v.get(*k)).filter(|v| !v.is_null())
}

pub fn str_of<'a>(v: &'a Value, keys: &[&str]) -> Option<&'a str> {
    field(v, keys).and_then(Value::as_str)
}

pub fn array<'a>(v: &'a Value, keys: &[&str]) -> &'a [Value] {
    field(v, keys)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// A non-negative integer field; `Err` names a field that is present but not one.
pub fn index(v: &Value, keys: &[&str]) -> Result<Option<u64>, String> {
    match field(v, keys) {
        None => Ok(None),
        Some(n) => n
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("`{}` is not a non-negative integer: {n}", keys[0])),
    }
}

/// The top-level keys of an object, for an error saying what was found.
pub fn describe(v: &Value) -> String {
    match v {
        Value::Object(map) => {
            let keys: Vec<&str> = map.keys().map(String::as_str).take(12).collect();
            if keys.is_empty() {
                "an empty JSON object".to_string()
            } else {
                format!("a JSON object with keys [{}]", keys.join(", "))
            }
        }
        Value::Array(items) => format!("a JSON array of {} items", items.len()),
        Value::String(_) => "a JSON string".to_string(),
        Value::Number(_) => "a JSON number".to_string(),
        Value::Bool(_) => "a JSON boolean".to_string(),
        Value::Null => "JSON null".to_string(),
    }
}
