//! The state of one scenario and the grammar's semantic actions on this engine: one handler
//! per action of the fixed action set (`bdd/README.md`), whatever sentence names it.
//!
//! Values are typed as `grammar.yaml`'s `value_typing` says: quoted and table-cell values are
//! inferred from their content (`true`, `false`, `null`, a number literal, else text; an empty
//! cell is null), bare captures are numbers.

use super::grammar::{Arg, Grammar};
use crate::data::DataSources;
use crate::dates::parse_iso_date;
use crate::error::EvalError;
use crate::eval::untranslatable::UntranslatableMode;
use crate::eval::{Engine, Evaluation, Request};
use crate::load::Corpus;
use crate::notes::{self, Hint, Resolution, Status, TextQuoteSelector};
use crate::value::{Value, number_from_text};
use chrono::NaiveDate;
use std::collections::{BTreeMap, BTreeSet};

/// One scenario's state.
pub(super) struct World<'c> {
    corpus: &'c Corpus,
    date: Option<NaiveDate>,
    params: BTreeMap<String, Value>,
    data: DataSources,
    mode: UntranslatableMode,
    requested: Vec<String>,
    result: Option<Result<Evaluation, EvalError>>,
    note_articles: Vec<(String, String)>,
    selector: Option<TextQuoteSelector>,
    resolution: Option<Resolution>,
}

/// A value whose content decides its type.
fn inferred(text: &str) -> Value {
    match text.trim() {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        "null" => Value::Null,
        t => number_from_text(t).map_or_else(|| Value::str(t), Value::Number),
    }
}

fn cell(text: &str) -> Value {
    let grammar = Grammar::builtin();
    if text.trim().is_empty() {
        Value::Null
    } else if grammar.value_typing.table_cell == "inferred" {
        inferred(text)
    } else {
        Value::str(text)
    }
}

fn arg_value(arg: &Arg) -> Value {
    let typing = &Grammar::builtin().value_typing;
    match arg {
        Arg::Quoted(s) if typing.quoted == "inferred" => inferred(s),
        Arg::Bare(s) if typing.bare == "number" => inferred(s),
        other => Value::str(other.text()),
    }
}

fn arg(args: &[Arg], i: usize) -> Result<&str, String> {
    args.get(i).map(Arg::text).ok_or_else(|| {
        format!(
            "argument {} ontbreekt (grammatica en runner lopen uiteen)",
            i + 1
        )
    })
}

fn list(text: &str) -> Vec<String> {
    text.split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

impl<'c> World<'c> {
    pub(super) fn new(corpus: &'c Corpus) -> World<'c> {
        World {
            corpus,
            date: None,
            params: BTreeMap::new(),
            data: DataSources::new(),
            mode: UntranslatableMode::default(),
            requested: Vec::new(),
            result: None,
            note_articles: Vec::new(),
            selector: None,
            resolution: None,
        }
    }

    /// Performs `action` with the step's captures and table: one handler per action, below in
    /// the order of a scenario (its setting, the evaluation, the assertions on its result, and
    /// the notes' resolution with theirs).
    pub(super) fn apply(
        &mut self,
        action: &str,
        args: &[Arg],
        table: &[Vec<String>],
    ) -> Result<(), String> {
        match action {
            "set_calculation_date" => self.set_calculation_date(args),
            "load_law" => self.load_law(args),
            "set_parameter" => self.set_parameter(args),
            "set_parameters_table" => self.set_parameters_table(table),
            "set_data_source" => self.set_data_source(args, table),
            "set_untranslatable_mode" => {
                self.mode = arg(args, 0)?.parse()?;
                Ok(())
            }
            "evaluate" => self.evaluate(arg(args, 1)?, vec![arg(args, 0)?.to_string()]),
            "evaluate_outputs" => self.evaluate(arg(args, 1)?, list(arg(args, 0)?)),
            "assert_succeeds" => self.evaluation().map(|_| ()),
            "assert_fails" => self.failure().map(|_| ()),
            "assert_fails_with" => self.assert_fails_with(args),
            "assert_boolean" => self.assert_boolean(args),
            "assert_equals" => self.assert_equals(args),
            "assert_null" => self.assert_null(args),
            "assert_contains" => self.assert_contains(args),
            "assert_exact_outputs" => self.assert_exact_outputs(args),
            "assert_provenance" => self.assert_provenance(args),
            "assert_tainted" => self.assert_tainted(args),
            "set_note_articles" => self.note_articles(table),
            "set_note_selector_exact" => self.set_note_selector_exact(args),
            "set_note_selector_context" => self.set_note_selector_context(args),
            "set_note_hint_article" | "set_note_hint_position" => self.set_note_hint(args),
            "resolve_note" => self.resolve_note(),
            "assert_note_resolves" => self.assert_note_resolves(args),
            "assert_note_exact_match" => self.assert_note_match(true),
            "assert_note_fuzzy_match" => self.assert_note_match(false),
            "assert_note_orphaned" => self.note_status(Status::Orphaned),
            "assert_note_ambiguous" => self.note_status(Status::Ambiguous),
            other => Err(format!("actie '{other}' kent deze runner niet")),
        }
    }

    /// `set_calculation_date`: the date the law is evaluated on (JJJJ-MM-DD).
    fn set_calculation_date(&mut self, args: &[Arg]) -> Result<(), String> {
        let text = arg(args, 0)?;
        self.date = Some(
            parse_iso_date(text).ok_or_else(|| format!("'{text}' is geen datum (JJJJ-MM-DD)"))?,
        );
        Ok(())
    }

    /// `load_law`: the law must be in the corpus (nothing is loaded beyond it).
    fn load_law(&self, args: &[Arg]) -> Result<(), String> {
        let law = arg(args, 0)?;
        if self.corpus.versions(law).next().is_none() {
            return Err(format!(
                "wet '{law}' is niet geladen (geef de map met --corpus)"
            ));
        }
        Ok(())
    }

    /// `set_parameter`: one parameter, its value typed by how it was captured.
    fn set_parameter(&mut self, args: &[Arg]) -> Result<(), String> {
        let value = args.get(1).map(arg_value).ok_or("waarde ontbreekt")?;
        self.params.insert(arg(args, 0)?.to_string(), value);
        Ok(())
    }

    /// `set_parameters_table`: rows of NAAM | WAARDE, each value inferred from its cell.
    fn set_parameters_table(&mut self, table: &[Vec<String>]) -> Result<(), String> {
        for row in table {
            match row.as_slice() {
                [name, value, ..] => {
                    self.params.insert(name.clone(), cell(value));
                }
                _ => {
                    return Err("elke rij van de parametertabel heeft NAAM | WAARDE".into());
                }
            }
        }
        Ok(())
    }

    /// `set_data_source`: a table of records under its header, every row as wide as the header.
    fn set_data_source(&mut self, args: &[Arg], table: &[Vec<String>]) -> Result<(), String> {
        let (header, rows) = table.split_first().ok_or("de tabel heeft geen kop")?;
        let mut records = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            if row.len() != header.len() {
                return Err(format!(
                    "rij {} heeft {} cellen, de kop {}",
                    i + 1,
                    row.len(),
                    header.len()
                ));
            }
            records.push(
                header
                    .iter()
                    .cloned()
                    .zip(row.iter().map(|c| cell(c)))
                    .collect(),
            );
        }
        self.data.insert(arg(args, 0)?, arg(args, 1)?, records)
    }

    /// `assert_fails_with`: the failure's message, reference message or code contains the text
    /// (case-insensitive).
    fn assert_fails_with(&self, args: &[Arg]) -> Result<(), String> {
        let needle = arg(args, 0)?.to_lowercase();
        let error = self.failure()?;
        let texts = [
            Some(error.to_string()),
            error.reference_message(),
            Some(error.code().to_string()),
        ];
        if !texts
            .iter()
            .flatten()
            .any(|t| t.to_lowercase().contains(&needle))
        {
            return Err(format!(
                "de fout \"{error}\" bevat \"{}\" niet",
                arg(args, 0)?
            ));
        }
        Ok(())
    }

    /// `assert_boolean`: an output is `true` or `false`.
    fn assert_boolean(&self, args: &[Arg]) -> Result<(), String> {
        let expected = Value::Bool(arg(args, 1)? == "true");
        let actual = self.output(arg(args, 0)?)?;
        if *actual != expected {
            return Err(format!(
                "uitvoer {}: verwacht {expected}, kreeg {actual}",
                arg(args, 0)?
            ));
        }
        Ok(())
    }

    /// `assert_equals`: an output equals the value (numbers by value; a quoted value against a
    /// text output as text).
    fn assert_equals(&self, args: &[Arg]) -> Result<(), String> {
        let raw = args.get(1).ok_or("waarde ontbreekt")?;
        let expected = arg_value(raw);
        let actual = self.output(arg(args, 0)?)?;
        let same = match (actual, &expected) {
            (Value::Number(a), Value::Number(b)) => a == b,
            (Value::String(a), _) if matches!(raw, Arg::Quoted(_)) => a == raw.text(),
            (a, b) => a == b,
        };
        if !same {
            return Err(format!(
                "uitvoer {}: verwacht {expected}, kreeg {actual}",
                arg(args, 0)?
            ));
        }
        Ok(())
    }

    /// `assert_null`: an output is null.
    fn assert_null(&self, args: &[Arg]) -> Result<(), String> {
        let actual = self.output(arg(args, 0)?)?;
        if *actual != Value::Null {
            return Err(format!(
                "uitvoer {}: verwacht null, kreeg {actual}",
                arg(args, 0)?
            ));
        }
        Ok(())
    }

    /// `assert_contains`: a text output contains the text (case-insensitive).
    fn assert_contains(&self, args: &[Arg]) -> Result<(), String> {
        let needle = arg(args, 1)?;
        match self.output(arg(args, 0)?)? {
            Value::String(s) if s.to_lowercase().contains(&needle.to_lowercase()) => Ok(()),
            other => Err(format!(
                "uitvoer {}: {other} bevat \"{needle}\" niet",
                arg(args, 0)?
            )),
        }
    }

    /// `assert_exact_outputs`: the result has exactly these outputs (see [`Self::result_outputs`]).
    fn assert_exact_outputs(&self, args: &[Arg]) -> Result<(), String> {
        let expected: BTreeSet<String> = list(arg(args, 0)?).into_iter().collect();
        let actual = self.result_outputs()?;
        if actual != expected {
            return Err(format!("uitvoer {actual:?}, verwacht precies {expected:?}"));
        }
        Ok(())
    }

    /// `assert_provenance`: how an output was made, in the reference's words ("reactive" for
    /// this engine's "hook").
    fn assert_provenance(&self, args: &[Arg]) -> Result<(), String> {
        let (output, kind) = (arg(args, 0)?, arg(args, 1)?);
        self.output(output)?;
        let how = self.evaluation()?.provenance.get(output).copied();
        let actual = match how {
            Some("hook") => "reactive",
            Some(other) => other,
            None => "onbekend",
        };
        if actual != kind {
            return Err(format!(
                "uitvoer {output}: herkomst {actual}, verwacht {kind}"
            ));
        }
        Ok(())
    }

    /// `assert_tainted`: an output carries the untranslatable mark.
    fn assert_tainted(&self, args: &[Arg]) -> Result<(), String> {
        let output = arg(args, 0)?;
        self.output(output)?;
        if !self.evaluation()?.tainted.contains_key(output) {
            return Err(format!(
                "uitvoer {output} is niet gemarkeerd als onvertaalbaar"
            ));
        }
        Ok(())
    }

    /// `set_note_selector_exact`: the note's quote, without context.
    fn set_note_selector_exact(&mut self, args: &[Arg]) -> Result<(), String> {
        self.selector = Some(TextQuoteSelector {
            exact: arg(args, 0)?.to_string(),
            ..TextQuoteSelector::default()
        });
        Ok(())
    }

    /// `set_note_selector_context`: the note's quote with the text before and after it.
    fn set_note_selector_context(&mut self, args: &[Arg]) -> Result<(), String> {
        self.selector = Some(TextQuoteSelector {
            exact: arg(args, 0)?.to_string(),
            prefix: arg(args, 1)?.to_string(),
            suffix: arg(args, 2)?.to_string(),
            hint: None,
        });
        Ok(())
    }

    /// `set_note_hint_article` and `set_note_hint_position`: the article the chosen note was
    /// in, and where in it when two positions are given.
    fn set_note_hint(&mut self, args: &[Arg]) -> Result<(), String> {
        let range = match (args.get(1), args.get(2)) {
            (Some(a), Some(b)) => Some((
                a.text()
                    .parse()
                    .map_err(|_| "positie is geen geheel getal")?,
                b.text()
                    .parse()
                    .map_err(|_| "positie is geen geheel getal")?,
            )),
            _ => None,
        };
        let selector = self.selector.as_mut().ok_or("eerst een notitie kiezen")?;
        selector.hint = Some(Hint {
            article: arg(args, 0)?.to_string(),
            range,
        });
        Ok(())
    }

    /// `resolve_note`: the chosen note resolved against the article table.
    fn resolve_note(&mut self) -> Result<(), String> {
        let selector = self.selector.as_ref().ok_or("eerst een notitie kiezen")?;
        let articles: Vec<(&str, &str)> = self
            .note_articles
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .collect();
        self.resolution = Some(notes::resolve(selector, &articles));
        Ok(())
    }

    /// `assert_note_resolves`: the note was found once, in this article.
    fn assert_note_resolves(&self, args: &[Arg]) -> Result<(), String> {
        let article = arg(args, 0)?;
        let found = self.single_match()?;
        if found.article != article {
            return Err(format!(
                "notitie wijst naar artikel {}, verwacht {article}",
                found.article
            ));
        }
        Ok(())
    }

    /// `assert_note_exact_match` (`exact`) and `assert_note_fuzzy_match`: the note was found
    /// once, with full confidence or with less.
    fn assert_note_match(&self, exact: bool) -> Result<(), String> {
        let found = self.single_match()?;
        if exact && found.confidence < 1.0 {
            return Err(format!(
                "vage overeenkomst ({:.3}), verwacht exact",
                found.confidence
            ));
        }
        if !exact && found.confidence >= 1.0 {
            return Err("exacte overeenkomst, verwacht vaag".into());
        }
        Ok(())
    }

    fn evaluate(&mut self, law: &str, outputs: Vec<String>) -> Result<(), String> {
        let date = self
            .date
            .ok_or("geen rekendatum (the calculation date is \"…\") vóór de evaluatie")?;
        let request = Request {
            law_id: law.to_string(),
            outputs: outputs.clone(),
            params: self.params.clone(),
            date,
        };
        let mut engine = Engine::new(self.corpus).untranslatable(self.mode);
        if !self.data.is_empty() {
            engine = engine.data(&self.data);
        }
        self.requested = outputs;
        // The parameters are checked against the law's declarations as `evalueer` checks
        // them (one typing rule for every command); a misfit fails the execution.
        let misfits = match self.corpus.select(law, date).map(|f| f.law()) {
            Ok(Ok(declared)) => crate::params::check_values(declared, &request.params),
            _ => Vec::new(),
        };
        self.result = Some(if misfits.is_empty() {
            engine.evaluate(&request)
        } else {
            let problems: Vec<String> = misfits.iter().map(ToString::to_string).collect();
            Err(EvalError::invalid(problems.join("; ")))
        });
        Ok(())
    }

    fn evaluation(&self) -> Result<&Evaluation, String> {
        match &self.result {
            Some(Ok(e)) => Ok(e),
            Some(Err(e)) => Err(format!("de evaluatie faalde: {e}")),
            None => Err("er is nog niets geëvalueerd".into()),
        }
    }

    fn failure(&self) -> Result<&EvalError, String> {
        match &self.result {
            Some(Err(e)) => Ok(e),
            Some(Ok(e)) => Err(format!(
                "de evaluatie slaagde ({}), verwacht een fout",
                e.outputs
                    .iter()
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            None => Err("er is nog niets geëvalueerd".into()),
        }
    }

    /// An output of the last evaluation (requested, co-produced or from a hook).
    fn output(&self, name: &str) -> Result<&Value, String> {
        let evaluation = self.evaluation()?;
        evaluation.all_outputs.get(name).ok_or_else(|| {
            format!(
                "uitvoer '{name}' ontbreekt; wel: {}",
                evaluation
                    .all_outputs
                    .keys()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    }

    /// The result's outputs: those requested plus those hooks added (causally entailed).
    fn result_outputs(&self) -> Result<BTreeSet<String>, String> {
        let evaluation = self.evaluation()?;
        let mut names: BTreeSet<String> = self.requested.iter().cloned().collect();
        names.extend(
            evaluation
                .provenance
                .iter()
                .filter(|(_, how)| **how == "hook")
                .map(|(k, _)| k.clone()),
        );
        Ok(names)
    }

    /// Reads an article table by its header (`number`, `text`), in any column order.
    fn note_articles(&mut self, table: &[Vec<String>]) -> Result<(), String> {
        let (header, rows) = table.split_first().ok_or("de tabel heeft geen kop")?;
        let column = |name: &str| {
            header
                .iter()
                .position(|h| h == name)
                .ok_or_else(|| format!("de artikeltabel mist de kolom '{name}'"))
        };
        let (number, text) = (column("number")?, column("text")?);
        self.note_articles = rows
            .iter()
            .map(|r| {
                (
                    r.get(number).cloned().unwrap_or_default(),
                    r.get(text).cloned().unwrap_or_default(),
                )
            })
            .collect();
        Ok(())
    }

    fn resolution(&self) -> Result<&Resolution, String> {
        self.resolution
            .as_ref()
            .ok_or_else(|| "de notitie is nog niet opgelost".to_string())
    }

    fn single_match(&self) -> Result<&notes::Match, String> {
        let r = self.resolution()?;
        r.single().ok_or_else(|| {
            format!(
                "notitie is {} ({} overeenkomsten), verwacht gevonden",
                r.status.as_str(),
                r.matches.len()
            )
        })
    }

    fn note_status(&self, expected: Status) -> Result<(), String> {
        let r = self.resolution()?;
        if r.status != expected {
            return Err(format!(
                "notitie is {}, verwacht {}",
                r.status.as_str(),
                expected.as_str()
            ));
        }
        Ok(())
    }
}
