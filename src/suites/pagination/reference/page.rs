//! The `GET /messages` exchange as the store sees it: the three request
//! shapes it issues, the pages it receives, and the server it talks to.

use super::row::{Position, Row};
use serde_json::{Map, Number, Value};

/// The `limit` of every request.
pub const PAGE_SIZE: u32 = 200;

/// One `GET /messages` query.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// The newest page: `{limit}`.
    Latest,
    /// The page strictly older than a position.
    Before(Position),
    /// The page strictly newer than `after`, bounded by the snapshot head
    /// `until` once one is known, for the epoch cached when the sync began.
    After {
        /// The position to continue after.
        after: Position,
        /// The inclusive snapshot head, `None` until a page reported one.
        until: Option<Position>,
        /// The epoch cached when the sync began.
        epoch: Number,
    },
}

impl Request {
    /// The query object as recorded in `expectedRequests` (`null` members kept).
    pub fn to_json(&self) -> Value {
        let mut query = Map::new();
        match self {
            Request::Latest => {}
            Request::Before(before) => {
                query.insert("beforeAt".to_owned(), Value::Number(before.at.clone()));
                query.insert("beforeSeq".to_owned(), Value::Number(before.seq.clone()));
            }
            Request::After { after, until, epoch } => {
                query.insert("afterAt".to_owned(), Value::Number(after.at.clone()));
                query.insert("afterSeq".to_owned(), Value::Number(after.seq.clone()));
                query.insert("epoch".to_owned(), Value::Number(epoch.clone()));
                let (until_at, until_seq) = match until {
                    Some(until) => (Value::Number(until.at.clone()), Value::Number(until.seq.clone())),
                    None => (Value::Null, Value::Null),
                };
                query.insert("untilAt".to_owned(), until_at);
                query.insert("untilSeq".to_owned(), until_seq);
            }
        }
        query.insert("limit".to_owned(), Value::from(PAGE_SIZE));
        Value::Object(query)
    }
}

/// One scripted response `{messages, page}`.
#[derive(Clone, Debug)]
pub struct Page {
    /// The rows, in the server's order.
    pub rows: Vec<Row>,
    /// `latest`, `before` or `after`.
    pub direction: String,
    /// The server's current epoch for the session.
    pub epoch: Number,
    /// More rows exist in the requested direction.
    pub has_more: bool,
    /// The page replaces the window.
    pub reset: bool,
    /// Cursor for the next older page.
    pub next_before: Option<Position>,
    /// Cursor for the next newer page.
    pub next_after: Option<Position>,
    /// Newest position at snapshot time.
    pub snapshot_head: Option<Position>,
}

impl Page {
    /// Reads a scripted response; `renders` is passed on to each row.
    pub fn from_wire(value: &Value, renders: impl Fn(&Value) -> bool) -> Result<Page, String> {
        let messages = value.get("messages").and_then(Value::as_array).ok_or("`messages` must be an array")?;
        let rows = messages
            .iter()
            .enumerate()
            .map(|(index, message)| {
                Row::from_wire(message, &renders).map_err(|problem| format!("messages[{index}]: {problem}"))
            })
            .collect::<Result<Vec<Row>, String>>()?;
        let page = value.get("page").and_then(Value::as_object).ok_or("`page` must be an object")?;
        let member = |key: &str| page.get(key).unwrap_or(&Value::Null);
        let flag = |key: &str| member(key).as_bool().ok_or_else(|| format!("`page.{key}` must be a boolean"));
        let pair = |at: &str, seq: &str| Position::from_pair(member(at), member(seq));
        Ok(Page {
            rows,
            direction: member("direction").as_str().ok_or("`page.direction` must be a string")?.to_owned(),
            epoch: match member("epoch") {
                Value::Number(epoch) => epoch.clone(),
                _ => return Err("`page.epoch` must be a number".to_owned()),
            },
            has_more: flag("hasMore")?,
            reset: flag("reset")?,
            next_before: pair("nextBeforeAt", "nextBeforeSeq"),
            next_after: pair("nextAfterAt", "nextAfterSeq"),
            snapshot_head: pair("snapshotHeadAt", "snapshotHeadSeq"),
        })
    }
}

/// Why a request got no page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FetchError {
    /// The request failed in transport (in a replay: no scripted response
    /// was left for it). The store handles this like any failed request.
    Failed,
    /// The scripted response is malformed: the case cannot be replayed.
    Malformed(String),
}

/// Where the store sends its requests.
pub trait MessagesServer {
    /// Issues one request and returns its page.
    fn get_messages(&mut self, request: Request) -> Result<Page, FetchError>;
}
