//! Arithmetic (ADD, SUBTRACT, MULTIPLY, DIVIDE, MIN, MAX) and rounding (ROUND half away from
//! zero, CEIL, FLOOR) on exact decimals. Null or text operands are type errors; overflow and
//! division by zero are errors.

use crate::error::{ErrorKind, EvalError};
use crate::expr::{ArithOp, RoundMode};
use crate::value::Value;
use rust_decimal::{Decimal, RoundingStrategy};

fn number(op: &str, v: &Value) -> Result<Decimal, EvalError> {
    v.as_number().ok_or_else(|| {
        EvalError::type_error(op, format!("getal verwacht, kreeg {} ({v})", v.type_name()))
    })
}

fn overflow(op: &str) -> EvalError {
    EvalError::invalid(format!("{op}: uitkomst te groot"))
}

pub(super) fn arith(op: ArithOp, values: &[Value]) -> Result<Value, EvalError> {
    let op_name = op.name();
    let Some((first, rest)) = values.split_first() else {
        return Err(EvalError::invalid(format!(
            "{op_name} heeft minstens één waarde nodig"
        )));
    };
    if op == ArithOp::Add {
        match first {
            Value::List(_) => {
                let mut out = Vec::new();
                for v in values {
                    match v {
                        Value::List(items) => out.extend(items.iter().cloned()),
                        other => {
                            return Err(EvalError::type_error(
                                op_name,
                                format!("lijst verwacht, kreeg {}", other.type_name()),
                            ));
                        }
                    }
                }
                return Ok(Value::List(out));
            }
            Value::String(_) => {
                let mut out = String::new();
                for v in values {
                    match v {
                        Value::String(s) => out.push_str(s),
                        other => {
                            return Err(EvalError::type_error(
                                op_name,
                                format!("tekst verwacht, kreeg {}", other.type_name()),
                            ));
                        }
                    }
                }
                return Ok(Value::String(out));
            }
            _ => {}
        }
    }
    let mut acc = number(op_name, first)?;
    for v in rest {
        let n = number(op_name, v)?;
        acc = match op {
            ArithOp::Add => acc.checked_add(n),
            ArithOp::Subtract => acc.checked_sub(n),
            ArithOp::Multiply => acc.checked_mul(n),
            ArithOp::Divide => {
                if n.is_zero() {
                    return Err(EvalError::new(ErrorKind::DivisionByZero));
                }
                acc.checked_div(n)
            }
            ArithOp::Min => Some(acc.min(n)),
            ArithOp::Max => Some(acc.max(n)),
        }
        .ok_or_else(|| overflow(op_name))?;
    }
    Ok(Value::Number(acc))
}

pub(super) fn round(mode: RoundMode, value: &Value, precision: i64) -> Result<Value, EvalError> {
    let op_name = mode.name();
    let n = number(op_name, value)?;
    round_decimal(n, precision, mode)
        .map(Value::Number)
        .ok_or_else(|| overflow(op_name))
}

/// Rounds to `precision` decimals (negative: tens, hundreds, ...).
pub(super) fn round_decimal(value: Decimal, precision: i64, mode: RoundMode) -> Option<Decimal> {
    let strategy = match mode {
        RoundMode::Round => RoundingStrategy::MidpointAwayFromZero,
        RoundMode::Ceil => RoundingStrategy::ToPositiveInfinity,
        RoundMode::Floor => RoundingStrategy::ToNegativeInfinity,
    };
    if !(-28..=28).contains(&precision) {
        return None;
    }
    if precision >= 0 {
        return Some(value.round_dp_with_strategy(precision as u32, strategy));
    }
    let mut scale = Decimal::ONE;
    for _ in 0..(-precision) {
        scale = scale.checked_mul(Decimal::TEN)?;
    }
    value
        .checked_div(scale)?
        .round_dp_with_strategy(0, strategy)
        .checked_mul(scale)
}

#[cfg(test)]
mod tests {
    use crate::error::ErrorKind;
    use crate::ops::testing::run;
    use crate::value::Value;
    use rust_decimal::Decimal;
    use std::str::FromStr;

    fn num(s: &str) -> Value {
        Value::Number(Decimal::from_str(s).unwrap())
    }

    #[test]
    fn arithmetic_is_exact() {
        assert_eq!(
            run("{operation: ADD, values: [0.1, 0.2]}", &[]).unwrap(),
            num("0.3")
        );
        assert_eq!(
            run("{operation: SUBTRACT, values: [10, 3, 2]}", &[]).unwrap(),
            num("5")
        );
        assert_eq!(
            run("{operation: MULTIPLY, values: [211200, 0.5]}", &[]).unwrap(),
            num("105600")
        );
        assert_eq!(
            run("{operation: DIVIDE, values: [1, 4]}", &[]).unwrap(),
            num("0.25")
        );
        assert_eq!(
            run("{operation: MIN, values: [3, -1, 2]}", &[]).unwrap(),
            num("-1")
        );
        assert_eq!(
            run("{operation: MAX, values: [3, -1, 2]}", &[]).unwrap(),
            num("3")
        );
    }

    #[test]
    fn add_concatenates_text_and_lists() {
        assert_eq!(
            run("{operation: ADD, values: ['a', 'b']}", &[]).unwrap(),
            Value::str("ab")
        );
        assert_eq!(
            run("{operation: ADD, values: [[1], [2]]}", &[]).unwrap(),
            Value::List(vec![num("1"), num("2")])
        );
    }

    #[test]
    fn division_by_zero_is_an_error() {
        let err = run("{operation: DIVIDE, values: [1, 0]}", &[]).unwrap_err();
        assert_eq!(err.kind, ErrorKind::DivisionByZero);
    }

    #[test]
    fn null_operands_are_type_errors() {
        assert!(matches!(
            run("{operation: ADD, values: [null, 1]}", &[])
                .unwrap_err()
                .kind,
            ErrorKind::Type { .. }
        ));
        assert!(matches!(
            run("{operation: SUBTRACT, values: [1, null]}", &[])
                .unwrap_err()
                .kind,
            ErrorKind::Type { .. }
        ));
        assert!(matches!(
            run("{operation: MAX, values: [1, '2']}", &[])
                .unwrap_err()
                .kind,
            ErrorKind::Type { .. }
        ));
    }

    #[test]
    fn rounding_modes() {
        assert_eq!(
            run("{operation: ROUND, value: 2.5, precision: 0}", &[]).unwrap(),
            num("3")
        );
        assert_eq!(
            run("{operation: ROUND, value: -2.5, precision: 0}", &[]).unwrap(),
            num("-3")
        );
        assert_eq!(
            run("{operation: ROUND, value: 2.345, precision: 2}", &[]).unwrap(),
            num("2.35")
        );
        assert_eq!(
            run("{operation: CEIL, value: 2.01, precision: 0}", &[]).unwrap(),
            num("3")
        );
        assert_eq!(
            run("{operation: CEIL, value: -2.9, precision: 0}", &[]).unwrap(),
            num("-2")
        );
        assert_eq!(
            run("{operation: FLOOR, value: -2.1, precision: 0}", &[]).unwrap(),
            num("-3")
        );
        assert_eq!(
            run("{operation: ROUND, value: 12350, precision: -2}", &[]).unwrap(),
            num("12400")
        );
        assert_eq!(
            run("{operation: FLOOR, value: 12399, precision: -2}", &[]).unwrap(),
            num("12300")
        );
        assert!(run("{operation: ROUND, value: null, precision: 0}", &[]).is_err());
    }
}
