//! One declaration per argument set: [`crate::arguments!`] declares a clap `Args` struct whose
//! fields carry their published schemas, and gives the struct a `SCHEMAS` constant that a
//! command's entry ([`crate::CommandSpec::args`]) uses; [`crate::schema!`] writes a JSON Schema
//! as JSON tokens rather than a string.
//!
//! So an argument's name, type, help text, clap settings and schema stand in one place, and a
//! flattened set (`KvkNummer`, `Peildatum`, `Paging`, a tool's own) brings its schemas along.

use crate::call::tool::ArgSchema;

/// A JSON Schema object written as JSON tokens, as its JSON text (`&'static str`):
/// `schema!({"pattern": "^[0-9]{8}$", "examples": ["68750110"]})`. A string is a Rust string
/// literal, so `"^\\s*$"` is the JSON string `^\s*$`, as in a raw string before. Every schema a
/// tool publishes is parsed by its consistency test (`consistency_test!`), so one that is no
/// JSON object fails there.
#[macro_export]
macro_rules! schema {
    ({ $($json:tt)* }) => {
        stringify!({ $($json)* })
    };
}

/// Declares a clap `Args` struct (its attributes and fields as written) whose fields may end in
/// `=> SCHEMA`, and an inherent constant `SCHEMAS: &[ArgSchema]` of the struct, in field order:
///
/// - `=> { … }`: this argument's schema, as [`crate::schema!`] tokens;
/// - `=> (TEXT)`: its schema as a constant's JSON text (a schema several arguments share,
///   e.g. `(KvkNummer::SCHEMA.schema)`);
/// - `=> path` (or another [`ArgSchema`] constructor such as `path_or_stdin_json_object`): the
///   profile's schema of a path argument;
/// - `=> flatten`: a `#[command(flatten)]` field whose type declares its own `SCHEMAS`;
/// - `=> [ONE, ONE, …]`: several of the first three forms under this one name, applied in
///   order, for an argument that publishes two schemas: a path and its repeated (array) form,
///   `=> [path, {"type": "array", "minItems": 1}]`, or a file that stdin may stand for and the
///   content's own schema, `=> [path_or_stdin_json, {"contentSchema": {"type": "object"}}]`.
///
/// The schema's name is the field's, which is clap's argument id (`r#type` is `type`, as clap
/// and serde name it).
///
/// ```
/// common::arguments! {
///     /// Groet iemand
///     #[derive(clap::Args, Debug)]
///     pub struct Args {
///         /// De naam
///         pub naam: String => {"pattern": "^[A-Za-z ]{1,40}$", "examples": ["Ada"]},
///         /// Zonder schema
///         #[arg(long)]
///         pub luid: bool,
///         #[command(flatten)]
///         pub peildatum: common::args::Peildatum => flatten,
///         /// Een bestand
///         #[arg(long)]
///         pub invoer: Option<String> => path,
///         /// Een soort
///         #[arg(long)]
///         pub r#type: Option<String> => {"examples": ["wet"]},
///         /// Mappen
///         pub paden: Vec<String> => [path, {"type": "array", "minItems": 1}],
///     }
/// }
/// let names: Vec<_> = Args::SCHEMAS.iter().map(|a| a.name).collect();
/// assert_eq!(names, ["naam", "peildatum", "invoer", "type", "paden", "paden"]);
/// let naam: serde_json::Value = serde_json::from_str(Args::SCHEMAS[0].schema).unwrap();
/// assert_eq!(naam["pattern"], "^[A-Za-z ]{1,40}$");
/// assert_eq!(Args::SCHEMAS[4].schema, common::ArgSchema::path("paden").schema);
/// ```
#[macro_export]
macro_rules! arguments {
    // How many schemas a field publishes.
    (@count $ty:ty) => { 0 };
    (@count $ty:ty => flatten) => { <$ty>::SCHEMAS.len() };
    (@count $ty:ty => [ $($one:tt),+ $(,)? ]) => { 0 $( + $crate::arguments!(@count_one $one) )+ };
    (@count $ty:ty => $one:tt) => { 1 };
    (@count_one $one:tt) => { 1 };
    // A field's schemas, as a slice.
    (@schemas $field:ident $ty:ty) => { &[] };
    (@schemas $field:ident $ty:ty => flatten) => { <$ty>::SCHEMAS };
    (@schemas $field:ident $ty:ty => [ $($one:tt),+ $(,)? ]) => {
        &[ $( $crate::arguments!(@one $field $one) ),+ ]
    };
    (@schemas $field:ident $ty:ty => $one:tt) => { &[$crate::arguments!(@one $field $one)] };
    // One schema of a field, in one of the three forms.
    (@one $field:ident { $($json:tt)* }) => {
        $crate::ArgSchema {
            name: $crate::tool::arg_id(stringify!($field)),
            schema: $crate::schema!({ $($json)* }),
        }
    };
    (@one $field:ident ($text:expr)) => {
        $crate::ArgSchema { name: $crate::tool::arg_id(stringify!($field)), schema: $text }
    };
    (@one $field:ident $kind:ident) => {
        $crate::ArgSchema::$kind($crate::tool::arg_id(stringify!($field)))
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[$field_meta:meta])*
                $field_vis:vis $field:ident : $ty:ty $(=> $schema:tt)?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $( $(#[$field_meta])* $field_vis $field: $ty, )*
        }

        impl $name {
            /// The published schemas of these arguments, from their declaration.
            #[allow(dead_code, reason = "a set that is only flattened uses it through its host")]
            $vis const SCHEMAS: &'static [$crate::ArgSchema] =
                &$crate::tool::join_schemas::<{ 0 $( + $crate::arguments!(@count $ty $(=> $schema)?) )* }>(
                    &[ $( $crate::arguments!(@schemas $field $ty $(=> $schema)?) ),* ],
                );
        }
    };
}

/// The argument id clap derives from a field's name: the name without a raw identifier's `r#`.
pub const fn arg_id(field: &'static str) -> &'static str {
    match field.as_bytes() {
        [b'r', b'#', ..] => field.split_at(2).1,
        _ => field,
    }
}

/// The schemas of several fields as one table, in order: what [`crate::arguments!`] builds.
/// `N` is their total.
pub const fn join_schemas<const N: usize>(groups: &[&[ArgSchema]]) -> [ArgSchema; N] {
    crate::call::tool::join(
        groups,
        ArgSchema {
            name: "",
            schema: "",
        },
    )
}
