//! Helpers shared by the logical and date operations: reading an integer operand.

use crate::error::EvalError;
use crate::value::Value;
use rust_decimal::prelude::ToPrimitive;

/// An integer operand (decimals are truncated, as the reference engine does); anything else is a
/// type error.
pub(super) fn as_int(op: &str, field: &str, v: &Value) -> Result<i64, EvalError> {
    v.as_number()
        .and_then(|d| d.trunc().to_i64())
        .ok_or_else(|| {
            EvalError::type_error(
                op,
                format!(
                    "'{field}' moet een getal zijn, kreeg {} ({v})",
                    v.type_name()
                ),
            )
        })
}

#[cfg(test)]
mod tests {
    use crate::ops::testing::run;
    use crate::value::Value;

    #[test]
    fn and_or_short_circuit() {
        // The second condition would fail (unknown variable) if evaluated.
        assert_eq!(
            run("{operation: AND, conditions: [false, $missing]}", &[]).unwrap(),
            Value::Bool(false)
        );
        assert_eq!(
            run("{operation: OR, conditions: [true, $missing]}", &[]).unwrap(),
            Value::Bool(true)
        );
        assert!(run("{operation: AND, conditions: [true, $missing]}", &[]).is_err());
        assert_eq!(
            run("{operation: AND, conditions: []}", &[]).unwrap(),
            Value::Bool(true)
        );
        assert_eq!(
            run("{operation: OR, conditions: [null, 0]}", &[]).unwrap(),
            Value::Bool(false)
        );
    }

    #[test]
    fn not_uses_truthiness() {
        assert_eq!(
            run("{operation: NOT, value: null}", &[]).unwrap(),
            Value::Bool(true)
        );
        assert_eq!(
            run("{operation: NOT, value: 1}", &[]).unwrap(),
            Value::Bool(false)
        );
    }

    #[test]
    fn if_takes_first_true_case_or_default_or_null() {
        let yaml =
            "{operation: IF, cases: [{when: $a, then: 1}, {when: true, then: 2}], default: 3}";
        assert_eq!(
            run(yaml, &[("a", Value::Bool(true))]).unwrap(),
            Value::int(1)
        );
        assert_eq!(run(yaml, &[("a", Value::Null)]).unwrap(), Value::int(2));
        assert_eq!(
            run(
                "{operation: IF, cases: [{when: false, then: 1}], default: 3}",
                &[]
            )
            .unwrap(),
            Value::int(3)
        );
        assert_eq!(
            run("{operation: IF, cases: [{when: false, then: 1}]}", &[]).unwrap(),
            Value::Null
        );
    }

    #[test]
    fn in_checks_membership() {
        assert_eq!(
            run("{operation: IN, subject: 2, values: [1, 2.0]}", &[]).unwrap(),
            Value::Bool(true)
        );
        assert_eq!(
            run("{operation: IN, subject: '2', values: [1, 2]}", &[]).unwrap(),
            Value::Bool(false)
        );
        let list = Value::List(vec![Value::str("a"), Value::str("b")]);
        assert_eq!(
            run(
                "{operation: IN, subject: b, value: $l}",
                &[("l", list.clone())]
            )
            .unwrap(),
            Value::Bool(true)
        );
        assert_eq!(
            run("{operation: NOT_IN, subject: c, value: $l}", &[("l", list)]).unwrap(),
            Value::Bool(true)
        );
        assert_eq!(
            run("{operation: IN, subject: null, values: [null]}", &[]).unwrap(),
            Value::Bool(true)
        );
    }

    #[test]
    fn list_and_null_checks() {
        assert_eq!(
            run("{operation: LIST, items: [1, $x]}", &[("x", Value::Null)]).unwrap(),
            Value::List(vec![Value::int(1), Value::Null])
        );
        assert_eq!(
            run("{operation: IS_NULL, subject: $x}", &[("x", Value::Null)]).unwrap(),
            Value::Bool(true)
        );
        assert_eq!(
            run("{operation: NOT_NULL, subject: 0}", &[]).unwrap(),
            Value::Bool(true)
        );
    }
}
