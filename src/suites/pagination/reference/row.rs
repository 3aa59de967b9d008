//! Rows of the message window, their derived predicates and display order.
//!
//! A row is one `DecryptedMessage` held by the store. Only the members the
//! store reads or projects are kept; the facts it derives from `content`
//! (user row, renderable, reasoning stream, agent-run row) never change, so
//! they are computed once when the row enters the store.

use crate::json::cmp_utf16;
use crate::suite_api::RuleTrace;
use crate::suites::js::{is_blank, locale_compare, sort_by, truthy};
use serde_json::{Number, Value};
use std::cmp::Ordering;

/// The wire tri-state of `invokedAt`.
#[derive(Clone, Debug, PartialEq)]
pub enum InvokedAt {
    /// The member is absent: treated as already consumed (rows from old hubs).
    Absent,
    /// Explicitly `null`: not consumed yet; only this makes a row queued.
    Null,
    /// Consumed at this time.
    At(Number),
}

impl InvokedAt {
    /// The invocation time, when there is one.
    pub fn time(&self) -> Option<&Number> {
        match self {
            InvokedAt::At(time) => Some(time),
            InvokedAt::Absent | InvokedAt::Null => None,
        }
    }
}

/// A compound paging position `(at, seq)`; also the shape of a cursor.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    /// `invokedAt` when it is a number, else `createdAt`.
    pub at: Number,
    /// The per-session insert counter.
    pub seq: Number,
}

impl Position {
    /// Builds a position from a pair of nullable numbers: both must be numbers.
    pub fn from_pair(at: &Value, seq: &Value) -> Option<Position> {
        match (at, seq) {
            (Value::Number(at), Value::Number(seq)) => Some(Position { at: at.clone(), seq: seq.clone() }),
            _ => None,
        }
    }

    /// Lexicographic order: `at`, then `seq`, both numerically.
    pub fn compare(&self, other: &Position) -> Ordering {
        cmp_numbers(&self.at, &other.at).then_with(|| cmp_numbers(&self.seq, &other.seq))
    }

    /// `{at, seq}` as projected and compared in fixtures.
    pub fn to_json(&self) -> Value {
        serde_json::json!({"at": self.at, "seq": self.seq})
    }
}

/// Numeric order of two JSON numbers (JavaScript `<` on finite numbers).
pub fn cmp_numbers(a: &Number, b: &Number) -> Ordering {
    cmp_f64(number_value(a), number_value(b))
}

/// A JSON number as JavaScript sees it.
pub fn number_value(number: &Number) -> f64 {
    number.as_f64().unwrap_or(f64::NAN)
}

fn cmp_f64(a: f64, b: f64) -> Ordering {
    a.partial_cmp(&b).unwrap_or(Ordering::Equal)
}

/// The greater of two optional positions (whichever exists).
pub fn max_position(a: Option<Position>, b: Option<Position>) -> Option<Position> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if b.compare(&a) == Ordering::Greater { b } else { a }),
        (a, b) => a.or(b),
    }
}

/// The newest position among rows that have one.
pub fn newest_position(rows: &[Row]) -> Option<Position> {
    rows.iter().filter_map(Row::position).fold(None, |newest, position| max_position(newest, Some(position)))
}

/// The oldest position among rows that have one.
pub fn oldest_position(rows: &[Row]) -> Option<Position> {
    rows.iter().filter_map(Row::position).fold(None, |oldest, position| match oldest {
        Some(oldest) if position.compare(&oldest) != Ordering::Less => Some(oldest),
        _ => Some(position),
    })
}

/// What the store derives from a row's `content` (fixed for the row's life).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContentFacts {
    /// `content.role` is `"user"` (raw content, no unwrapping).
    pub user: bool,
    /// The chat pipeline's first stage produces something for the row.
    pub renderable: bool,
    /// A codex `agent-run-*` row (its own trim budget).
    pub agent_run: bool,
}

/// One row of the window.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Server id (an optimistic row uses its `localId`).
    pub id: String,
    /// Insert counter; `None` for `null` or absent (optimistic rows).
    pub seq: Option<Number>,
    /// Client id used to reconcile echoes; `None` for `null` or absent.
    pub local_id: Option<String>,
    /// Creation time.
    pub created_at: Number,
    /// Invocation time, tri-state.
    pub invoked_at: InvokedAt,
    /// `scheduledAt` exactly as received, when the member is present.
    pub scheduled_at: Option<Value>,
    /// Client-side send state (`queued`, `sending`, `sent`, `failed`).
    pub status: Option<String>,
    /// The row was steered into a running turn (carried, never projected).
    pub steered: bool,
    /// Reasoning stream id, untrimmed (section 3.6 of the specification).
    pub stream: Option<String>,
    /// Facts derived from `content`.
    pub facts: ContentFacts,
}

impl Row {
    /// Reads a wire row. `renders` answers whether the chat pipeline's first
    /// stage produces something for the whole row.
    pub fn from_wire(value: &Value, renders: impl Fn(&Value) -> bool) -> Result<Row, String> {
        let object = value.as_object().ok_or("a message must be a JSON object")?;
        let id = object.get("id").and_then(Value::as_str).ok_or("a message needs a string `id`")?.to_owned();
        let nullable_number = |key: &str| match object.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(number)) => Ok(Some(number.clone())),
            Some(_) => Err(format!("message `{id}`: `{key}` must be a number or null")),
        };
        let seq = nullable_number("seq")?;
        let created_at = match object.get("createdAt") {
            Some(Value::Number(number)) => number.clone(),
            _ => return Err(format!("message `{id}`: `createdAt` must be a number")),
        };
        let invoked_at = match object.get("invokedAt") {
            None => InvokedAt::Absent,
            Some(Value::Null) => InvokedAt::Null,
            Some(Value::Number(number)) => InvokedAt::At(number.clone()),
            Some(_) => return Err(format!("message `{id}`: `invokedAt` must be a number or null")),
        };
        let local_id = match object.get("localId") {
            None | Some(Value::Null) => None,
            Some(Value::String(local_id)) => Some(local_id.clone()),
            Some(_) => return Err(format!("message `{id}`: `localId` must be a string or null")),
        };
        let status = match object.get("status") {
            None => None,
            Some(Value::String(status)) => Some(status.clone()),
            Some(_) => return Err(format!("message `{id}`: `status` must be a string")),
        };
        let content = object.get("content").unwrap_or(&Value::Null);
        Ok(Row {
            id,
            seq,
            local_id,
            created_at,
            invoked_at,
            scheduled_at: object.get("scheduledAt").cloned(),
            status,
            steered: truthy(object.get("steered")),
            stream: reasoning_stream(content),
            facts: ContentFacts {
                user: is_user_content(content),
                renderable: renders(value),
                agent_run: is_agent_run(content),
            },
        })
    }

    /// `invokedAt` when it is a number, else `createdAt`.
    pub fn at(&self) -> &Number {
        self.invoked_at.time().unwrap_or(&self.created_at)
    }

    /// The paging position; only rows with a numeric `seq` have one.
    pub fn position(&self) -> Option<Position> {
        self.seq.as_ref().map(|seq| Position { at: self.at().clone(), seq: seq.clone() })
    }

    /// The `localId` when it is a non-empty string.
    pub fn local_key(&self) -> Option<&str> {
        self.local_id.as_deref().filter(|local_id| !local_id.is_empty())
    }

    /// Whether the client send state is `status`.
    pub fn has_status(&self, status: &str) -> bool {
        self.status.as_deref() == Some(status)
    }

    /// Queued: a user row, `invokedAt` explicitly `null`, status not `failed`.
    pub fn is_queued(&self) -> bool {
        self.facts.user && self.invoked_at == InvokedAt::Null && !self.has_status("failed")
    }

    /// Optimistic: a non-empty `localId` equal to `id`.
    pub fn is_optimistic(&self) -> bool {
        self.local_key() == Some(self.id.as_str())
    }

    /// Allowed into the window: queued or renderable.
    pub fn is_retained(&self) -> bool {
        self.is_queued() || self.facts.renderable
    }
}

/// Display order: `at`, then `seq` when both rows have one and they differ,
/// then `id` by `localeCompare` (the ICU root collation,
/// [`locale_compare`]). The order is not transitive when rows tying on `at`
/// mix numeric and missing `seq`; [`sort_rows`] tolerates that.
pub fn display_order(a: &Row, b: &Row) -> Ordering {
    compare_rows(a, b).0
}

/// [`display_order`], and whether the ids decided it.
fn compare_rows(a: &Row, b: &Row) -> (Ordering, bool) {
    let by_position = cmp_numbers(a.at(), b.at()).then_with(|| match (&a.seq, &b.seq) {
        (Some(x), Some(y)) => cmp_numbers(x, y),
        _ => Ordering::Equal,
    });
    if by_position != Ordering::Equal {
        return (by_position, false);
    }
    (locale_compare(&a.id, &b.id), true)
}

/// A stable sort in display order ([`sort_by`], which tolerates the
/// non-transitive mixed-`seq` ties of [`display_order`]).
///
/// Every step the ids decide differently under the collation than under a
/// plain UTF-16 code-unit comparison (the order the HAPI fixture README asks
/// native ports for) is reported to `trace` as a portability note: an
/// expectation built on it is not portable. So the sort raises a note
/// exactly when a code-unit sort would give another order.
pub fn sort_rows(rows: Vec<Row>, trace: &mut dyn RuleTrace) -> Vec<Row> {
    let sorted = sort_by(rows, |r, l| {
        let (order, by_id) = compare_rows(r, l);
        if by_id {
            trace.hit("pagination.order.id-tie-break");
            // Whether code units would have decided this step otherwise.
            if (order == Ordering::Less) != (cmp_utf16(&r.id, &l.id) == Ordering::Less) {
                trace.not_portable(collation_note(l, r));
            }
        }
        order
    });
    note_engine_dependent_ties(&sorted, trace);
    sorted
}

/// Tie groups larger than this are not checked pair by pair: one that
/// mixes numeric and missing `seq` is reported as engine-dependent at once.
const MAX_CHECKED_TIE: usize = 256;

/// Reports, as a portability note, each group of rows tied on `at` whose
/// order no sort can make consistent with [`display_order`]: rows with a
/// numeric `seq` and rows without one make the web's comparator
/// inconsistent (`seq` decides between two numbered rows, the id between a
/// numbered and an unnumbered one), and then the order `Array.prototype.sort`
/// leaves depends on the JavaScript engine's algorithm (V8, JavaScriptCore
/// and SpiderMonkey differ). The reference's order is one of them, not the
/// order.
fn note_engine_dependent_ties(rows: &[Row], trace: &mut dyn RuleTrace) {
    let mut start = 0;
    while start < rows.len() {
        let at = rows[start].at();
        let end = start + rows[start..].iter().take_while(|row| cmp_numbers(row.at(), at) == Ordering::Equal).count();
        let group = &rows[start..end.max(start + 1)];
        start = end.max(start + 1);
        let mixed = group.iter().any(|row| row.seq.is_some()) && group.iter().any(|row| row.seq.is_none());
        let inconsistent = mixed
            && (group.len() > MAX_CHECKED_TIE
                || group.iter().enumerate().any(|(i, earlier)| {
                    group[i + 1..].iter().any(|later| display_order(earlier, later) == Ordering::Greater)
                }));
        if inconsistent {
            trace.not_portable(format!(
                "the message window ties {} rows at {at} where some have a numeric seq and others none: the web's \
                 comparator is inconsistent on them, so their order depends on the JavaScript engine's sort \
                 (V8, JavaScriptCore and SpiderMonkey differ); the expected order is one of those",
                group.len()
            ));
        }
    }
}

/// Why an order decided by the id collation is not portable.
fn collation_note(a: &Row, b: &Row) -> String {
    let position = |row: &Row| match &row.seq {
        Some(seq) => format!("at {}, seq {seq}", row.at()),
        None => format!("at {}, no seq", row.at()),
    };
    // One wording whichever way round the pair was compared.
    let (first, second) = match locale_compare(&a.id, &b.id) {
        Ordering::Greater => (b, a),
        Ordering::Equal if cmp_utf16(&a.id, &b.id) == Ordering::Greater => (b, a),
        _ => (a, b),
    };
    let collated = if locale_compare(&first.id, &second.id) == Ordering::Equal {
        "collate equal (they keep the order they arrived in)".to_owned()
    } else {
        format!("are ordered {:?} before {:?} by localeCompare", first.id, second.id)
    };
    format!(
        "the message window ties rows {:?} ({}) and {:?} ({}) and breaks the tie by id: they {collated}, \
         which a UTF-16 code-unit comparison of the ids (what the HAPI fixture README asks native ports for) \
         orders otherwise",
        first.id,
        position(first),
        second.id,
        position(second)
    )
}

fn is_user_content(content: &Value) -> bool {
    content.get("role").and_then(Value::as_str) == Some("user")
}

/// The role-wrapped record of `content`: an object with a string `role` and a
/// `content` member, probed at `content`, `content.message`,
/// `content.data.message` and `content.payload.message`.
fn role_record(content: &Value) -> Option<&Value> {
    let is_record = |value: &&Value| value.get("role").is_some_and(Value::is_string) && value.get("content").is_some();
    let nested =
        |outer: &str| content.get(outer).filter(|value| value.is_object()).and_then(|value| value.get("message"));
    [Some(content), content.get("message"), nested("data"), nested("payload")].into_iter().flatten().find(is_record)
}

/// The `data` of an agent record's codex payload (role record probed as in
/// [`role_record`]), when the row carries one.
fn codex_data(content: &Value) -> Option<&Value> {
    let record = role_record(content)?;
    if record.get("role").and_then(Value::as_str) != Some("agent") {
        return None;
    }
    let payload = record.get("content").filter(|payload| payload.is_object())?;
    if payload.get("type").and_then(Value::as_str) != Some("codex") {
        return None;
    }
    payload.get("data").filter(|data| data.is_object())
}

/// Whether a wire row's codex payload is a `display-links` item (whether it
/// renders is the chat normalizer's answer, v2.md D9).
pub fn is_display_links_row(row: &Value) -> bool {
    let data = row.get("content").and_then(codex_data);
    data.and_then(|data| data.get("type")).and_then(Value::as_str) == Some("display-links")
}

/// The reasoning stream id: an agent record whose codex payload is a
/// `reasoning` item with an id that is not blank (kept untrimmed).
fn reasoning_stream(content: &Value) -> Option<String> {
    let data = codex_data(content)?;
    if data.get("type").and_then(Value::as_str) != Some("reasoning") {
        return None;
    }
    let id = data.get("id").and_then(Value::as_str)?;
    (!is_blank(id)).then(|| id.to_owned())
}

/// A codex `agent-run-start` / `-update` / `-trace` row (raw content).
fn is_agent_run(content: &Value) -> bool {
    if content.get("role").and_then(Value::as_str) != Some("agent") {
        return false;
    }
    let Some(payload) = content.get("content").filter(|payload| payload.is_object()) else { return false };
    if payload.get("type").and_then(Value::as_str) != Some("codex") {
        return false;
    }
    let kind = payload.get("data").filter(|data| data.is_object()).and_then(|data| data.get("type"));
    matches!(kind.and_then(Value::as_str), Some("agent-run-start" | "agent-run-update" | "agent-run-trace"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn row(value: Value) -> Row {
        Row::from_wire(&value, |_| true).expect("valid row")
    }

    fn reasoning(id: &str) -> Value {
        json!({"role": "agent", "content": {"type": "codex", "data": {"type": "reasoning", "id": id, "message": "m"}}})
    }

    #[test]
    fn stream_ids_are_untrimmed_and_blank_ids_have_none() {
        let stream = |id| row(json!({"id": "r", "createdAt": 1, "content": reasoning(id)})).stream;
        assert_eq!(stream(" s"), Some(" s".to_owned()));
        assert_eq!(stream(" \u{feff}\u{3000}"), None);
        assert_eq!(stream("\u{85}"), Some("\u{85}".to_owned()), "NEL is not JavaScript whitespace");
        let wrapped = json!({"id": "r", "createdAt": 1, "content": {"data": {"message": reasoning("w")}}});
        assert_eq!(row(wrapped).stream, Some("w".to_owned()));
    }

    #[test]
    fn tri_state_and_predicates() {
        let queued =
            row(json!({"id": "l", "localId": "l", "createdAt": 1, "invokedAt": null, "content": {"role": "user"}}));
        assert!(queued.is_queued() && queued.is_optimistic());
        let absent = row(json!({"id": "s", "localId": "l", "createdAt": 1, "content": {"role": "user"}}));
        assert!(!absent.is_queued() && !absent.is_optimistic());
        assert_eq!(absent.invoked_at, InvokedAt::Absent);
        let failed = row(
            json!({"id": "l", "localId": "l", "createdAt": 1, "invokedAt": null, "status": "failed", "content": {"role": "user"}}),
        );
        assert!(!failed.is_queued());
        assert!(Row::from_wire(&json!({"id": 1, "createdAt": 1}), |_| true).is_err());
        assert!(Row::from_wire(&json!({"id": "x", "createdAt": 1, "invokedAt": "soon"}), |_| true).is_err());
    }

    #[test]
    fn sort_survives_a_non_transitive_tie() {
        let rows = vec![
            row(json!({"id": "b", "seq": 5, "createdAt": 1})),
            row(json!({"id": "c", "seq": null, "createdAt": 1})),
            row(json!({"id": "d", "seq": 3, "createdAt": 1})),
            row(json!({"id": "a", "seq": 1, "createdAt": 0})),
        ];
        let mut notes = crate::suite_api::PortabilityNotes::default();
        let sorted = sort_rows(rows, &mut notes);
        assert_eq!(sorted.len(), 4);
        assert_eq!(sorted.first().map(|row| row.id.as_str()), Some("a"));
        // d(3) < b(5) by seq, b < c and c < d by id: a cycle.
        assert_eq!(notes.notes.len(), 1, "{notes:?}");
        assert!(
            notes.notes[0].contains("ties 3 rows at 1") && notes.notes[0].contains("JavaScript engine"),
            "{notes:?}"
        );
    }

    #[test]
    fn a_tie_the_comparator_orders_consistently_raises_no_note() {
        let mut notes = crate::suite_api::PortabilityNotes::default();
        // Mixed seq, but one numbered row: seq decides nothing, the ids order all.
        let rows = vec![
            row(json!({"id": "b", "seq": 5, "createdAt": 1})),
            row(json!({"id": "a", "seq": null, "createdAt": 1})),
            row(json!({"id": "c", "createdAt": 1})),
        ];
        let sorted = sort_rows(rows, &mut notes);
        let ids: Vec<&str> = sorted.iter().map(|row| row.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "c"]);
        assert!(notes.is_empty(), "{notes:?}");
    }
}
