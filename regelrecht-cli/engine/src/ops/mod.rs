//! Evaluation of expressions and operations against a [`Scope`] that resolves `$variables`.
//!
//! The semantics follow the reference RegelRecht engine: exact decimals, structural equality
//! (a number never equals a string), dates as canonical `YYYY-MM-DD` strings, and an error
//! instead of a guess whenever an operand has the wrong type.

mod arith;
mod compare;
mod date;
mod logic;

pub use date::{add_months, age_in_years, months_between, parse_date};

use crate::error::EvalError;
use crate::expr::{Expr, Op};
use crate::value::Value;

/// Maximum nesting of operations (guards against runaway recursion).
const MAX_DEPTH: usize = 100;

/// Resolves `$variables` for expression evaluation.
pub trait Scope {
    /// Resolves a variable name (without `$`, possibly dotted such as `referencedate.year`).
    fn resolve(&self, path: &str) -> Result<Value, EvalError>;
}

/// Evaluates an expression.
pub fn eval(expr: &Expr, scope: &dyn Scope) -> Result<Value, EvalError> {
    eval_at(expr, scope, 0)
}

pub(crate) fn eval_at(expr: &Expr, scope: &dyn Scope, depth: usize) -> Result<Value, EvalError> {
    if depth > MAX_DEPTH {
        return Err(EvalError::invalid(format!(
            "operaties zijn dieper genest dan {MAX_DEPTH}"
        )));
    }
    match expr {
        Expr::Literal(v) => Ok(v.clone()),
        Expr::Ref(path) => scope.resolve(path),
        Expr::List(items) => items
            .iter()
            .map(|i| eval_at(i, scope, depth + 1))
            .collect::<Result<_, _>>()
            .map(Value::List),
        Expr::Object(map) => map
            .iter()
            .map(|(k, v)| eval_at(v, scope, depth + 1).map(|v| (k.clone(), v)))
            .collect::<Result<_, _>>()
            .map(Value::Object),
        Expr::Op(op) => eval_op(op, scope, depth + 1),
    }
}

fn eval_op(op: &Op, scope: &dyn Scope, depth: usize) -> Result<Value, EvalError> {
    let ev = |e: &Expr| eval_at(e, scope, depth);
    match op {
        Op::Compare { op, subject, value } => compare::compare(*op, &ev(subject)?, &ev(value)?),
        Op::Arith { op, values } => {
            let values = values.iter().map(ev).collect::<Result<Vec<_>, _>>()?;
            arith::arith(*op, &values)
        }
        Op::Round {
            mode,
            value,
            precision,
        } => arith::round(*mode, &ev(value)?, *precision),
        Op::And(conditions) => {
            for condition in conditions {
                if !ev(condition)?.truthy() {
                    return Ok(Value::Bool(false));
                }
            }
            Ok(Value::Bool(true))
        }
        Op::Or(conditions) => {
            for condition in conditions {
                if ev(condition)?.truthy() {
                    return Ok(Value::Bool(true));
                }
            }
            Ok(Value::Bool(false))
        }
        Op::Not(value) => Ok(Value::Bool(!ev(value)?.truthy())),
        Op::If { cases, default } => {
            for (when, then) in cases {
                if ev(when)?.truthy() {
                    return ev(then);
                }
            }
            default.as_ref().map_or(Ok(Value::Null), ev)
        }
        Op::NullCheck { negate, subject } => {
            Ok(Value::Bool(matches!(ev(subject)?, Value::Null) != *negate))
        }
        Op::In {
            negate,
            subject,
            value,
            values,
        } => Ok(Value::Bool(
            is_in(&ev, subject, value.as_ref(), values.as_deref())? != *negate,
        )),
        Op::List(items) => items
            .iter()
            .map(ev)
            .collect::<Result<_, _>>()
            .map(Value::List),
        Op::Age {
            date_of_birth,
            reference_date,
        } => {
            let born = parse_date("AGE", &ev(date_of_birth)?)?;
            let at = parse_date("AGE", &ev(reference_date)?)?;
            Ok(Value::int(age_in_years(born, at)))
        }
        Op::DateAdd {
            date,
            years,
            months,
            weeks,
            days,
        } => date_add(&ev, date, [years, months, weeks, days]),
        Op::Date { year, month, day } => date::construct(
            logic::as_int("DATE", "year", &ev(year)?)?,
            logic::as_int("DATE", "month", &ev(month)?)?,
            logic::as_int("DATE", "day", &ev(day)?)?,
        ),
        Op::DayOfWeek(value) => date::day_of_week(&ev(value)?),
        Op::DateDiff { from, to, unit } => {
            let from = parse_date("DATE_DIFF", &ev(from)?)?;
            let to = parse_date("DATE_DIFF", &ev(to)?)?;
            date::date_diff(from, to, &ev(unit)?)
        }
    }
}

/// `IN`: whether `subject` equals one of `values`, or one item of the list `value` (a value that
/// is no list is a list of one).
fn is_in(
    ev: &impl Fn(&Expr) -> Result<Value, EvalError>,
    subject: &Expr,
    value: Option<&Expr>,
    values: Option<&[Expr]>,
) -> Result<bool, EvalError> {
    let subject = ev(subject)?;
    let candidates = match (values, value) {
        (Some(values), _) => values.iter().map(ev).collect::<Result<Vec<_>, _>>()?,
        (None, Some(value)) => match ev(value)? {
            Value::List(items) => items,
            other => vec![other],
        },
        (None, None) => return Err(EvalError::invalid("IN mist 'values' of 'value'")),
    };
    Ok(candidates
        .iter()
        .any(|c| compare::values_equal(&subject, c)))
}

/// `DATE_ADD`: `date` plus whole years, months, weeks and days, each optional.
fn date_add(
    ev: &impl Fn(&Expr) -> Result<Value, EvalError>,
    date: &Expr,
    [years, months, weeks, days]: [&Option<Expr>; 4],
) -> Result<Value, EvalError> {
    let amount = |e: &Option<Expr>, what: &str| -> Result<Option<i64>, EvalError> {
        e.as_ref()
            .map(|e| logic::as_int("DATE_ADD", what, &ev(e)?))
            .transpose()
    };
    let start = parse_date("DATE_ADD", &ev(date)?)?;
    date::date_add(
        start,
        amount(years, "years")?,
        amount(months, "months")?,
        amount(weeks, "weeks")?,
        amount(days, "days")?,
    )
}

#[cfg(test)]
pub(crate) mod testing {
    //! A scope over a fixed map, for operation tests.
    use super::*;
    use crate::error::ErrorKind;
    use std::collections::BTreeMap;

    pub(crate) struct MapScope(pub BTreeMap<String, Value>);

    impl Scope for MapScope {
        fn resolve(&self, path: &str) -> Result<Value, EvalError> {
            self.0.get(path).cloned().ok_or_else(|| {
                EvalError::new(ErrorKind::MissingValue {
                    name: path.to_string(),
                    law: "test".into(),
                    article: "1".into(),
                })
            })
        }
    }

    /// Evaluates a YAML expression with the given variables.
    pub(crate) fn run(yaml: &str, vars: &[(&str, Value)]) -> Result<Value, EvalError> {
        let expr: Expr = serde_yaml_ng::from_str(yaml).expect("valid test expression");
        let scope = MapScope(
            vars.iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        );
        eval(&expr, &scope)
    }
}
