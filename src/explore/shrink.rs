//! After the exploration: each cluster's smallest example shrunk with the
//! reducer (`conform reduce`'s delta debugging), run once more on both sides
//! for the report's diff, and made into a pending fixture whose expected
//! part is the reference's output.
//!
//! The reducer keeps a candidate while "the same failure" shows. Here that
//! means: the candidate is a valid case (unless `--any-json`) and judging
//! both sides on it still gives the cluster's key. [`ClusterProbe`] is the
//! reducer's [`FailureCheck`]: a candidate fails (one constant failure)
//! exactly when it shows the key, so an example showing two causes is
//! reduced to the one its cluster is about. The example of an in-contract
//! cluster stays in the suite's wire contract while it is reduced, so the
//! reduced example is one a real hub can send.

use super::engine::{Example, FoundCluster, Party, input_name};
use super::generate::{assemble, is_acceptable};
use super::judge::{ClusterKey, JudgedCase, Judgement, judge_case};
use super::seeds::{Seed, SeedPool};
use crate::compare::{DIFF_CONTEXT, DiffHunk, Difference, differences, text_diff};
use crate::implementation::{CaseRequest, Outcome};
use crate::reduce::{Failure, FailureCheck, Oracle, ReduceRequest, reduce_with};
use crate::report::Verdict;
use crate::suite_api::{Contract, NoTrace, RuleTrace, call_reference};
use crate::workers::{spawn_workers, worker_count};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// How clusters are shrunk and where their fixtures would go.
#[derive(Clone, Copy, Debug)]
pub struct ShrinkOptions<'a> {
    /// The run's seed (named in fixture descriptions).
    pub seed: u64,
    /// At most this many probes (each runs both sides once) per cluster.
    pub max_tests: usize,
    /// Parallel reductions (0 = one per core).
    pub jobs: usize,
    /// Pending fixtures go to `<folder>/<suite>/<slug>.json`(`.new`).
    pub pending_dir: &'a Path,
    /// Whether inputs that are not valid cases count (`--any-json`); when
    /// not, the reducer only keeps candidates that are valid cases.
    pub any_json: bool,
    /// Set from another thread (Ctrl-C) to stop reducing.
    pub cancel: Option<&'a AtomicBool>,
}

/// Both sides on inputs of one cluster's suite and seed.
#[derive(Clone, Copy)]
struct Sides<'a> {
    subject: Party<'a>,
    against: Party<'a>,
    pool: &'a SeedPool,
    seed: &'a Seed,
    fixture: &'a str,
    any_json: bool,
    /// Keep only candidates in the suite's wire contract.
    in_contract: bool,
}

impl Sides<'_> {
    fn run(&self, party: Party<'_>, input: &Value) -> Outcome {
        let suite = self.pool.suite;
        match party {
            Party::Reference => match suite.reference_for(self.seed.version) {
                Some(reference) => match call_reference(reference, input, &mut NoTrace) {
                    Ok(output) => Outcome::Output(output),
                    Err(failure) => Outcome::Error(failure.to_string()),
                },
                None => Outcome::Unsupported("no reference for this fixtureVersion".to_owned()),
            },
            Party::Implementation(implementation) => {
                let request = CaseRequest {
                    suite: suite.name(),
                    fixture: self.fixture,
                    fixture_version: self.seed.version,
                    input,
                };
                implementation.run_case(&request).outcome
            }
        }
    }

    /// Both outcomes on `input` (subject, against) and their judgement.
    fn judged(&self, input: &Value) -> (Outcome, Outcome, Judgement) {
        let subject = self.run(self.subject, input);
        let against = self.run(self.against, input);
        let case = JudgedCase { suite: self.pool.suite, version: self.seed.version, input };
        let judgement = judge_case(case, &subject, &against);
        (subject, against, judgement)
    }

    /// Whether `input` may stand as a case (see [`is_acceptable`]) and, for
    /// an in-contract cluster, is in the wire contract.
    fn acceptable(&self, input: &Value) -> bool {
        is_acceptable(self.pool.suite, self.seed, input, self.any_json)
            && (!self.in_contract || !self.contract(input).is_robustness())
    }

    fn contract(&self, input: &Value) -> Contract {
        crate::schema::input_contract(self.pool.suite, self.seed.version, input)
    }

    /// Whether `input` is acceptable and still shows `key`.
    fn shows(&self, input: &Value, key: &ClusterKey) -> bool {
        self.acceptable(input) && self.judged(input).2.shows(key)
    }
}

/// What the reducer asks: does a candidate show the cluster's key? (See the
/// module docs.)
struct ClusterProbe<'a> {
    sides: Sides<'a>,
    key: &'a ClusterKey,
}

/// The constant expectation of a reduction by a [`ClusterProbe`] (its
/// candidates are judged by the key, not by an expectation).
fn no_expectation(_input: &Value, _trace: &mut dyn RuleTrace) -> Result<Value, String> {
    Ok(Value::Null)
}

impl FailureCheck for ClusterProbe<'_> {
    fn failure(&self, input: &Value, _target: Option<&Failure>) -> Result<Option<Failure>, String> {
        // The cluster's key stands as one failure, whatever the key is.
        Ok(self.sides.shows(input, self.key).then(|| Failure::verdict(Verdict::Error)))
    }
}

/// A cluster after shrinking.
#[derive(Clone, Debug)]
pub struct ShrunkCluster {
    /// The cluster as found.
    pub found: FoundCluster,
    /// File-name-safe, stable name of the cluster.
    pub slug: String,
    /// The example's input, reduced (or as found when reduction failed).
    pub input: Value,
    /// Whether a real hub can send the reduced input.
    pub contract: Contract,
    /// The item list reduced, its length before and after.
    pub items: Option<(String, usize, usize)>,
    /// Compact bytes before and after.
    pub bytes: (usize, usize),
    /// Implementation runs the reduction spent.
    pub tests: usize,
    /// Why the example is not (fully) reduced, when it is not.
    pub reduction_note: Option<String>,
    /// What the implementation under test made of the reduced input.
    pub subject: Outcome,
    /// What the other side made of it.
    pub against: Outcome,
    /// Differences of the subject's output from the other side's.
    pub differences: Vec<Difference>,
    /// Line diff of the two canonical outputs.
    pub diff: Vec<DiffHunk>,
    /// The pending fixture: where it goes and its canonical text.
    pub fixture: Result<(PathBuf, String), String>,
}

/// The stable slug of a cluster: `explore-<words of its label>-<hash>`.
pub fn slug(suite: &str, label: &str) -> String {
    let mut words = String::new();
    for c in label.chars() {
        if c.is_ascii_alphanumeric() {
            words.push(c.to_ascii_lowercase());
        } else if !words.ends_with('-') && !words.is_empty() {
            words.push('-');
        }
        if words.len() >= 48 {
            break;
        }
    }
    let words = words.trim_end_matches('-');
    let hash = crate::run::fnv1a_64(format!("{suite}\n{label}").as_bytes());
    let hash = format!("{:08x}", hash & 0xFFFF_FFFF);
    if words.is_empty() { format!("explore-{hash}") } else { format!("explore-{words}-{hash}") }
}

/// Shrinks every cluster (in parallel), in cluster order.
pub fn shrink_all(
    pools: &[SeedPool],
    clusters: Vec<FoundCluster>,
    subject: Party<'_>,
    against: Party<'_>,
    options: &ShrinkOptions<'_>,
) -> Vec<ShrunkCluster> {
    let jobs = worker_count(options.jobs, clusters.len());
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<ShrunkCluster>>> = Mutex::new(vec![None; clusters.len()]);
    let work = || {
        loop {
            let slot = next.fetch_add(1, Ordering::SeqCst);
            let Some(cluster) = clusters.get(slot) else { break };
            let shrunk = shrink(pools, cluster.clone(), subject, against, options);
            results.lock().unwrap_or_else(|poisoned| poisoned.into_inner())[slot] = Some(shrunk);
        }
    };
    std::thread::scope(|scope| {
        if spawn_workers(scope, "conform-shrink", jobs, |_| work()) == 0 {
            work();
        }
    });
    results.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()).into_iter().flatten().collect()
}

fn shrink(
    pools: &[SeedPool],
    found: FoundCluster,
    subject: Party<'_>,
    against: Party<'_>,
    options: &ShrinkOptions<'_>,
) -> ShrunkCluster {
    let pool = &pools[found.pool];
    let suite = pool.suite;
    let seed = &pool.seeds[found.smallest.seed];
    let label = found.key.label();
    let slug = slug(suite.name(), &label);
    let example = &found.smallest;
    let fixture_name = input_name(example.index);
    let in_contract = !found.contract().is_robustness() && !example.contract.is_robustness();
    let sides = Sides { subject, against, pool, seed, fixture: &fixture_name, any_json: options.any_json, in_contract };
    let ReducedExample { input, items, tests, note: reduction_note } = reduce_example(&sides, &found, &slug, options);
    let (subject_outcome, against_outcome, _) = sides.judged(&input);
    let (differences, diff) = match (&subject_outcome, &against_outcome) {
        (Outcome::Output(actual), Outcome::Output(expected)) => (
            differences(expected, actual).0,
            text_diff(
                &crate::json::to_canonical_string(expected),
                &crate::json::to_canonical_string(actual),
                DIFF_CONTEXT,
            ),
        ),
        _ => (Vec::new(), Vec::new()),
    };
    let fixture = pending_fixture(pool, &found, example, &slug, &label, &input, items.as_ref(), options).and_then(
        |(target, text)| {
            // The fixture holds the input as canonical JSON, which cannot
            // say everything an input can (`-0` is written `0`): keep it
            // only when its own input still shows the divergence.
            let document = crate::json::parse_value(&text).map_err(|err| err.to_string())?;
            let parts = suite.split(&document)?;
            if sides.judged(&parts.input).2.shows(&found.key) {
                Ok((target, text))
            } else {
                Err("the fixture's canonical JSON does not carry this divergence (it writes -0 as 0, 1.0 as 1 and \
                     numbers as JavaScript does), so no fixture can pin it"
                    .to_owned())
            }
        },
    );
    let bytes = (example.size, crate::json::to_compact_string(&input).len());
    let contract = sides.contract(&input);
    ShrunkCluster {
        found,
        slug,
        input,
        contract,
        items,
        bytes,
        tests,
        reduction_note,
        subject: subject_outcome,
        against: against_outcome,
        differences,
        diff,
        fixture,
    }
}

/// A cluster's example after reduction.
struct ReducedExample {
    /// The reduced input (the example's own when it could not be reduced).
    input: Value,
    /// The item list, its length before and after.
    items: Option<(String, usize, usize)>,
    /// Probes spent.
    tests: usize,
    /// Why it is not (fully) reduced, when it is not.
    note: Option<String>,
}

/// Reduces a cluster's example (see the module docs).
fn reduce_example(sides: &Sides<'_>, found: &FoundCluster, slug: &str, options: &ShrinkOptions<'_>) -> ReducedExample {
    let suite = sides.pool.suite;
    let example = &found.smallest;
    let mut tests = 0;
    // Top-level members besides the item list are often optional, and one
    // that indexes the items (event-fold's `replayOrder`) keeps the reducer
    // from dropping any: try the example without each first.
    let mut start = example.input.clone();
    let members: Vec<String> = start.as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default();
    for key in members.into_iter().filter(|key| Some(key.as_str()) != suite.item_list()) {
        let mut candidate = start.clone();
        if let Some(object) = candidate.as_object_mut() {
            object.shift_remove(&key);
        }
        tests += 1;
        if sides.shows(&candidate, &found.key) {
            start = candidate;
        }
    }
    let probe = ClusterProbe { sides: *sides, key: &found.key };
    let request = ReduceRequest {
        suite,
        fixture: slug,
        fixture_version: sides.seed.version,
        input: &start,
        oracle: Oracle::Reference(no_expectation),
        max_tests: options.max_tests.saturating_sub(tests),
        cancel: options.cancel,
        // The probe checks validity itself, with the reference's output as
        // the expectation (the reducer's is the constant).
        document: None,
    };
    let before = crate::reduce::list_key(suite, &example.input)
        .and_then(|key| Some((key.clone(), example.input.get(key.as_str())?.as_array()?.len())));
    let items_of = |input: &Value| {
        before.as_ref().map(|(key, before)| {
            (key.clone(), *before, input.get(key.as_str()).and_then(Value::as_array).map_or(0, Vec::len))
        })
    };
    match reduce_with(&request, &probe) {
        Ok(reduction) => {
            tests += reduction.tests;
            let note = reduction
                .budget_exhausted
                .then(|| format!("the reduction stopped after {tests} probes: smaller, not minimal"));
            ReducedExample { items: items_of(&reduction.input), input: reduction.input, tests, note }
        }
        Err(err) => {
            // The example no longer shows the key on a second run: the
            // implementation is not deterministic on it.
            let note = format!("not reduced: {err} (the divergence did not show again on this input)");
            ReducedExample { input: example.input.clone(), items: items_of(&example.input), tests, note: Some(note) }
        }
    }
}

/// The pending fixture of a cluster: the seed's document with the reduced
/// input, the reference's output as its expected part, the slug as its name,
/// and a description naming the signature, the seed and the mutation path.
#[allow(clippy::too_many_arguments)]
fn pending_fixture(
    pool: &SeedPool,
    found: &FoundCluster,
    example: &Example,
    slug: &str,
    label: &str,
    input: &Value,
    items: Option<&(String, usize, usize)>,
    options: &ShrinkOptions<'_>,
) -> Result<(PathBuf, String), String> {
    let suite = pool.suite;
    let seed = &pool.seeds[example.seed];
    let reference = suite.reference_for(seed.version).ok_or_else(|| {
        format!("the conform reference does not implement {} fixtureVersion {}", suite.name(), seed.version)
    })?;
    let expected = call_reference(reference, input, &mut NoTrace)
        .map_err(|failure| format!("the conform reference gives no output for the reduced input: {failure}"))?;
    let reduced = match items {
        Some((list, before, after)) => format!(", reduced from {before} to {after} {list}"),
        None => String::new(),
    };
    let description = format!(
        "Found by conform explore: {label} (in {} generated inputs). Seed {}, input {}#{} from {}, mutations: \
         {}{reduced}. Expected part: the conform reference's output.",
        found.count,
        options.seed,
        suite.name(),
        example.index,
        seed.id,
        example.path.join("; "),
    );
    let mut document = seed.document.as_object().cloned().ok_or("the seed document is not an object")?;
    if suite.has_envelope() {
        document.insert("name".to_owned(), Value::from(slug));
        document.insert("description".to_owned(), Value::from(description));
    }
    let document = assemble(suite, &Value::Object(document), input, &expected)?;
    let text = crate::json::to_canonical_string(&document);
    let target = options.pending_dir.join(suite.name()).join(format!("{slug}.json"));
    let problems = crate::schema::schema_errors(suite, seed.version, &document, &text, &target);
    if let Some(problem) = problems.first() {
        return Err(format!("the reduced input is not a valid fixture: {problem}"));
    }
    suite.split(&document).map_err(|problem| format!("the reduced input is not a valid fixture: {problem}"))?;
    Ok((target, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_stable_file_names() {
        let a = slug("chat", "/blocks/*/tool/state value-changed, /visibleBlocks/*/tool/state value-changed");
        assert!(a.starts_with("explore-blocks-tool-state-value-changed-visibleblocks"), "{a}");
        assert_eq!(a, slug("chat", "/blocks/*/tool/state value-changed, /visibleBlocks/*/tool/state value-changed"));
        assert_ne!(a, slug("sse", "/blocks/*/tool/state value-changed, /visibleBlocks/*/tool/state value-changed"));
        let crash = slug("chat", "crash: the implementation ended (signal N)");
        assert!(crash.starts_with("explore-crash-the-implementation-ended-signal-n-"), "{crash}");
        assert!(slug("chat", "(root) …").starts_with("explore-root-"));
        let pattern = regex::Regex::new("^[A-Za-z0-9][A-Za-z0-9._-]*$").unwrap_or_else(|e| panic!("{e}"));
        assert!(pattern.is_match(&a) && pattern.is_match(&crash));
    }
}
