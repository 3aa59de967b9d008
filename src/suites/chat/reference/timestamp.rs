//! Agent timestamps (chat-normalize §13): ECMAScript date-time strings to
//! epoch milliseconds.
//!
//! Only the normative ECMAScript Date Time String Format is accepted:
//! `YYYY[-MM[-DD]]` (or an expanded `±YYYYYY` year), optionally followed by
//! `THH:mm[:ss[.fff…]]` and then `Z` or `±HH:mm`. A date-time without an offset
//! would be local time in the original and the legacy forms are
//! engine-dependent; the spec allows `null` for them, which keeps the result
//! independent of the host's time zone.

/// Largest magnitude of an ECMAScript time value (±100,000,000 days).
const MAX_TIME: f64 = 8.64e15;

/// Parses an agent timestamp. `None` stands for `null`.
pub fn parse_agent_timestamp(text: &str) -> Option<f64> {
    let mut cursor = Cursor { bytes: text.as_bytes(), pos: 0 };
    let year = cursor.year()?;
    let mut month = 1;
    let mut day = 1;
    if cursor.eat(b'-') {
        month = cursor.digits(2)?;
        if cursor.eat(b'-') {
            day = cursor.digits(2)?;
        }
    }
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    let mut millis_of_day = 0i64;
    if cursor.eat(b'T') {
        let hour = cursor.digits(2)?;
        if !cursor.eat(b':') {
            return None;
        }
        let minute = cursor.digits(2)?;
        let (mut second, mut millis) = (0, 0);
        if cursor.eat(b':') {
            second = cursor.digits(2)?;
            if cursor.eat(b'.') {
                millis = cursor.fraction_millis()?;
            }
        }
        if minute > 59 || second > 59 || hour > 24 || (hour == 24 && (minute, second, millis) != (0, 0, 0)) {
            return None;
        }
        millis_of_day = ((hour * 60 + minute) * 60 + second) * 1000 + millis;
        let offset_minutes = match cursor.next()? {
            b'Z' => 0,
            sign @ (b'+' | b'-') => {
                let hours = cursor.digits(2)?;
                if !cursor.eat(b':') {
                    return None;
                }
                let minutes = cursor.digits(2)?;
                if hours > 23 || minutes > 59 {
                    return None;
                }
                if sign == b'+' { hours * 60 + minutes } else { -(hours * 60 + minutes) }
            }
            _ => return None,
        };
        millis_of_day -= offset_minutes * 60_000;
    }
    if cursor.pos != text.len() {
        return None;
    }
    let time = (days_from_civil(year, month, day) as f64) * 86_400_000.0 + millis_of_day as f64;
    (time.abs() <= MAX_TIME).then_some(time)
}

struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn next(&mut self) -> Option<u8> {
        let byte = *self.bytes.get(self.pos)?;
        self.pos += 1;
        Some(byte)
    }

    fn eat(&mut self, byte: u8) -> bool {
        if self.bytes.get(self.pos) == Some(&byte) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn digits(&mut self, count: usize) -> Option<i64> {
        let slice = self.bytes.get(self.pos..self.pos + count)?;
        if !slice.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.pos += count;
        Some(slice.iter().fold(0, |acc, d| acc * 10 + i64::from(d - b'0')))
    }

    fn year(&mut self) -> Option<i64> {
        match self.bytes.get(self.pos) {
            Some(&sign @ (b'+' | b'-')) => {
                self.pos += 1;
                let year = self.digits(6)?;
                // "-000000" is explicitly invalid.
                if sign == b'-' && year == 0 {
                    return None;
                }
                Some(if sign == b'-' { -year } else { year })
            }
            _ => self.digits(4),
        }
    }

    /// One or more fraction digits, truncated to milliseconds.
    fn fraction_millis(&mut self) -> Option<i64> {
        let start = self.pos;
        while self.bytes.get(self.pos).is_some_and(u8::is_ascii_digit) {
            self.pos += 1;
        }
        let digits = &self.bytes[start..self.pos];
        if digits.is_empty() {
            return None;
        }
        Some((0..3).fold(0, |acc, i| acc * 10 + digits.get(i).map_or(0, |d| i64::from(d - b'0'))))
    }
}

fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normative_forms() {
        assert_eq!(parse_agent_timestamp("2025-08-12T11:20:05.173Z"), Some(1_754_997_605_173.0));
        assert_eq!(parse_agent_timestamp("2025-08-12T11:20:05.1739Z"), Some(1_754_997_605_173.0));
        assert_eq!(parse_agent_timestamp("1970"), Some(0.0));
        assert_eq!(parse_agent_timestamp("1970-01-02"), Some(86_400_000.0));
        assert_eq!(parse_agent_timestamp("1970-01-01T24:00:00Z"), Some(86_400_000.0));
        assert_eq!(parse_agent_timestamp("1970-01-01T01:00+01:00"), Some(0.0));
        assert_eq!(parse_agent_timestamp("+001970-01-01T00:00:00Z"), Some(0.0));
        assert_eq!(parse_agent_timestamp("-000001-01-01T00:00:00Z"), Some(-62_198_755_200_000.0));
    }

    #[test]
    fn invalid_or_engine_dependent_forms_are_null() {
        for text in [
            "2025-08-12T11:20:05Z\n",
            "2025-13-01",
            "2025-02-30",
            "2025-08-12T11:20:60Z",
            "2025-08-12T24:00:01Z",
            "2025-08-12T11:20:05",
            "2025-08-12 11:20:05Z",
            "-000000-01-01T00:00:00Z",
            "Tue, 12 Aug 2025 11:20:05 GMT",
            "",
        ] {
            assert_eq!(parse_agent_timestamp(text), None, "{text:?}");
        }
    }
}
