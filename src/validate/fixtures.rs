//! `conform validate`'s check of a fixture tree: every selected fixture
//! read and checked on every core, one at a time, each document dropped once
//! checked; only what is to be told is kept.

use crate::fixture::{FixturePlan, FixtureStatus, LoadedFixture, Notice, NoticeLevel};

/// What validating a selection found.
#[derive(Clone, Debug, Default)]
pub struct Validation {
    /// The plan's notices and each fixture's, in discovery order (they come
    /// before the fixtures' own problems when told).
    pub notices: Vec<Notice>,
    /// Each problem of an invalid fixture, one line each, located.
    pub problems: Vec<String>,
    /// Fixtures that are not valid.
    pub invalid: usize,
    /// Fixtures checked.
    pub total: usize,
}

impl Validation {
    /// Fixtures that are valid.
    pub fn valid(&self) -> usize {
        self.total - self.invalid
    }

    /// Notices that fail a validation: validation judges form as well as
    /// content, so warnings that `run` tolerates (a byte order mark, CRLF
    /// line endings) count here.
    pub fn failing_notices(&self) -> impl Iterator<Item = &Notice> {
        self.notices.iter().filter(|notice| notice.level != NoticeLevel::Note)
    }

    /// Whether everything is valid and no notice fails the validation.
    pub fn passed(&self) -> bool {
        self.invalid == 0 && self.failing_notices().next().is_none()
    }

    /// `497 of 499 fixtures valid`.
    pub fn summary_line(&self) -> String {
        format!("{} of {} fixtures valid", self.valid(), self.total)
    }
}

/// Validates the fixtures of `plan` at `indexes` (see the module docs).
pub fn validate_fixtures(plan: &FixturePlan, indexes: &[usize]) -> Validation {
    let mut validation = Validation { notices: plan.notices.clone(), total: indexes.len(), ..Validation::default() };
    // Each worker turns its fixture into its problems and drops the
    // document itself (see `FixturePlan::load_each_as`).
    plan.load_each_as(
        indexes,
        0,
        false,
        |fixture, notices| (problems(&fixture), notices),
        |_, (problems, mut found)| {
            validation.notices.append(&mut found);
            if let Some(mut problems) = problems {
                validation.invalid += 1;
                validation.problems.append(&mut problems);
            }
        },
    );
    validation
}

/// The problems of a fixture that is not valid, one line each; `None` when
/// it is valid.
fn problems(fixture: &LoadedFixture) -> Option<Vec<String>> {
    match &fixture.status {
        FixtureStatus::Ready(_) => None,
        FixtureStatus::Invalid(errors) => Some(errors.iter().map(ToString::to_string).collect()),
        FixtureStatus::UnsupportedVersion { found, readable } => Some(vec![format!(
            "{}: fixtureVersion {found} cannot be validated: {} supports {:?}",
            fixture.path.display(),
            fixture.suite.name(),
            readable
        )]),
    }
}
