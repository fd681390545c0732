//! Expressions of the law format (`$refs`, literals and operations) and how they are read from YAML.
//!
//! An expression is read in one pass: a mapping with an `operation` key becomes an [`Op`], any
//! other mapping a literal object, a string starting with `$` a variable reference.

use crate::value::{Value, number_from_text};
use rust_decimal::Decimal;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt;

/// A value expression inside an action.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A literal (number, string, boolean, null).
    Literal(Value),
    /// A `$name` or `$name.path` reference (stored without the `$`).
    Ref(String),
    /// An inline list whose items are expressions.
    List(Vec<Expr>),
    /// A literal mapping whose values are expressions.
    Object(BTreeMap<String, Expr>),
    /// An operation.
    Op(Box<Op>),
}

/// Comparison operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareOp {
    /// `EQUALS`
    Equals,
    /// `NOT_EQUALS`
    NotEquals,
    /// `GREATER_THAN`
    GreaterThan,
    /// `LESS_THAN`
    LessThan,
    /// `GREATER_THAN_OR_EQUAL`
    GreaterThanOrEqual,
    /// `LESS_THAN_OR_EQUAL`
    LessThanOrEqual,
}

/// Arithmetic and aggregate operators over `values`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArithOp {
    /// `ADD` (numbers; also concatenates strings or lists)
    Add,
    /// `SUBTRACT`
    Subtract,
    /// `MULTIPLY`
    Multiply,
    /// `DIVIDE` (always a decimal result; division by zero is an error)
    Divide,
    /// `MIN`
    Min,
    /// `MAX`
    Max,
}

/// Rounding modes (RFC-024).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundMode {
    /// `ROUND`: half away from zero.
    Round,
    /// `CEIL`: towards positive infinity.
    Ceil,
    /// `FLOOR`: towards negative infinity.
    Floor,
}

impl CompareOp {
    /// Every operator, to find one by its name.
    const ALL: [CompareOp; 6] = [
        CompareOp::Equals,
        CompareOp::NotEquals,
        CompareOp::GreaterThan,
        CompareOp::LessThan,
        CompareOp::GreaterThanOrEqual,
        CompareOp::LessThanOrEqual,
    ];

    /// The operator's name as written in the law file.
    pub fn name(self) -> &'static str {
        match self {
            CompareOp::Equals => "EQUALS",
            CompareOp::NotEquals => "NOT_EQUALS",
            CompareOp::GreaterThan => "GREATER_THAN",
            CompareOp::LessThan => "LESS_THAN",
            CompareOp::GreaterThanOrEqual => "GREATER_THAN_OR_EQUAL",
            CompareOp::LessThanOrEqual => "LESS_THAN_OR_EQUAL",
        }
    }
}

impl ArithOp {
    /// Every operator, to find one by its name.
    const ALL: [ArithOp; 6] = [
        ArithOp::Add,
        ArithOp::Subtract,
        ArithOp::Multiply,
        ArithOp::Divide,
        ArithOp::Min,
        ArithOp::Max,
    ];

    /// The operator's name as written in the law file.
    pub fn name(self) -> &'static str {
        match self {
            ArithOp::Add => "ADD",
            ArithOp::Subtract => "SUBTRACT",
            ArithOp::Multiply => "MULTIPLY",
            ArithOp::Divide => "DIVIDE",
            ArithOp::Min => "MIN",
            ArithOp::Max => "MAX",
        }
    }
}

impl RoundMode {
    /// Every mode, to find one by its name.
    const ALL: [RoundMode; 3] = [RoundMode::Round, RoundMode::Ceil, RoundMode::Floor];

    /// The mode's name as written in the law file.
    pub fn name(self) -> &'static str {
        match self {
            RoundMode::Round => "ROUND",
            RoundMode::Ceil => "CEIL",
            RoundMode::Floor => "FLOOR",
        }
    }
}

/// An operation of the format.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// Comparison of `subject` with `value`.
    Compare {
        op: CompareOp,
        subject: Expr,
        value: Expr,
    },
    /// Arithmetic over `values`.
    Arith { op: ArithOp, values: Vec<Expr> },
    /// `ROUND` / `CEIL` / `FLOOR` to `precision` decimals.
    Round {
        mode: RoundMode,
        value: Expr,
        precision: i64,
    },
    /// `AND` over `conditions` (short-circuit).
    And(Vec<Expr>),
    /// `OR` over `conditions` (short-circuit).
    Or(Vec<Expr>),
    /// `NOT value`.
    Not(Expr),
    /// `IF` with ordered `cases` and an optional `default`.
    If {
        cases: Vec<(Expr, Expr)>,
        default: Option<Expr>,
    },
    /// `IS_NULL` (or `NOT_NULL` when `negate`).
    NullCheck { negate: bool, subject: Expr },
    /// `IN` (or `NOT_IN` when `negate`): `subject` in `values` or in the list `value`.
    In {
        negate: bool,
        subject: Expr,
        value: Option<Expr>,
        values: Option<Vec<Expr>>,
    },
    /// `LIST` of `items`.
    List(Vec<Expr>),
    /// `AGE` in complete years.
    Age {
        date_of_birth: Expr,
        reference_date: Expr,
    },
    /// `DATE_ADD` years → months → weeks → days.
    DateAdd {
        date: Expr,
        years: Option<Expr>,
        months: Option<Expr>,
        weeks: Option<Expr>,
        days: Option<Expr>,
    },
    /// `DATE` from year, month, day.
    Date { year: Expr, month: Expr, day: Expr },
    /// `DAY_OF_WEEK` (0 = Monday).
    DayOfWeek(Expr),
    /// `DATE_DIFF` in `days`, `months` or `years`.
    DateDiff { from: Expr, to: Expr, unit: Expr },
}

impl Op {
    /// The operation's name as written in the law file.
    pub fn name(&self) -> &'static str {
        match self {
            Op::Compare { op, .. } => op.name(),
            Op::Arith { op, .. } => op.name(),
            Op::Round { mode, .. } => mode.name(),
            Op::And(_) => "AND",
            Op::Or(_) => "OR",
            Op::Not(_) => "NOT",
            Op::If { .. } => "IF",
            Op::NullCheck { negate: false, .. } => "IS_NULL",
            Op::NullCheck { negate: true, .. } => "NOT_NULL",
            Op::In { negate: false, .. } => "IN",
            Op::In { negate: true, .. } => "NOT_IN",
            Op::List(_) => "LIST",
            Op::Age { .. } => "AGE",
            Op::DateAdd { .. } => "DATE_ADD",
            Op::Date { .. } => "DATE",
            Op::DayOfWeek(_) => "DAY_OF_WEEK",
            Op::DateDiff { .. } => "DATE_DIFF",
        }
    }

    /// Builds an operation from its name and its fields (already read as expressions).
    pub fn build(name: &str, fields: BTreeMap<String, Expr>) -> Result<Op, String> {
        let mut fields = Fields { name, fields };
        if let Some(op) = CompareOp::ALL.into_iter().find(|op| op.name() == name) {
            return Ok(Op::Compare {
                op,
                subject: fields.need("subject")?,
                value: fields.need("value")?,
            });
        }
        if let Some(op) = ArithOp::ALL.into_iter().find(|op| op.name() == name) {
            return Ok(Op::Arith {
                op,
                values: fields.list("values")?,
            });
        }
        if let Some(mode) = RoundMode::ALL.into_iter().find(|mode| mode.name() == name) {
            return Op::round(mode, fields);
        }
        let op = match name {
            "AND" => Op::And(fields.list("conditions")?),
            "OR" => Op::Or(fields.list("conditions")?),
            "NOT" => Op::Not(fields.need("value")?),
            "IF" | "SWITCH" => Op::cases(fields)?,
            "IS_NULL" | "NOT_NULL" => Op::NullCheck {
                negate: name == "NOT_NULL",
                subject: fields.need("subject")?,
            },
            "IN" | "NOT_IN" => Op::membership(fields)?,
            "LIST" => Op::List(fields.list("items")?),
            "AGE" => Op::Age {
                date_of_birth: fields.need("date_of_birth")?,
                reference_date: fields.need("reference_date")?,
            },
            "DATE_ADD" => Op::DateAdd {
                date: fields.need("date")?,
                years: fields.take("years"),
                months: fields.take("months"),
                weeks: fields.take("weeks"),
                days: fields.take("days"),
            },
            "DATE" => Op::Date {
                year: fields.need("year")?,
                month: fields.need("month")?,
                day: fields.need("day")?,
            },
            "DAY_OF_WEEK" => Op::DayOfWeek(fields.need("date")?),
            "DATE_DIFF" => {
                let unit = fields.take("in").or_else(|| fields.take("unit"));
                Op::DateDiff {
                    from: fields.need("from")?,
                    to: fields.need("to")?,
                    unit: fields.required(unit, "in")?,
                }
            }
            other => return Err(format!("onbekende operatie '{other}'")),
        };
        Ok(op)
    }

    /// `ROUND`, `CEIL` or `FLOOR`: a `value` and a whole `precision` between -28 and 28.
    fn round(mode: RoundMode, mut fields: Fields<'_>) -> Result<Op, String> {
        let precision = match fields.need("precision")? {
            Expr::Literal(Value::Number(d))
                if d.fract().is_zero() && d.abs() <= Decimal::from(28) =>
            {
                i64::try_from(d).map_err(|e| e.to_string())?
            }
            other => {
                return Err(format!(
                    "operatie {}: 'precision' moet een geheel getal tussen -28 en 28 zijn, niet {other:?}",
                    fields.name
                ));
            }
        };
        Ok(Op::Round {
            mode,
            value: fields.need("value")?,
            precision,
        })
    }

    /// `IF` (or `SWITCH`): `cases` of `when` and `then`, and an optional `default`.
    fn cases(mut fields: Fields<'_>) -> Result<Op, String> {
        let mut cases = Vec::new();
        for case in fields.list("cases")? {
            let Expr::Object(mut case) = case else {
                return Err("IF: elke case moet 'when' en 'then' hebben".to_string());
            };
            let when = case.remove("when").ok_or("IF: een case mist 'when'")?;
            let then = case.remove("then").ok_or("IF: een case mist 'then'")?;
            cases.push((when, then));
        }
        Ok(Op::If {
            cases,
            default: fields.take("default"),
        })
    }

    /// `IN` (or `NOT_IN`): a `subject` and the list `values` or an expression `value`.
    fn membership(mut fields: Fields<'_>) -> Result<Op, String> {
        let value = fields.take("value");
        let values = match fields.take("values") {
            Some(v) => Some(fields.as_list(v, "values")?),
            None => None,
        };
        if value.is_none() && values.is_none() {
            return Err(format!("operatie {} mist 'values' of 'value'", fields.name));
        }
        Ok(Op::In {
            negate: fields.name == "NOT_IN",
            subject: fields.need("subject")?,
            value,
            values,
        })
    }
}

/// The fields of an operation being built, with its name for the errors.
struct Fields<'a> {
    name: &'a str,
    fields: BTreeMap<String, Expr>,
}

impl Fields<'_> {
    /// An optional field.
    fn take(&mut self, key: &str) -> Option<Expr> {
        self.fields.remove(key)
    }

    /// A field the operation cannot do without.
    fn need(&mut self, key: &str) -> Result<Expr, String> {
        let value = self.take(key);
        self.required(value, key)
    }

    /// A field that must be an inline list.
    fn list(&mut self, key: &str) -> Result<Vec<Expr>, String> {
        let value = self.need(key)?;
        self.as_list(value, key)
    }

    fn required(&self, value: Option<Expr>, key: &str) -> Result<Expr, String> {
        value.ok_or_else(|| format!("operatie {} mist het veld '{key}'", self.name))
    }

    fn as_list(&self, value: Expr, key: &str) -> Result<Vec<Expr>, String> {
        match value {
            Expr::List(items) => Ok(items),
            other => Err(format!(
                "operatie {}: '{key}' moet een lijst zijn, niet {other:?}",
                self.name
            )),
        }
    }
}

impl Expr {
    /// The literal value of this expression when it contains no references or operations
    /// (references are kept as their `$name` text, as the reference engine does for definitions).
    pub fn to_literal(&self) -> Value {
        match self {
            Expr::Literal(v) => v.clone(),
            Expr::Ref(name) => Value::String(format!("${name}")),
            Expr::List(items) => Value::List(items.iter().map(Expr::to_literal).collect()),
            Expr::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), v.to_literal()))
                    .collect(),
            ),
            Expr::Op(_) => Value::Null,
        }
    }
}

/// Parses a YAML float exactly via its shortest decimal representation.
fn float_to_decimal(f: f64) -> Option<Decimal> {
    number_from_text(&format!("{f}"))
}

impl<'de> Deserialize<'de> for Expr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ExprVisitor)
    }
}

struct ExprVisitor;

/// How serde_json (with `arbitrary_precision`, as this workspace builds it) hands a number to a
/// visitor that takes any value: a map with this one key and the number's text.
const JSON_NUMBER: &str = "$serde_json::private::Number";

impl<'de> Visitor<'de> for ExprVisitor {
    type Value = Expr;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("een waarde, een $verwijzing of een operatie")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Expr, E> {
        Ok(Expr::Literal(Value::Bool(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Expr, E> {
        Ok(Expr::Literal(Value::int(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Expr, E> {
        Ok(Expr::Literal(Value::Number(Decimal::from(v))))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Expr, E> {
        float_to_decimal(v)
            .map(|d| Expr::Literal(Value::Number(d)))
            .ok_or_else(|| E::custom(format!("getal {v} is niet exact voor te stellen")))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Expr, E> {
        Ok(match v.strip_prefix('$') {
            Some(name) if !name.is_empty() => Expr::Ref(name.to_string()),
            _ => Expr::Literal(Value::String(v.to_string())),
        })
    }
    fn visit_unit<E: de::Error>(self) -> Result<Expr, E> {
        Ok(Expr::Literal(Value::Null))
    }
    fn visit_none<E: de::Error>(self) -> Result<Expr, E> {
        Ok(Expr::Literal(Value::Null))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Expr, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Expr>()? {
            items.push(item);
        }
        Ok(Expr::List(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Expr, A::Error> {
        let mut fields = BTreeMap::new();
        let mut operation: Option<String> = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == JSON_NUMBER && fields.is_empty() && operation.is_none() {
                // A number read from JSON (a prepared law, written from the YAML's own
                // numbers): read as the YAML parser handed it over, an integer or an f64.
                let text = map.next_value::<String>()?;
                return if let Ok(v) = text.parse::<i64>() {
                    self.visit_i64(v)
                } else if let Ok(v) = text.parse::<u64>() {
                    self.visit_u64(v)
                } else {
                    let v = text.parse::<f64>().map_err(de::Error::custom)?;
                    self.visit_f64(v)
                };
            }
            if key == "operation" {
                operation = Some(map.next_value::<String>()?);
            } else if key == "legal_basis" && operation.is_some() {
                map.next_value::<de::IgnoredAny>()?;
            } else {
                let value = map.next_value::<Expr>()?;
                fields.insert(key, value);
            }
        }
        match operation {
            Some(name) => {
                fields.remove("legal_basis");
                fields.remove("description");
                Op::build(&name, fields)
                    .map(|op| Expr::Op(Box::new(op)))
                    .map_err(de::Error::custom)
            }
            None => Ok(Expr::Object(fields)),
        }
    }
}
