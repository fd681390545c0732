//! The document model of a law file (schema v0.5.x): the law, its articles and their
//! `machine_readable` part. Read with serde; unknown keys are ignored for forward compatibility.

use crate::expr::{Expr, Op};
use crate::value::Value;
use serde::Deserialize;
use std::collections::BTreeMap;

/// One version of a law (one YAML file).
#[derive(Debug, Clone, Deserialize)]
pub struct Law {
    /// The law's identifier (`$id`), used by other laws to refer to it.
    #[serde(rename = "$id")]
    pub id: String,
    /// The schema URL the file declares.
    #[serde(rename = "$schema", default)]
    pub schema: Option<String>,
    /// Stable UUID, if any.
    #[serde(default)]
    pub uuid: Option<String>,
    /// Human-readable name.
    #[serde(default)]
    pub name: Option<String>,
    /// Regulatory layer (WET, AMVB, MINISTERIELE_REGELING, GEMEENTELIJKE_VERORDENING, ...).
    pub regulatory_layer: String,
    /// Publication date.
    #[serde(default)]
    pub publication_date: Option<String>,
    /// First day this version is in force.
    #[serde(default)]
    pub valid_from: Option<String>,
    /// Last day (inclusive) the law is in force, when it ends.
    #[serde(default)]
    pub valid_to: Option<String>,
    /// BWB identifier (national laws).
    #[serde(default)]
    pub bwb_id: Option<String>,
    /// Official URL.
    #[serde(default)]
    pub url: Option<String>,
    /// CBS municipality code (municipal regulations): scopes `implements`.
    #[serde(default)]
    pub gemeente_code: Option<String>,
    /// CBS water board code: scopes `implements`.
    #[serde(default)]
    pub waterschap_code: Option<String>,
    /// CBS province code.
    #[serde(default)]
    pub provincie_code: Option<String>,
    /// Official title (decentralised regulations).
    #[serde(default)]
    pub officiele_titel: Option<String>,
    /// AWB procedures this law defines (RFC-008): the lifecycle of a decision in stages.
    #[serde(default)]
    pub procedure: Vec<Procedure>,
    /// The articles.
    pub articles: Vec<Article>,
    /// Every parameter and input the law declares, by name ([`crate::params::declarations`]),
    /// collected on first use: a batch types many cases against the same law.
    #[serde(skip)]
    pub(crate) declared: std::sync::OnceLock<BTreeMap<String, Field>>,
}

/// A procedure: the stages a decision of a legal character goes through (RFC-008).
#[derive(Debug, Clone, Deserialize)]
pub struct Procedure {
    /// Identifier (`beschikking`, …).
    pub id: String,
    /// Whether this is the default procedure for its legal character.
    #[serde(default)]
    pub default: bool,
    /// Which decisions it governs.
    #[serde(default)]
    pub applies_to: HookFilter,
    /// The stages in order.
    #[serde(default)]
    pub stages: Vec<Stage>,
}

/// One stage of a procedure.
#[derive(Debug, Clone, Deserialize)]
pub struct Stage {
    /// Name (`AANVRAAG`, `BESLUIT`, `BEKENDMAKING`, …), as hooks name it.
    pub name: String,
    /// What happens in it.
    #[serde(default)]
    pub description: Option<String>,
    /// External inputs needed to enter it.
    #[serde(default)]
    pub requires: Vec<StageInput>,
}

/// An input a stage requires.
#[derive(Debug, Clone, Deserialize)]
pub struct StageInput {
    /// Its name (a parameter).
    pub name: String,
    /// Its type.
    #[serde(rename = "type", default)]
    pub field_type: Option<FieldType>,
}

/// An article with its text and optional executable part.
#[derive(Debug, Clone, Deserialize)]
pub struct Article {
    /// Article number as written in the law (e.g. `5.15a`, `6:7`).
    pub number: String,
    /// Article text (markdown).
    #[serde(default)]
    pub text: String,
    /// URL of the article on wetten.overheid.nl.
    #[serde(default)]
    pub url: Option<String>,
    /// The machine-readable interpretation.
    #[serde(default)]
    pub machine_readable: Option<MachineReadable>,
    /// The outcome of the article's unit check (RFC-023), computed on first execution: it
    /// depends on the article alone, and a batch executes the same article many times.
    #[serde(skip)]
    pub(crate) unit_check: std::sync::OnceLock<Result<(), crate::error::EvalError>>,
}

/// The machine-readable part of an article.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct MachineReadable {
    /// Constants (bare value or `{value, type, type_spec}`).
    pub definitions: BTreeMap<String, Definition>,
    /// Executable logic.
    pub execution: Option<Execution>,
    /// Open terms filled by lower regulations (IoC).
    pub open_terms: Vec<OpenTerm>,
    /// Open terms of higher laws this article fills.
    pub implements: Vec<Implements>,
    /// Lifecycle hooks this article registers (RFC-007).
    pub hooks: Vec<Hook>,
    /// Outputs of other laws this article replaces (lex specialis).
    pub overrides: Vec<Override>,
    /// Constructs that could not be translated (RFC-012).
    pub untranslatables: Vec<Untranslatable>,
}

/// A constant of an article.
#[derive(Debug, Clone, PartialEq)]
pub struct Definition {
    /// The constant's value.
    pub value: Value,
    /// Declared type, if any.
    pub r#type: Option<String>,
    /// Declared unit (`type_spec.unit`), if any.
    pub unit: Option<String>,
}

impl<'de> Deserialize<'de> for Definition {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let expr = Expr::deserialize(deserializer)?;
        if let Expr::Object(map) = &expr
            && let Some(value) = map.get("value")
        {
            let text = |key: &str| match map.get(key).map(Expr::to_literal) {
                Some(Value::String(s)) => Some(s),
                _ => None,
            };
            let unit = match map.get("type_spec").map(Expr::to_literal) {
                Some(Value::Object(spec)) => match spec.get("unit") {
                    Some(Value::String(u)) => Some(u.clone()),
                    _ => None,
                },
                _ => None,
            };
            return Ok(Definition {
                value: value.to_literal(),
                r#type: text("type"),
                unit,
            });
        }
        Ok(Definition {
            value: expr.to_literal(),
            r#type: None,
            unit: None,
        })
    }
}

/// Data types of parameters, inputs and outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FieldType {
    /// Text.
    String,
    /// Any number.
    Number,
    /// `true` / `false`.
    Boolean,
    /// Money in eurocent (whole cents).
    Amount,
    /// A structured value.
    Object,
    /// A list.
    Array,
    /// An ISO date `YYYY-MM-DD`.
    Date,
}

impl FieldType {
    /// The name as written in the format.
    pub fn as_str(self) -> &'static str {
        match self {
            FieldType::String => "string",
            FieldType::Number => "number",
            FieldType::Boolean => "boolean",
            FieldType::Amount => "amount",
            FieldType::Object => "object",
            FieldType::Array => "array",
            FieldType::Date => "date",
        }
    }
}

/// `type_spec` of a field.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct TypeSpec {
    /// Unit label (euro, eurocent, ratio, percentage, years, months, weeks, days).
    pub unit: Option<String>,
    /// Declared number of decimals.
    pub precision: Option<i64>,
    /// Declared minimum.
    pub min: Option<f64>,
    /// Declared maximum.
    pub max: Option<f64>,
}

/// A field declaration (parameter, input or output).
#[derive(Debug, Clone, Deserialize)]
pub struct Field {
    /// Field name, referred to as `$name`.
    pub name: String,
    /// Data type.
    #[serde(rename = "type")]
    pub field_type: FieldType,
    /// Description.
    #[serde(default)]
    pub description: Option<String>,
    /// Whether a parameter must be given (parameters only).
    #[serde(default)]
    pub required: Option<bool>,
    /// Unit and precision.
    #[serde(default)]
    pub type_spec: Option<TypeSpec>,
    /// Where an input comes from (inputs only).
    #[serde(default)]
    pub source: Option<Source>,
}

impl Field {
    /// The declared unit, if any.
    pub fn unit(&self) -> Option<&str> {
        self.type_spec.as_ref().and_then(|t| t.unit.as_deref())
    }
}

/// Where an input value comes from.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Source {
    /// `$id` of another law; absent for a same-law output or an external data source.
    pub regulation: Option<String>,
    /// Output to take (defaults to the input's name).
    pub output: Option<String>,
    /// Parameters passed to the source (`name: $variable` or a literal string).
    pub parameters: BTreeMap<String, String>,
    /// Description of the source.
    pub description: Option<String>,
}

/// What an article produces (used to match hooks).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Produces {
    /// BESCHIKKING, TOETS, WAARDEBEPALING, ...
    pub legal_character: Option<String>,
    /// TOEKENNING, AFWIJZING, ...
    pub decision_type: Option<String>,
    /// A specific procedure (`procedure.id`); without it the default one for the legal character.
    pub procedure_id: Option<String>,
}

/// The `execution` block.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Execution {
    /// Legal character of the result.
    pub produces: Option<Produces>,
    /// Parameters given by the caller.
    pub parameters: Vec<Field>,
    /// Inputs from other laws or sources.
    pub input: Vec<Field>,
    /// Outputs produced.
    pub output: Vec<Field>,
    /// Actions computing the outputs, in order.
    pub actions: Vec<Action>,
}

/// An action computing one output.
#[derive(Debug, Clone)]
pub struct Action {
    /// The output computed.
    pub output: String,
    /// The expression computing it.
    pub expr: Expr,
    /// Legal basis given on the action.
    pub legal_basis: Option<LegalBasis>,
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let mut fields = BTreeMap::<String, Expr>::deserialize(deserializer)?;
        let output = match fields.remove("output") {
            Some(Expr::Literal(Value::String(s))) => s,
            _ => {
                return Err(D::Error::custom(
                    "een actie mist 'output' (de naam van de uitvoer)",
                ));
            }
        };
        let legal_basis = fields
            .remove("legal_basis")
            .map(|e| LegalBasis::from_literal(&e.to_literal()));
        fields.remove("resolve");
        fields.remove("description");
        let expr = match fields.remove("operation") {
            Some(Expr::Literal(Value::String(name))) => Expr::Op(Box::new(
                Op::build(&name, fields).map_err(D::Error::custom)?,
            )),
            Some(_) => return Err(D::Error::custom("'operation' moet een naam zijn")),
            None => fields.remove("value").unwrap_or(Expr::Literal(Value::Null)),
        };
        Ok(Action {
            output,
            expr,
            legal_basis,
        })
    }
}

/// A legal basis reference.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LegalBasis {
    /// Law name.
    pub law: Option<String>,
    /// BWB id.
    pub bwb_id: Option<String>,
    /// Article number.
    pub article: Option<String>,
    /// Paragraph (lid).
    pub paragraph: Option<String>,
    /// URL on wetten.overheid.nl.
    pub url: Option<String>,
    /// Explanation.
    pub explanation: Option<String>,
}

impl LegalBasis {
    fn from_literal(value: &Value) -> LegalBasis {
        let Value::Object(map) = value else {
            return LegalBasis::default();
        };
        let get = |k: &str| match map.get(k) {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        LegalBasis {
            law: get("law"),
            bwb_id: get("bwb_id"),
            article: get("article"),
            paragraph: get("paragraph"),
            url: get("url"),
            explanation: get("explanation"),
        }
    }
}

/// An open term declared by an article.
#[derive(Debug, Clone, Deserialize)]
pub struct OpenTerm {
    /// Identifier; also the name under which the value is available (`$id`).
    pub id: String,
    /// Expected type.
    #[serde(rename = "type")]
    pub term_type: FieldType,
    /// Whether an implementation is mandatory (default true).
    #[serde(default = "default_true")]
    pub required: bool,
    /// Expected regulatory layer of the implementation.
    #[serde(default)]
    pub delegation_type: Option<String>,
    /// Who may fill it.
    #[serde(default)]
    pub delegated_to: Option<String>,
    /// Description.
    #[serde(default)]
    pub description: Option<String>,
    /// Default actions when no implementation exists.
    #[serde(default)]
    pub default: Option<OpenTermDefault>,
}

fn default_true() -> bool {
    true
}

/// Default logic of an open term.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct OpenTermDefault {
    /// Actions computing the default.
    pub actions: Vec<Action>,
}

/// An `implements` declaration.
#[derive(Debug, Clone, Deserialize)]
pub struct Implements {
    /// `$id` of the higher law.
    pub law: String,
    /// Article of the higher law declaring the open term.
    pub article: String,
    /// The open term filled.
    pub open_term: String,
}

/// A hook declaration.
#[derive(Debug, Clone, Deserialize)]
pub struct Hook {
    /// `pre_actions` or `post_actions`.
    pub hook_point: String,
    /// Which articles it fires on.
    pub applies_to: HookFilter,
}

/// The filter of a hook.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct HookFilter {
    /// Legal character matched.
    pub legal_character: Option<String>,
    /// Optional decision type matched.
    pub decision_type: Option<String>,
    /// Lifecycle stage (default BESLUIT).
    pub stage: Option<String>,
}

/// An override declaration (lex specialis).
#[derive(Debug, Clone, Deserialize)]
pub struct Override {
    /// `$id` of the overridden law.
    pub law: String,
    /// Overridden article.
    pub article: String,
    /// Overridden output.
    pub output: String,
}

/// An untranslatable construct.
#[derive(Debug, Clone, Deserialize)]
pub struct Untranslatable {
    /// The construct.
    pub construct: String,
    /// Why it is untranslatable.
    pub reason: String,
    /// Whether a human accepted the gap.
    #[serde(default)]
    pub accepted: bool,
}

impl Law {
    /// The law's name for people: `name`, or when it is a reference to one of the law's own
    /// outputs (`'#wet_naam'`, as the corpus writes the citation title of article 4.21 Brp)
    /// the literal text that output is set to. An unresolvable reference is kept as written.
    pub fn display_name(&self) -> Option<String> {
        let name = self.name.as_deref()?;
        let Some(output) = name.strip_prefix('#') else {
            return Some(name.to_string());
        };
        let literal = self
            .articles
            .iter()
            .filter_map(Article::execution)
            .flat_map(|e| &e.actions)
            .find(|a| a.output == output)
            .and_then(|a| match &a.expr {
                Expr::Literal(Value::String(text)) => Some(text.clone()),
                _ => None,
            });
        Some(literal.unwrap_or_else(|| name.to_string()))
    }

    /// The article producing `output`, if any.
    pub fn article_for_output(&self, output: &str) -> Option<&Article> {
        self.articles.iter().find(|a| {
            a.execution()
                .is_some_and(|e| e.output.iter().any(|o| o.name == output))
        })
    }

    /// The article with this number.
    pub fn article(&self, number: &str) -> Option<&Article> {
        self.articles.iter().find(|a| a.number == number)
    }

    /// All declared outputs, in article order.
    pub fn outputs(&self) -> impl Iterator<Item = (&Article, &Field)> {
        self.articles.iter().flat_map(|a| {
            a.execution()
                .into_iter()
                .flat_map(move |e| e.output.iter().map(move |o| (a, o)))
        })
    }
}

impl Article {
    /// The execution block, if any.
    pub fn execution(&self) -> Option<&Execution> {
        self.machine_readable
            .as_ref()
            .and_then(|m| m.execution.as_ref())
    }
}
