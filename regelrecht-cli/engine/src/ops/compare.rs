//! Comparison operations: EQUALS / NOT_EQUALS (structural, numbers numerically, a date string
//! equals the `$referencedate` object of the same day) and the ordered comparisons (two numbers
//! or two dates; anything else is a type error).

use super::date::try_date;
use crate::error::EvalError;
use crate::expr::CompareOp;
use crate::value::Value;
use std::cmp::Ordering;

/// Structural equality; numbers compare by value.
pub(super) fn values_equal(a: &Value, b: &Value) -> bool {
    a == b || matches!((a, b), (Value::Number(x), Value::Number(y)) if x == y)
}

fn is_date_object(v: &Value) -> bool {
    matches!(v, Value::Object(o) if matches!(o.get("iso"), Some(Value::String(_))))
}

pub(super) fn compare(op: CompareOp, subject: &Value, value: &Value) -> Result<Value, EvalError> {
    let ordering_test = match op {
        CompareOp::Equals | CompareOp::NotEquals => {
            let mut equal = values_equal(subject, value);
            let mixed = (matches!(subject, Value::String(_)) && is_date_object(value))
                || (is_date_object(subject) && matches!(value, Value::String(_)));
            if !equal
                && mixed
                && let (Some(a), Some(b)) = (try_date(subject), try_date(value))
            {
                equal = a == b;
            }
            return Ok(Value::Bool(equal == (op == CompareOp::Equals)));
        }
        CompareOp::GreaterThan => |o: Ordering| o == Ordering::Greater,
        CompareOp::LessThan => |o: Ordering| o == Ordering::Less,
        CompareOp::GreaterThanOrEqual => |o: Ordering| o != Ordering::Less,
        CompareOp::LessThanOrEqual => |o: Ordering| o != Ordering::Greater,
    };
    if let (Value::Number(a), Value::Number(b)) = (subject, value) {
        return Ok(Value::Bool(ordering_test(a.cmp(b))));
    }
    if let (Some(a), Some(b)) = (try_date(subject), try_date(value)) {
        return Ok(Value::Bool(ordering_test(a.cmp(&b))));
    }
    Err(EvalError::type_error(
        op.name(),
        format!(
            "kan {} ({subject}) niet vergelijken met {} ({value}): twee getallen of twee datums verwacht",
            subject.type_name(),
            value.type_name()
        ),
    ))
}

#[cfg(test)]
mod tests {
    use crate::ops::testing::run;
    use crate::value::Value;

    #[test]
    fn numbers_compare_numerically() {
        assert_eq!(
            run("{operation: EQUALS, subject: 2, value: 2.0}", &[]).unwrap(),
            Value::Bool(true)
        );
        assert_eq!(
            run(
                "{operation: GREATER_THAN, subject: 10000001, value: 10000000}",
                &[]
            )
            .unwrap(),
            Value::Bool(true)
        );
        assert_eq!(
            run(
                "{operation: GREATER_THAN, subject: 10000000, value: 10000000}",
                &[]
            )
            .unwrap(),
            Value::Bool(false)
        );
        assert_eq!(
            run("{operation: LESS_THAN_OR_EQUAL, subject: 1, value: 1}", &[]).unwrap(),
            Value::Bool(true)
        );
    }

    #[test]
    fn equality_is_structural() {
        assert_eq!(
            run("{operation: EQUALS, subject: '42', value: 42}", &[]).unwrap(),
            Value::Bool(false)
        );
        assert_eq!(
            run("{operation: NOT_EQUALS, subject: null, value: 0}", &[]).unwrap(),
            Value::Bool(true)
        );
        assert_eq!(
            run("{operation: EQUALS, subject: null, value: null}", &[]).unwrap(),
            Value::Bool(true)
        );
    }

    #[test]
    fn dates_compare_chronologically() {
        assert_eq!(
            run(
                "{operation: LESS_THAN, subject: '2024-02-28', value: '2024-02-29'}",
                &[]
            )
            .unwrap(),
            Value::Bool(true)
        );
    }

    #[test]
    fn ordering_with_null_or_text_is_a_type_error() {
        assert!(run("{operation: GREATER_THAN, subject: null, value: 1}", &[]).is_err());
        assert!(run("{operation: LESS_THAN, subject: 'abc', value: 1}", &[]).is_err());
        assert!(
            run(
                "{operation: LESS_THAN, subject: '2024-01-01', value: 1}",
                &[]
            )
            .is_err()
        );
    }
}
