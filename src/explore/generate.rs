//! Making input `index` of a suite: a seed chosen and mutated one to six
//! times, every draw from the input's own [`Chooser`] stream, so the same
//! seed and index give the same input on any machine, in any order, with
//! any number of workers.
//!
//! By default an input is kept only when it is a valid case: the suite's
//! reference decodes it, and the document assembled from it and that
//! output satisfies the suite's schema and split rules (so any divergence
//! can become a fixture). A draw that is not valid is replaced by the next
//! draw of the same stream, a few times; `--any-json` keeps every draw.
//!
//! Every input is labelled in contract or robustness by the suite's wire
//! schema ([`crate::suite_api::wire`]); with `--in-contract` a robustness
//! draw is dropped before it is sent (and counted) and the next draw tried.

use super::mutations::{Context, mutate_once};
use super::seeds::{Seed, SeedPool};
use crate::suite_api::{Chooser, Contract, ReferenceFailure, RuleTrace, Suite, call_reference};
use serde_json::Value;

/// Draws tried before an input index is given up as rejected.
pub const MAX_DRAWS: u32 = 12;

/// Most mutations stacked on one seed.
pub const MAX_MUTATIONS: usize = 6;

/// How one suite's inputs are made.
#[derive(Clone, Copy, Debug)]
pub struct Generator<'a> {
    /// The seeds and pooled values.
    pub pool: &'a SeedPool,
    /// The run's seed.
    pub seed: u64,
    /// Keep inputs that are not valid cases.
    pub any_json: bool,
    /// Drop inputs outside the suite's wire contract (`--in-contract`).
    pub in_contract: bool,
}

/// A generated input.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Its index among the suite's inputs.
    pub index: u64,
    /// The seed fixture it was made from (index into the pool's seeds).
    pub seed: usize,
    /// The input part.
    pub input: Value,
    /// The mutations applied, in order, one line each.
    pub path: Vec<String>,
    /// What the reference made of it (`None` when the suite has no
    /// reference for the seed's version).
    pub reference: Option<Result<Value, ReferenceFailure>>,
    /// Whether a real hub can send it (the suite's wire schema).
    pub contract: Contract,
}

/// What input `index` turned out to be.
#[derive(Clone, Debug)]
pub enum Generated {
    /// An input to judge.
    Input(Candidate),
    /// No valid input within [`MAX_DRAWS`] draws.
    Rejected,
}

impl Generator<'_> {
    /// The suite.
    pub fn suite(&self) -> &'static dyn Suite {
        self.pool.suite
    }

    /// Makes input `index` (see the module docs).
    pub fn generate(&self, index: u64) -> Generated {
        self.generate_counting(index).0
    }

    /// Makes input `index`, and says how many of its draws were dropped for
    /// being outside the wire contract (under `--in-contract`).
    pub fn generate_counting(&self, index: u64) -> (Generated, u32) {
        let mut dropped = 0;
        let suite = self.pool.suite;
        let profile = suite.mutation_profile();
        let list = suite.item_list();
        let context = Context { pool: self.pool, profile, list };
        let mut chooser = Chooser::for_input(self.seed, suite.name(), index);
        for _ in 0..MAX_DRAWS {
            let Some(seed_index) = Some(chooser.below(self.pool.seeds.len())).filter(|_| !self.pool.is_empty()) else {
                return (Generated::Rejected, dropped);
            };
            let seed = &self.pool.seeds[seed_index];
            let mut input = seed.input.clone();
            let mut path = Vec::new();
            let wanted = 1 + (0..MAX_MUTATIONS - 1).take_while(|_| chooser.chance(1, 2)).count();
            for _ in 0..wanted {
                if let Some(what) = mutate_once(&mut input, &context, &mut chooser) {
                    path.push(what);
                }
            }
            if path.is_empty() {
                continue;
            }
            // What both sides get: the input as a JavaScript hub would send it.
            crate::json::canonicalize(&mut input);
            let Some(reference) = run_reference(suite, seed.version, &input) else { continue };
            let valid = self.any_json
                || match &reference {
                    Some(Ok(expected)) => is_valid_case(suite, seed, &input, expected),
                    _ => false,
                };
            if !valid {
                continue;
            }
            let contract = crate::schema::input_contract(suite, seed.version, &input);
            if self.in_contract && contract.is_robustness() {
                dropped += 1;
                continue;
            }
            return (
                Generated::Input(Candidate { index, seed: seed_index, input, path, reference, contract }),
                dropped,
            );
        }
        (Generated::Rejected, dropped)
    }
}

/// Watches a reference run for the rules no fixture can pin.
struct Unpinnable {
    rules: &'static [&'static str],
    reached: bool,
}

impl RuleTrace for Unpinnable {
    fn hit(&mut self, rule: &'static str) {
        self.reached |= self.rules.contains(&rule);
    }
}

/// What the reference of `version` makes of `input` (`Some(None)` when it
/// does not implement the version), or `None` when the run reaches one of
/// the suite's [unpinnable rules](crate::suite_api::MutationProfile::unpinnable_rules):
/// such an input cannot be judged.
pub(crate) fn run_reference(
    suite: &dyn Suite,
    version: u32,
    input: &Value,
) -> Option<Option<Result<Value, ReferenceFailure>>> {
    let Some(reference) = suite.reference_for(version) else { return Some(None) };
    let mut watch = Unpinnable { rules: suite.mutation_profile().unpinnable_rules, reached: false };
    let output = call_reference(reference, input, &mut watch);
    (!watch.reached).then_some(Some(output))
}

/// Whether `input` may stand as a case of `seed`'s suite and version: the
/// reference decodes it into a valid fixture, reaching no unpinnable rule;
/// under `--any-json` only the unpinnable rules count.
pub(crate) fn is_acceptable(suite: &dyn Suite, seed: &Seed, input: &Value, any_json: bool) -> bool {
    match run_reference(suite, seed.version, input) {
        None => false,
        Some(_) if any_json => true,
        Some(Some(Ok(expected))) => is_valid_case(suite, seed, input, &expected),
        Some(_) => false,
    }
}

/// The fixture document of `input` with expectation `expected`, assembled
/// from a seed's document.
pub fn assemble(suite: &dyn Suite, document: &Value, input: &Value, expected: &Value) -> Result<Value, String> {
    let document = suite.with_input(document, input)?;
    suite.with_expected(&document, expected)
}

/// Whether `input` with the reference's `expected` makes a valid fixture.
pub(crate) fn is_valid_case(suite: &dyn Suite, seed: &Seed, input: &Value, expected: &Value) -> bool {
    let Ok(document) = assemble(suite, &seed.document, input, expected) else { return false };
    crate::schema::is_schema_valid(suite, seed.version, &document) && suite.split(&document).is_ok()
}
