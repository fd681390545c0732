//! The evaluator core: the state of one evaluation, selecting the law version in force,
//! executing an article at most once per parameters and stage (cache), lazily producing one
//! output of a law, and the resolution stack that detects cycles and bounds nesting.

use super::untranslatable::{Taint, UntranslatableMode};
use crate::data::DataSources;
use crate::error::{ErrorKind, EvalError};
use crate::law::{Article, Law};
use crate::load::{Corpus, LawFile, Selection};
use crate::trace::{TraceBuilder, TraceKind, TraceNode};
use crate::value::Value;
use chrono::NaiveDate;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use crate::trace::node;

/// Maximum nesting of cross-law, internal and open-term resolutions.
const MAX_NESTING: usize = 64;

/// An article that took part in producing a value, and how: `bron` (an input from another
/// law), `intern` (an input from another output of the same law), `open_norm` (the
/// implementation of an open term), `hook` (a hook before the actions). `via` names the input
/// or open term it gave.
#[derive(Debug, Clone, Copy)]
pub(super) struct Link<'c> {
    pub(super) law: &'c Law,
    pub(super) article: &'c Article,
    pub(super) how: &'static str,
    pub(super) via: Option<&'c str>,
}

impl Link<'_> {
    /// Whether two links cite the same article of the same law version.
    fn same_article(&self, other: &Link<'_>) -> bool {
        self.article.number == other.article.number
            && self.law.id == other.law.id
            && self.law.valid_from == other.law.valid_from
    }
}

/// Adds `link` and then `chain` (the articles behind it) to `links`, each article once.
pub(super) fn extend_chain<'c>(links: &mut Vec<Link<'c>>, link: Link<'c>, chain: &[Link<'c>]) {
    for l in std::iter::once(&link).chain(chain) {
        if !links.iter().any(|known| known.same_article(l)) {
            links.push(*l);
        }
    }
}

/// Where an output's value comes from: the law version and the article that produced it, how
/// (`direct`, `override` or `hook`), and every article behind that one (its chain). The version
/// is the one applied, so the legal basis cites exactly it.
#[derive(Debug, Clone)]
pub(super) struct Source<'c> {
    pub(super) law: &'c Law,
    pub(super) article: &'c Article,
    pub(super) how: &'static str,
    pub(super) chain: Rc<[Link<'c>]>,
}

/// Per output, where its value comes from.
pub(super) type Provenance<'c> = BTreeMap<String, Source<'c>>;

/// What executing one article yields.
#[derive(Debug, Clone)]
pub(super) struct ArticleResult<'c> {
    pub(super) outputs: BTreeMap<String, Value>,
    pub(super) resolved_inputs: BTreeMap<String, Value>,
    pub(super) provenance: Provenance<'c>,
    /// Outputs tainted as untranslatable (propagate mode), each with where the taint comes from.
    pub(super) tainted: BTreeMap<String, Taint>,
}

impl<'c> ArticleResult<'c> {
    /// `output`'s value, the link to the article that produced it (as `how`, giving `via`;
    /// an article that overrode the output or gave it through a hook keeps saying so) and the
    /// chain behind that article.
    pub(super) fn produced(
        &self,
        output: &str,
        how: &'static str,
        via: Option<&'c str>,
    ) -> Option<(Value, Link<'c>, Rc<[Link<'c>]>)> {
        let value = self.outputs.get(output)?.clone();
        let source = self.provenance.get(output)?;
        let link = Link {
            law: source.law,
            article: source.article,
            how: if source.how == "direct" {
                how
            } else {
                source.how
            },
            via,
        };
        Some((value, link, Rc::clone(&source.chain)))
    }
}

/// The state of one evaluation.
pub(super) struct Run<'c> {
    pub(super) corpus: &'c Corpus,
    pub(super) date: NaiveDate,
    /// `date` as `YYYY-MM-DD` (`$referencedate.iso`).
    pub(super) date_iso: String,
    /// The law being evaluated; only its overrides apply.
    pub(super) contextual_law: &'c str,
    /// The request's parameters: executions with them keep no copy in the cache.
    request_params: &'c BTreeMap<String, Value>,
    /// Keys of the resolutions under way, outermost first.
    stack: Vec<Key<'c>>,
    /// The articles executed so far (few per evaluation: a list beats hashing a key).
    cache: Vec<Executed<'c>>,
    pub(super) trace: RefCell<TraceBuilder>,
    /// Whether the trace is built (when off, only its root is).
    pub(super) tracing: bool,
    /// How untranslatable constructs are handled.
    pub(super) mode: UntranslatableMode,
    /// External data for inputs with `source: {}` not given as parameters.
    pub(super) data: Option<&'c DataSources>,
    /// `law#output` of every output tainted so far (propagate mode), with the taint's origin.
    pub(super) tainted: HashMap<String, Taint>,
    /// Warnings about untranslatable constructs that ran (warn mode), without repeats.
    pub(super) warnings: Vec<String>,
}

/// The article of `law` producing `output`.
pub(super) fn article_for_output<'l>(law: &'l Law, output: &str) -> Result<&'l Article, EvalError> {
    law.article_for_output(output)
        .ok_or_else(|| output_not_found(&law.id, output))
}

/// The error for an output `law` does not produce.
pub(super) fn output_not_found(law: &str, output: &str) -> EvalError {
    EvalError::new(ErrorKind::OutputNotFound {
        law: law.to_string(),
        output: output.to_string(),
    })
}

/// A resolution under way, on the stack that detects cycles; shown (in a cycle's path and an
/// error's context) as `law#output`, `hook:law#article`, `override:law#article` or
/// `open_term:law#article#term`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Key<'k> {
    /// An output of a law (cross-law or same-law input).
    Output { law: &'k str, output: &'k str },
    /// A hook article firing.
    Hook { law: &'k str, article: &'k str },
    /// An overriding article.
    Override { law: &'k str, article: &'k str },
    /// An open term of an article.
    OpenTerm {
        law: &'k str,
        article: &'k str,
        term: &'k str,
    },
}

impl std::fmt::Display for Key<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Key::Output { law, output } => write!(f, "{law}#{output}"),
            Key::Hook { law, article } => write!(f, "hook:{law}#{article}"),
            Key::Override { law, article } => write!(f, "override:{law}#{article}"),
            Key::OpenTerm { law, article, term } => {
                write!(f, "open_term:{law}#{article}#{term}")
            }
        }
    }
}

/// One article execution done in this evaluation: which version and article, at which stage,
/// with which parameters, and what it yielded.
struct Executed<'c> {
    file: &'c LawFile,
    article: &'c Article,
    stage: &'c str,
    params: Cow<'c, BTreeMap<String, Value>>,
    result: Rc<ArticleResult<'c>>,
}

impl Executed<'_> {
    /// Whether this is the execution of `article` of `file` at `stage` with `params` (the
    /// same law version and article number, compared by value).
    fn is(
        &self,
        file: &LawFile,
        article: &Article,
        stage: &str,
        params: &BTreeMap<String, Value>,
    ) -> bool {
        self.article.number == article.number
            && self.stage == stage
            && self.file.id == file.id
            && self.file.valid_from == file.valid_from
            && (std::ptr::eq(&*self.params, params) || *self.params == *params)
    }
}

impl<'c> Run<'c> {
    /// A fresh evaluation of `contextual_law` on `date`, tracing under `root`.
    pub(super) fn new(
        corpus: &'c Corpus,
        date: NaiveDate,
        contextual_law: &'c str,
        request_params: &'c BTreeMap<String, Value>,
        root: TraceNode,
    ) -> Run<'c> {
        Run {
            corpus,
            date,
            date_iso: crate::dates::iso_date(date),
            contextual_law,
            request_params,
            stack: Vec::new(),
            cache: Vec::new(),
            trace: RefCell::new(TraceBuilder::new(root)),
            tracing: true,
            mode: UntranslatableMode::default(),
            data: None,
            tainted: HashMap::new(),
            warnings: Vec::new(),
        }
    }

    /// Drops the record of executed articles (when nothing more will execute).
    pub(super) fn forget_executions(&mut self) {
        self.cache.clear();
    }

    /// The trace built so far.
    pub(super) fn into_trace(self) -> TraceBuilder {
        self.trace.into_inner()
    }

    /// Where the taint of `output` of `law` comes from, when it has been tainted as
    /// untranslatable in this evaluation.
    pub(super) fn taint_of(&self, law: &str, output: &str) -> Option<Taint> {
        if self.tainted.is_empty() {
            return None;
        }
        self.tainted.get(&format!("{law}#{output}")).cloned()
    }

    /// The version of `law_id` in force on the calculation date.
    pub(super) fn select(&self, law_id: &str) -> Result<&'c LawFile, EvalError> {
        self.corpus.select(law_id, self.date).map_err(|reason| {
            let date = crate::dates::iso_date(self.date);
            EvalError::new(match reason {
                Selection::NotFound => ErrorKind::LawNotFound {
                    law: law_id.to_string(),
                },
                Selection::NotYetInForce => ErrorKind::LawNotInForce {
                    law: law_id.to_string(),
                    date,
                },
                Selection::Ended(to) => ErrorKind::LawEnded {
                    law: law_id.to_string(),
                    date,
                    valid_to: to.to_string(),
                },
            })
        })
    }

    /// Whether the resolution `key` is under way (hooks and overrides do not re-enter).
    pub(super) fn is_resolving(&self, key: Key<'_>) -> bool {
        self.stack.contains(&key)
    }

    /// Runs `f` with `key` on the resolution stack; a key already on the stack is a cycle.
    pub(super) fn nested<T>(
        &mut self,
        key: Key<'c>,
        f: impl FnOnce(&mut Self) -> Result<T, EvalError>,
    ) -> Result<T, EvalError> {
        if let Some(pos) = self.stack.iter().position(|k| *k == key) {
            let mut path: Vec<String> = self.stack[pos..].iter().map(Key::to_string).collect();
            path.push(key.to_string());
            return Err(EvalError::new(ErrorKind::Cycle { path }));
        }
        if self.stack.len() >= MAX_NESTING {
            return Err(EvalError::invalid(format!(
                "verwijzingen zijn dieper genest dan {MAX_NESTING} niveaus"
            )));
        }
        self.stack.push(key);
        let result = f(self);
        self.stack.pop();
        result.map_err(|e| {
            let key = key.to_string();
            if e.context.first() == Some(&key) {
                e
            } else {
                e.within(key)
            }
        })
    }

    /// Executes one article as a whole, as the reference engine does; a repeated execution
    /// with the same parameters and stage reuses the first result.
    pub(super) fn execute(
        &mut self,
        file: &'c LawFile,
        law: &'c Law,
        article: &'c Article,
        params: &BTreeMap<String, Value>,
        stage: &'c str,
    ) -> Result<Rc<ArticleResult<'c>>, EvalError> {
        let hit = self
            .cache
            .iter()
            .find(|e| e.is(file, article, stage, params))
            .map(|e| Rc::clone(&e.result));
        if let Some(hit) = hit {
            self.leaf(|| node(TraceKind::Cached, &law.id, &law.id, Some(&article.number)));
            return Ok(hit);
        }
        let trace_node = || node(TraceKind::Article, &law.id, &law.id, Some(&article.number));
        let result = self.traced(
            trace_node,
            |run| run.execute_uncached(file, law, article, params, stage),
            |_| None,
        )?;
        for (output, taint) in &result.tainted {
            self.tainted
                .insert(format!("{}#{output}", law.id), taint.clone());
        }
        let result = Rc::new(result);
        self.cache.push(Executed {
            file,
            article,
            stage,
            params: if std::ptr::eq(params, self.request_params) {
                Cow::Borrowed(self.request_params)
            } else {
                Cow::Owned(params.clone())
            },
            result: Rc::clone(&result),
        });
        Ok(result)
    }

    /// Lazily evaluates `output` of `law`: executes the article producing it. Returns the
    /// value, the link to that article (`how`, giving `via`) and the chain behind it.
    pub(super) fn output_of(
        &mut self,
        file: &'c LawFile,
        law: &'c Law,
        output: &str,
        params: &BTreeMap<String, Value>,
        how: &'static str,
        via: Option<&'c str>,
    ) -> Result<(Value, Link<'c>, Rc<[Link<'c>]>), EvalError> {
        let article = article_for_output(law, output)?;
        let result = self.execute(file, law, article, params, "BESLUIT")?;
        result
            .produced(output, how, via)
            .ok_or_else(|| output_not_found(&law.id, output))
    }
}
