//! Unit checking (RFC-023): values tagged with units (eurocent, days, ratio, ...) may only be
//! added or compared with the same unit, multiplied by a ratio/percentage, or divided into a
//! ratio. A mismatch is an error before the article's actions run, as in the reference engine.

use crate::error::{ErrorKind, EvalError};
use crate::expr::{ArithOp, Expr, Op};
use crate::law::Article;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Known(&'static str),
    Unknown,
}

fn parse(unit: Option<&str>) -> Unit {
    match unit {
        Some("euro") => Unit::Known("euro"),
        Some("eurocent") => Unit::Known("eurocent"),
        Some("years") => Unit::Known("years"),
        Some("months") => Unit::Known("months"),
        Some("weeks") => Unit::Known("weeks"),
        Some("days") => Unit::Known("days"),
        Some("ratio") => Unit::Known("ratio"),
        Some("percentage") => Unit::Known("percentage"),
        _ => Unit::Unknown,
    }
}

fn dimension(u: &str) -> &'static str {
    match u {
        "euro" | "eurocent" => "money",
        "years" | "months" | "weeks" | "days" => "time",
        "ratio" => "ratio",
        _ => "percentage",
    }
}

fn scalar(u: &str) -> bool {
    matches!(u, "ratio" | "percentage")
}

#[derive(Clone, Copy)]
enum Algebra {
    Additive,
    Comparison,
    Multiply,
    Divide,
}

fn combine(op: Algebra, name: &str, l: Unit, r: Unit) -> Result<Unit, EvalError> {
    let (Unit::Known(a), Unit::Known(b)) = (l, r) else {
        return Ok(Unit::Unknown);
    };
    let mismatch = || {
        EvalError::new(ErrorKind::UnitMismatch {
            operation: name.to_string(),
            left: a.to_string(),
            right: b.to_string(),
        })
    };
    match op {
        Algebra::Additive if a == b => Ok(l),
        Algebra::Comparison if a == b => Ok(Unit::Unknown),
        Algebra::Multiply if scalar(b) => Ok(l),
        Algebra::Multiply if scalar(a) => Ok(r),
        Algebra::Divide if scalar(b) => Ok(l),
        Algebra::Divide if dimension(a) == dimension(b) => Ok(Unit::Known("ratio")),
        _ => Err(mismatch()),
    }
}

struct Symbols(BTreeMap<String, Unit>);

impl Symbols {
    fn of(article: &Article) -> Symbols {
        let mut units = BTreeMap::new();
        if let Some(mr) = &article.machine_readable {
            for (name, def) in &mr.definitions {
                units.insert(name.clone(), parse(def.unit.as_deref()));
            }
        }
        if let Some(exec) = article.execution() {
            for field in exec.input.iter().chain(&exec.output) {
                units.insert(field.name.clone(), parse(field.unit()));
            }
        }
        Symbols(units)
    }

    fn lookup(&self, path: &str) -> Unit {
        let head = path.split('.').next().unwrap_or(path);
        self.0.get(head).copied().unwrap_or(Unit::Unknown)
    }
}

/// Checks the units of every action of an article.
pub(crate) fn check_article(article: &Article) -> Result<(), EvalError> {
    let symbols = Symbols::of(article);
    if !symbols.0.values().any(|u| *u != Unit::Unknown) {
        return Ok(());
    }
    for action in article.execution().iter().flat_map(|e| &e.actions) {
        infer(&action.expr, &symbols)?;
    }
    Ok(())
}

fn fold<'a>(
    op: Algebra,
    name: &str,
    items: impl IntoIterator<Item = &'a Expr>,
    symbols: &Symbols,
) -> Result<Unit, EvalError> {
    let mut acc: Option<Unit> = None;
    for item in items {
        let u = infer(item, symbols)?;
        if u == Unit::Unknown {
            continue;
        }
        acc = Some(match acc {
            None => u,
            Some(prev) => combine(op, name, prev, u)?,
        });
    }
    Ok(acc.unwrap_or(Unit::Unknown))
}

fn infer(expr: &Expr, symbols: &Symbols) -> Result<Unit, EvalError> {
    let op = match expr {
        Expr::Ref(path) => return Ok(symbols.lookup(path)),
        Expr::Op(op) => op,
        Expr::List(items) => {
            for item in items {
                infer(item, symbols)?;
            }
            return Ok(Unit::Unknown);
        }
        _ => return Ok(Unit::Unknown),
    };
    let name = op.name();
    let check_all = |items: &[&Expr]| -> Result<Unit, EvalError> {
        for item in items {
            infer(item, symbols)?;
        }
        Ok(Unit::Unknown)
    };
    match op.as_ref() {
        Op::Arith {
            op: ArithOp::Multiply,
            values,
        } => fold(Algebra::Multiply, name, values, symbols),
        Op::Arith {
            op: ArithOp::Divide,
            values,
        } => fold(Algebra::Divide, name, values, symbols),
        Op::Arith { values, .. } => fold(Algebra::Additive, name, values, symbols),
        Op::Round { value, .. } => infer(value, symbols),
        Op::Compare { subject, value, .. } => combine(
            Algebra::Comparison,
            name,
            infer(subject, symbols)?,
            infer(value, symbols)?,
        ),
        Op::If { cases, default } => {
            for (when, _) in cases {
                infer(when, symbols)?;
            }
            fold(
                Algebra::Additive,
                name,
                cases.iter().map(|(_, then)| then).chain(default),
                symbols,
            )
        }
        Op::And(items) | Op::Or(items) | Op::List(items) => {
            check_all(&items.iter().collect::<Vec<_>>())
        }
        Op::Not(v) | Op::DayOfWeek(v) | Op::NullCheck { subject: v, .. } => check_all(&[v]),
        Op::In {
            subject,
            value,
            values,
            ..
        } => {
            let s = infer(subject, symbols)?;
            for item in value.iter().chain(values.iter().flatten()) {
                combine(Algebra::Comparison, name, s, infer(item, symbols)?)?;
            }
            Ok(Unit::Unknown)
        }
        Op::Age {
            date_of_birth,
            reference_date,
        } => {
            check_all(&[date_of_birth, reference_date])?;
            Ok(Unit::Known("years"))
        }
        Op::Date { year, month, day } => check_all(&[year, month, day]),
        Op::DateAdd {
            date,
            years,
            months,
            weeks,
            days,
        } => {
            let mut items = vec![date];
            items.extend([years, months, weeks, days].into_iter().flatten());
            check_all(&items)
        }
        Op::DateDiff { from, to, unit } => check_all(&[from, to, unit]),
    }
}
