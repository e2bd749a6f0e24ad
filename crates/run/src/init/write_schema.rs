//! `init --mcp --write-tool` with no `--write-arg`: the write tool's
//! arguments worked out from its input schema (the JSON Schema the
//! server's tool list gives), so a user names the tool and nothing more.
//!
//! One property takes the content: a string, or an array of strings (the
//! content as its one element), found at the top level or inside required
//! objects and arrays of objects (a memory server's entities carry their
//! observations). Names that say "the text" win (`content`, `text`,
//! `body`, `observations`, `message`, ...), then a required property over
//! an optional one, then the shallower. Every other required property gets
//! a fixed value: its `const`, first `enum` value or `default`, else a
//! plausible constant of its type. Optional properties are left out. Each
//! choice is recorded, so `init` can say what it chose.
//!
//! With some `--write-arg`s given and none of them taking the content
//! ([`derive_around`]), the given ones are kept as given, and the content
//! and the other required properties come from the schema as above.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value};

/// Property names that say "the text of the item", best first.
const CONTENT_NAMES: &[&str] = &[
    "content",
    "contents",
    "text",
    "body",
    "observations",
    "message",
    "note",
    "description",
    "value",
    "data",
];

/// The string a required string property with nothing better is given.
const PLACEHOLDER_STRING: &str = "framecheck";

/// How deep properties are searched: deeper schemas are not stores' items.
const MAX_DEPTH: usize = 6;

/// Why the schema gives no write arguments.
#[derive(Debug, thiserror::Error, PartialEq)]
#[non_exhaustive]
pub enum SchemaError {
    /// The schema is not an object schema with properties.
    #[error("the write tool `{tool}`'s input schema has no properties to put the content in")]
    NoProperties {
        /// The write tool.
        tool: String,
    },
    /// No string (or array of strings) property can take the content.
    #[error("no property of the write tool `{tool}`'s input schema is a string or an array of strings that could take the content; give its arguments with --write-arg")]
    NoContentProperty {
        /// The write tool.
        tool: String,
    },
}

/// What one argument was given, and why.
#[derive(Debug, Clone, PartialEq)]
pub enum Choice {
    /// The property that takes the content; `element` when it is an array
    /// of strings and the content is its one element.
    Content {
        /// The property's path, `entities[].observations`.
        path: String,
        /// The content is the array's one element.
        element: bool,
    },
    /// A required property given a value the schema names
    /// (`const`, `enum`, `default`).
    FromSchema {
        /// The property's path.
        path: String,
        /// The value.
        value: Value,
        /// Which keyword named it.
        keyword: &'static str,
    },
    /// A required property given a plausible constant of its type.
    Constant {
        /// The property's path.
        path: String,
        /// The value.
        value: Value,
    },
    /// A top-level property the user gave (`--write-arg`), kept as given.
    Given {
        /// The property's name.
        path: String,
        /// The value.
        value: Value,
    },
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Choice::Content {
                path,
                element: false,
            } => write!(f, "`{path}` takes the content (a string)"),
            Choice::Content {
                path,
                element: true,
            } => write!(
                f,
                "`{path}` takes the content as its one element (an array of strings)"
            ),
            Choice::FromSchema {
                path,
                value,
                keyword,
            } => write!(
                f,
                "`{path}` is required: {value} (its schema's `{keyword}`)"
            ),
            Choice::Constant { path, value } => {
                write!(f, "`{path}` is required: {value} (a constant of its type)")
            }
            Choice::Given { path, value } => write!(f, "`{path}`: {value} (given)"),
        }
    }
}

/// The write tool's arguments, `{content}` where the content goes, and
/// what was chosen for each.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteArguments {
    /// The arguments, as a profile's `write.arguments`.
    pub arguments: BTreeMap<String, Value>,
    /// One line per argument given, the content's first.
    pub choices: Vec<Choice>,
}

/// A property that could take the content, and how good a choice it is.
#[derive(Debug, Clone)]
struct Candidate {
    /// Property names from the top, `[]` marking an array of objects
    /// stepped into.
    steps: Vec<Step>,
    element: bool,
    /// Lower is better: (name rank, optional, depth).
    rank: (usize, bool, usize),
}

#[derive(Debug, Clone, PartialEq)]
enum Step {
    Property(String),
    Item,
}

/// The arguments for `tool` from its input `schema`.
pub fn derive(tool: &str, schema: &Value) -> Result<WriteArguments, SchemaError> {
    derive_around(tool, schema, &BTreeMap::new())
}

/// The arguments for `tool`: the `given` top-level ones as they are (none
/// of them takes the content), the content in a property of `schema`
/// none of them is, and every other required property from `schema`.
pub fn derive_around(
    tool: &str,
    schema: &Value,
    given: &BTreeMap<String, Value>,
) -> Result<WriteArguments, SchemaError> {
    let mut derived = derive_free(tool, schema, given)?;
    // A given property is the user's: whatever the schema would have put
    // there (a constant, an object of them) goes, the given value stays.
    derived
        .choices
        .retain(|c| !given.contains_key(root_name(c)));
    for (name, value) in given {
        derived.arguments.insert(name.clone(), value.clone());
        derived.choices.push(Choice::Given {
            path: name.clone(),
            value: value.clone(),
        });
    }
    Ok(derived)
}

/// The top-level property a choice is about.
fn root_name(choice: &Choice) -> &str {
    let path = match choice {
        Choice::Content { path, .. }
        | Choice::FromSchema { path, .. }
        | Choice::Constant { path, .. }
        | Choice::Given { path, .. } => path,
    };
    let end = path.find(['.', '[']).unwrap_or(path.len());
    &path[..end]
}

/// [`derive`] with the content kept out of the `taken` top-level
/// properties.
fn derive_free(
    tool: &str,
    schema: &Value,
    taken: &BTreeMap<String, Value>,
) -> Result<WriteArguments, SchemaError> {
    let root = Resolver { root: schema };
    let object = root.resolve(schema);
    if object
        .get("properties")
        .and_then(Value::as_object)
        .is_none()
    {
        return Err(SchemaError::NoProperties { tool: tool.into() });
    }
    let mut candidates = Vec::new();
    root.collect(object, &mut Vec::new(), true, &mut candidates);
    let best = candidates
        .into_iter()
        .filter(|c| !matches!(c.steps.first(), Some(Step::Property(p)) if taken.contains_key(p)))
        .min_by_key(|c| c.rank)
        .ok_or_else(|| SchemaError::NoContentProperty { tool: tool.into() })?;
    let mut choices = vec![Choice::Content {
        path: path_text(&best.steps),
        element: best.element,
    }];
    let filled = root.fill_object(object, "", Some(&best), &mut choices);
    let Value::Object(arguments) = filled else {
        unreachable!("fill_object answers an object")
    };
    Ok(WriteArguments {
        arguments: arguments.into_iter().collect(),
        choices,
    })
}

/// `entities[].observations` for the steps to it.
fn path_text(steps: &[Step]) -> String {
    let mut text = String::new();
    for step in steps {
        match step {
            Step::Property(name) if text.is_empty() => text.push_str(name),
            Step::Property(name) => {
                text.push('.');
                text.push_str(name);
            }
            Step::Item => text.push_str("[]"),
        }
    }
    text
}

/// Reads schemas with `$ref` (into the root's `$defs`/`definitions`) and
/// `anyOf`/`oneOf` (the first branch that is not `null`, as a pydantic
/// `Optional` is written) seen through.
struct Resolver<'a> {
    root: &'a Value,
}

impl<'a> Resolver<'a> {
    fn resolve(&self, mut schema: &'a Value) -> &'a Value {
        for _ in 0..MAX_DEPTH {
            if let Some(pointer) = schema.get("$ref").and_then(Value::as_str) {
                match pointer.strip_prefix('#').and_then(|p| self.root.pointer(p)) {
                    Some(target) => schema = target,
                    None => return schema,
                }
                continue;
            }
            let branches = ["anyOf", "oneOf"]
                .iter()
                .find_map(|k| schema.get(*k).and_then(Value::as_array));
            let Some(branches) = branches else {
                return schema;
            };
            match branches.iter().find(|b| type_of(b) != Some("null")) {
                Some(branch) => schema = branch,
                None => return schema,
            }
        }
        schema
    }

    /// Every string or array-of-strings property under `object`, stepping
    /// into objects and arrays of objects.
    fn collect(
        &self,
        object: &Value,
        steps: &mut Vec<Step>,
        required_so_far: bool,
        out: &mut Vec<Candidate>,
    ) {
        if steps.len() > MAX_DEPTH {
            return;
        }
        let required = required_names(object);
        let Some(properties) = object.get("properties").and_then(Value::as_object) else {
            return;
        };
        for (name, property) in properties {
            let property = self.resolve(property);
            let is_required = required_so_far && required.contains(&name.as_str());
            steps.push(Step::Property(name.clone()));
            let rank = |element| Candidate {
                steps: steps.clone(),
                element,
                rank: (name_rank(name), !is_required, steps.len()),
            };
            match type_of(property) {
                Some("string") if !has_fixed_value(property) => out.push(rank(false)),
                Some("array") => {
                    let items = self.resolve(property.get("items").unwrap_or(&Value::Null));
                    match type_of(items) {
                        Some("string") => out.push(rank(true)),
                        Some("object") => {
                            steps.push(Step::Item);
                            self.collect(items, steps, is_required, out);
                            steps.pop();
                        }
                        _ => {}
                    }
                }
                Some("object") => self.collect(property, steps, is_required, out),
                _ => {}
            }
            steps.pop();
        }
    }

    /// An object for `schema`: its required properties filled and, when
    /// `content` leads through it, the content placed; `path` names it.
    fn fill_object(
        &self,
        schema: &Value,
        path: &str,
        content: Option<&Candidate>,
        choices: &mut Vec<Choice>,
    ) -> Value {
        let properties = schema.get("properties").and_then(Value::as_object);
        let mut object = Map::new();
        // The step the content takes from here, and the rest of its way.
        let (next, rest) = match content.map(|c| c.steps.as_slice()) {
            Some([Step::Property(name), rest @ ..]) => (Some(name.as_str()), rest),
            _ => (None, &[][..]),
        };
        let mut names: Vec<&str> = required_names(schema);
        if let Some(next) = next.filter(|n| !names.contains(n)) {
            names.push(next);
        }
        for name in names {
            let property = properties
                .and_then(|p| p.get(name))
                .map(|p| self.resolve(p))
                .unwrap_or(&Value::Null);
            let here = join(path, name);
            let value = if Some(name) == next {
                let candidate = content.expect("next comes from content");
                self.place(property, &here, candidate, rest, choices)
            } else {
                self.fixed(property, &here, choices)
            };
            object.insert(name.to_string(), value);
        }
        Value::Object(object)
    }

    /// The value of the property the content's way goes through.
    fn place(
        &self,
        property: &Value,
        path: &str,
        candidate: &Candidate,
        rest: &[Step],
        choices: &mut Vec<Choice>,
    ) -> Value {
        let onward = Candidate {
            steps: rest.to_vec(),
            ..candidate.clone()
        };
        match rest {
            [] if candidate.element => Value::Array(vec!["{content}".into()]),
            [] => "{content}".into(),
            [Step::Item, after @ ..] => {
                let items = self.resolve(property.get("items").unwrap_or(&Value::Null));
                let onward = Candidate {
                    steps: after.to_vec(),
                    ..onward
                };
                let item = self.fill_object(items, &format!("{path}[]"), Some(&onward), choices);
                Value::Array(vec![item])
            }
            _ => self.fill_object(property, path, Some(&onward), choices),
        }
    }

    /// A required property's fixed value, recorded in `choices`.
    fn fixed(&self, property: &Value, path: &str, choices: &mut Vec<Choice>) -> Value {
        let named = [
            ("const", property.get("const")),
            ("enum", property.get("enum").and_then(|e| e.get(0))),
            ("default", property.get("default")),
        ];
        if let Some((keyword, value)) = named.iter().find_map(|(k, v)| v.map(|v| (*k, v))) {
            choices.push(Choice::FromSchema {
                path: path.to_string(),
                value: value.clone(),
                keyword,
            });
            return value.clone();
        }
        let value = match type_of(property) {
            Some("object") => return self.fill_object(property, path, None, choices),
            Some("array") => {
                let items = self.resolve(property.get("items").unwrap_or(&Value::Null));
                let least = property
                    .get("minItems")
                    .and_then(Value::as_u64)
                    .unwrap_or(0);
                if least == 0 {
                    Value::Array(Vec::new())
                } else {
                    let item = self.fixed(items, &format!("{path}[]"), choices);
                    return Value::Array(vec![item]);
                }
            }
            Some("integer") | Some("number") => property
                .get("minimum")
                .cloned()
                .unwrap_or_else(|| Value::from(1)),
            Some("boolean") => Value::Bool(false),
            _ => Value::String(plausible_string(property)),
        };
        choices.push(Choice::Constant {
            path: path.to_string(),
            value: value.clone(),
        });
        value
    }
}

/// A string its `format` accepts, else [`PLACEHOLDER_STRING`].
fn plausible_string(property: &Value) -> String {
    match property.get("format").and_then(Value::as_str) {
        Some("date-time") => "2026-01-01T00:00:00Z".into(),
        Some("date") => "2026-01-01".into(),
        Some("uri") | Some("url") => "https://example.com/framecheck".into(),
        Some("email") => "framecheck@example.com".into(),
        _ => PLACEHOLDER_STRING.into(),
    }
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

/// The schema's `type`, the first that is not `null` when it lists several.
fn type_of(schema: &Value) -> Option<&str> {
    match schema.get("type")? {
        Value::String(kind) => Some(kind),
        Value::Array(kinds) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|k| *k != "null"),
        _ => None,
    }
}

/// A property the schema pins (`const`, `enum`) cannot carry free text.
fn has_fixed_value(property: &Value) -> bool {
    property.get("const").is_some() || property.get("enum").is_some()
}

fn required_names(schema: &Value) -> Vec<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Where `name` stands among [`CONTENT_NAMES`] (case and `_`/`-` aside);
/// past them all when it is not one.
fn name_rank(name: &str) -> usize {
    let folded: String = name
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    CONTENT_NAMES
        .iter()
        .position(|n| *n == folded)
        .unwrap_or(CONTENT_NAMES.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn derived(schema: Value) -> WriteArguments {
        derive("w", &schema).unwrap()
    }

    /// Given arguments stay as given and take the content from none of
    /// their properties: the schema places it in the next best one and
    /// fills the other required ones, given ones left alone.
    #[test]
    fn given_arguments_are_kept_and_the_schema_gives_the_rest() {
        let schema = json!({
            "type": "object",
            "properties": {
                "title": { "type": "string" },
                "body": { "type": "string" },
                "meta": { "type": "object", "properties": { "tag": { "type": "string" } }, "required": ["tag"] },
                "count": { "type": "integer", "minimum": 2 },
            },
            "required": ["title", "body", "meta", "count"],
        });
        let given: BTreeMap<String, Value> = [
            ("body".to_string(), json!("a fixed body")),
            ("meta".to_string(), json!({ "tag": "mine" })),
        ]
        .into();
        let derived = derive_around("w", &schema, &given).unwrap();
        assert_eq!(
            serde_json::to_value(&derived.arguments).unwrap(),
            json!({ "title": "{content}", "body": "a fixed body", "meta": { "tag": "mine" }, "count": 2 })
        );
        assert_eq!(
            derived.choices,
            vec![
                Choice::Content {
                    path: "title".into(),
                    element: false
                },
                Choice::Constant {
                    path: "count".into(),
                    value: json!(2)
                },
                Choice::Given {
                    path: "body".into(),
                    value: json!("a fixed body")
                },
                Choice::Given {
                    path: "meta".into(),
                    value: json!({ "tag": "mine" })
                },
            ]
        );
        // Every property that holds a string given (`meta.tag` inside the
        // given `meta` too): nowhere is left for the content.
        let all: BTreeMap<String, Value> = [
            ("title", json!("t")),
            ("body", json!("b")),
            ("meta", json!({ "tag": "x" })),
        ]
        .map(|(k, v)| (k.to_string(), v))
        .into();
        assert_eq!(
            derive_around("w", &schema, &all),
            Err(SchemaError::NoContentProperty { tool: "w".into() })
        );
    }

    #[test]
    fn a_string_named_for_text_takes_the_content_and_required_ones_get_constants() {
        let schema = json!({
            "type": "object",
            "properties": {
                "title": { "type": "string" },
                "body": { "type": "string" },
                "labels": { "type": "array", "items": { "type": "string" } },
                "priority": { "type": "string", "enum": ["low", "high"] },
                "count": { "type": "integer", "minimum": 2 },
                "draft": { "type": "boolean" },
            },
            "required": ["title", "priority", "count", "draft"],
        });
        let derived = derived(schema);
        assert_eq!(
            serde_json::to_value(&derived.arguments).unwrap(),
            json!({ "title": "framecheck", "body": "{content}", "priority": "low", "count": 2, "draft": false })
        );
        assert_eq!(
            derived.choices[0],
            Choice::Content {
                path: "body".into(),
                element: false
            }
        );
        assert!(derived.choices.contains(&Choice::FromSchema {
            path: "priority".into(),
            value: json!("low"),
            keyword: "enum"
        }));
    }

    #[test]
    fn a_required_string_wins_over_an_optional_one_when_neither_is_named_for_text() {
        let schema = json!({
            "type": "object",
            "properties": { "a": { "type": "string" }, "b": { "type": "string" } },
            "required": ["b"],
        });
        assert_eq!(
            serde_json::to_value(&derived(schema).arguments).unwrap(),
            json!({ "b": "{content}" })
        );
    }

    /// The reference memory server's `create_entities` (its input schema
    /// as `@modelcontextprotocol/server-memory` 2026.8.31 lists it): the
    /// content is one observation of one entity, the entity's other fields
    /// constants.
    #[test]
    fn an_array_of_strings_inside_an_array_of_objects_takes_the_content_as_one_element() {
        let schema: Value = serde_json::from_str(
            r#"{"type":"object","properties":{"entities":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string","description":"The name of the entity"},"entityType":{"type":"string","description":"The type of the entity"},"observations":{"type":"array","items":{"type":"string"},"description":"An array of observation contents associated with the entity"}},"required":["name","entityType","observations"]}}},"required":["entities"],"$schema":"http://json-schema.org/draft-07/schema#"}"#,
        )
        .unwrap();
        let derived = derived(schema);
        assert_eq!(
            serde_json::to_value(&derived.arguments).unwrap(),
            json!({ "entities": [{ "name": "framecheck", "entityType": "framecheck", "observations": ["{content}"] }] })
        );
        assert_eq!(
            derived.choices[0].to_string(),
            "`entities[].observations` takes the content as its one element (an array of strings)"
        );
    }

    /// pydantic writes `Optional[str]` as `anyOf` with `null`, and nested
    /// models as `$ref` into `$defs`.
    #[test]
    fn refs_and_optional_unions_are_seen_through() {
        let schema = json!({
            "type": "object",
            "$defs": { "Note": { "type": "object", "properties": {
                "message": { "anyOf": [{ "type": "string" }, { "type": "null" }] },
                "kind": { "type": "string", "default": "memo" },
            }, "required": ["message", "kind"] } },
            "properties": { "note": { "$ref": "#/$defs/Note" } },
            "required": ["note"],
        });
        assert_eq!(
            serde_json::to_value(&derived(schema).arguments).unwrap(),
            json!({ "note": { "message": "{content}", "kind": "memo" } })
        );
    }

    #[test]
    fn a_schema_with_nowhere_for_text_is_an_error_naming_the_tool() {
        let error = derive(
            "count_up",
            &json!({ "type": "object", "properties": {
            "n": { "type": "integer" }, "mode": { "type": "string", "enum": ["a"] } } }),
        )
        .unwrap_err();
        assert_eq!(
            error,
            SchemaError::NoContentProperty {
                tool: "count_up".into()
            }
        );
        assert!(matches!(
            derive("t", &json!({ "type": "object" })),
            Err(SchemaError::NoProperties { .. })
        ));
    }
}
