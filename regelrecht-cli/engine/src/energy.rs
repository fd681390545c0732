//! The energy-saving check (`check energiebesparing`) on the built-in Bal articles 5.15–5.15b:
//! one call that evaluates every duty, the next reporting date and the thresholds, with the
//! article of each answer.

use crate::builtin::BAL_ID;
use crate::error::EvalError;
use crate::eval::{Basis, Engine, Evaluation, Request};
use crate::load::Corpus;
use crate::value::Value;
use chrono::NaiveDate;
use rust_decimal::Decimal;
use std::collections::BTreeMap;

/// The facts of one business activity (milieubelastende activiteit).
#[derive(Debug, Clone, PartialEq)]
pub struct EnergyFacts {
    /// Electricity used in a calendar year, kWh.
    pub elektriciteit_kwh: Decimal,
    /// Natural gas equivalents used in a calendar year, m³.
    pub gas_m3: Decimal,
    /// 5.15 lid 3 onder b: the measures concern a gebruiksfunctie (art. 3.84 Bbl).
    pub gebruiksfunctie_bbl: bool,
    /// 5.15 lid 3 onder c: only renewable energy produced on site is used.
    pub alleen_hernieuwbaar_op_locatie: bool,
    /// Activity as meant in art. 3.3a lid 1 onder a (5.15a lid 2 onder a, 5.15b lid 3).
    pub activiteit_3_3a_lid_1_a: bool,
    /// Activity as meant in art. 3.3a lid 1 onder b (5.15 lid 3 onder d, 5.15a lid 3, 5.15b lid 3).
    pub activiteit_3_3a_lid_1_b: bool,
}

/// The answer of the check.
#[derive(Debug, Clone)]
pub struct EnergyCheck {
    /// 5.15 lid 1 applies.
    pub energiebesparingsplicht: bool,
    /// 5.15a applies.
    pub informatieplicht: bool,
    /// 5.15b applies.
    pub onderzoeksplicht: bool,
    /// Next 1 December (2023 + 4k) on or after the calculation date.
    pub volgende_rapportagedatum: String,
    /// Reporting frequency in years.
    pub rapportagefrequentie_jaren: Value,
    /// The article behind each output.
    pub basis: Vec<Basis>,
    /// Parameters used.
    pub params: BTreeMap<String, Value>,
    /// Thresholds (definitions) of the articles evaluated, by name.
    pub drempelwaarden: BTreeMap<String, Value>,
    /// The full evaluation (trace, law version, file hash).
    pub evaluation: Evaluation,
}

/// Output names evaluated by the check.
pub const OUTPUTS: [&str; 5] = [
    "heeft_energiebesparingsplicht",
    "heeft_informatieplicht",
    "heeft_onderzoeksplicht",
    "volgende_rapportagedatum",
    "rapportagefrequentie_jaren",
];

impl EnergyFacts {
    /// The law parameters for these facts.
    pub fn params(&self) -> BTreeMap<String, Value> {
        [
            (
                "elektriciteitsverbruik_kwh",
                Value::Number(self.elektriciteit_kwh),
            ),
            ("aardgasverbruik_m3", Value::Number(self.gas_m3)),
            (
                "betreft_gebruiksfunctie_bbl",
                Value::Bool(self.gebruiksfunctie_bbl),
            ),
            (
                "alleen_hernieuwbare_energie_op_locatie",
                Value::Bool(self.alleen_hernieuwbaar_op_locatie),
            ),
            (
                "is_activiteit_artikel_3_3a_lid_1_onder_a",
                Value::Bool(self.activiteit_3_3a_lid_1_a),
            ),
            (
                "is_activiteit_artikel_3_3a_lid_1_onder_b",
                Value::Bool(self.activiteit_3_3a_lid_1_b),
            ),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }
}

/// Evaluates the Bal energy-saving duties for `facts` on `date`.
pub fn check_energiebesparing(
    corpus: &Corpus,
    facts: &EnergyFacts,
    date: NaiveDate,
) -> Result<EnergyCheck, EvalError> {
    let params = facts.params();
    let request = Request {
        law_id: BAL_ID.to_string(),
        outputs: OUTPUTS.map(String::from).to_vec(),
        params: params.clone(),
        date,
    };
    let evaluation = Engine::new(corpus).evaluate(&request)?;
    let flag = |name: &str| evaluation.outputs.get(name) == Some(&Value::Bool(true));
    let law = corpus.select(BAL_ID, date).ok().and_then(|f| f.law().ok());
    let drempelwaarden = law
        .iter()
        .flat_map(|l| &l.articles)
        .filter_map(|a| a.machine_readable.as_ref())
        .flat_map(|m| &m.definitions)
        .map(|(k, d)| (k.clone(), d.value.clone()))
        .collect();
    let volgende_rapportagedatum = match evaluation.outputs.get("volgende_rapportagedatum") {
        Some(Value::String(s)) => s.clone(),
        other => {
            return Err(EvalError::invalid(format!(
                "volgende_rapportagedatum is geen datum: {other:?}"
            )));
        }
    };
    Ok(EnergyCheck {
        energiebesparingsplicht: flag("heeft_energiebesparingsplicht"),
        informatieplicht: flag("heeft_informatieplicht"),
        onderzoeksplicht: flag("heeft_onderzoeksplicht"),
        volgende_rapportagedatum,
        rapportagefrequentie_jaren: evaluation
            .outputs
            .get("rapportagefrequentie_jaren")
            .cloned()
            .unwrap_or_default(),
        basis: evaluation.basis.clone(),
        params,
        drempelwaarden,
        evaluation,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_reports_duties_thresholds_and_articles() {
        let corpus = Corpus::with_builtins();
        let facts = EnergyFacts {
            elektriciteit_kwh: Decimal::from(62_000),
            gas_m3: Decimal::from(31_000),
            gebruiksfunctie_bbl: false,
            alleen_hernieuwbaar_op_locatie: false,
            activiteit_3_3a_lid_1_a: false,
            activiteit_3_3a_lid_1_b: false,
        };
        let check = check_energiebesparing(
            &corpus,
            &facts,
            NaiveDate::from_ymd_opt(2026, 1, 1).unwrap(),
        )
        .unwrap();
        assert!(check.energiebesparingsplicht && check.informatieplicht && !check.onderzoeksplicht);
        assert_eq!(check.volgende_rapportagedatum, "2027-12-01");
        assert_eq!(
            check.drempelwaarden["onderzoeksdrempel_aardgas_m3"],
            Value::int(170_000)
        );
        assert_eq!(
            check
                .basis
                .iter()
                .find(|b| b.output == "heeft_informatieplicht")
                .unwrap()
                .article,
            "5.15a"
        );
    }
}
