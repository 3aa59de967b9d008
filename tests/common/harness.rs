//! The test harness of the integration test crates (libtest-mimic, like the
//! `fixtures` target): every test function of a module is one trial named
//! `module::function`, listed by the module's [`trials!`](crate::trials)
//! line (a function left out of it is dead code, which the lints refuse).
//!
//! Why not libtest's own harness: a test that needs something this machine
//! lacks (../shared, python3, node, a JDK, chromium, a Python or npm
//! package) must show as an *ignored* trial with its reason, never as a
//! pass, and libtest decides ignoring only at compile time. Here the test
//! asks for what it needs ([`crate::common::python`] and the like); when
//! that is missing, the ask records the reason ([`record_skip`]) and the
//! test returns, and the trial is reported `ignored, <reason>`. Under
//! `CONFORM_REQUIRE_ALL=1` the ask fails the test instead.

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use std::cell::RefCell;
use std::fmt::Debug;

thread_local! {
    /// What the running trial skipped for want of a resource; `None` outside
    /// a trial.
    static SKIPPED: RefCell<Option<Vec<String>>> = const { RefCell::new(None) };
}

/// Notes that the running trial skips what needs `missing`: the trial ends
/// `ignored` with the reason. Outside a trial (a harness listing its
/// trials, say) the line goes to stderr, so that it is never lost.
pub fn record_skip(missing: &str) {
    let in_trial = SKIPPED.with(|skipped| match skipped.borrow_mut().as_mut() {
        Some(list) => {
            list.push(missing.to_owned());
            true
        }
        None => false,
    });
    if !in_trial {
        let _ = std::io::Write::write_all(&mut std::io::stderr(), format!("note: {missing}: skipped\n").as_bytes());
    }
}

/// What a test function may return: nothing, or a `Result` whose error
/// fails the trial.
pub trait TestOutcome {
    /// `Ok` for a pass, the failure otherwise.
    fn into_failed(self) -> Result<(), Failed>;
}

impl TestOutcome for () {
    fn into_failed(self) -> Result<(), Failed> {
        Ok(())
    }
}

impl<E: Debug> TestOutcome for Result<(), E> {
    fn into_failed(self) -> Result<(), Failed> {
        self.map_err(|err| Failed::from(format!("{err:?}")))
    }
}

/// The trial of one test function. `module` is its `module_path!()`.
pub fn trial<T: TestOutcome + 'static>(module: &str, function: &str, test: fn() -> T) -> Trial {
    // `cli::cli_core` → `cli_core::function`: the crate name is the target's.
    let module = module.split_once("::").map_or(module, |(_, rest)| rest);
    Trial::ignorable_test(format!("{module}::{function}"), move || {
        SKIPPED.with(|skipped| *skipped.borrow_mut() = Some(Vec::new()));
        let outcome = test().into_failed();
        let skipped = SKIPPED.with(|skipped| skipped.borrow_mut().take()).unwrap_or_default();
        outcome?;
        Ok(if skipped.is_empty() { Completion::Completed } else { Completion::ignored_with(skipped.join("; ")) })
    })
}

/// Lists a module's test functions as its `trials()` (see the module docs).
#[macro_export]
macro_rules! trials {
    ($($test:ident),* $(,)?) => {
        /// This module's trials, in source order.
        pub(crate) fn trials() -> Vec<libtest_mimic::Trial> {
            vec![$($crate::common::harness::trial(module_path!(), stringify!($test), $test)),*]
        }
    };
}

/// Runs the trials of every module given (a test crate's `main`).
pub fn run(modules: &[fn() -> Vec<Trial>]) -> ! {
    let arguments = Arguments::from_args();
    let trials: Vec<Trial> = modules.iter().flat_map(|module| module()).collect();
    libtest_mimic::run(&arguments, trials).exit()
}
