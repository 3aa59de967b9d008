//! The checks that tell personal data (IP addresses, card numbers, phone
//! numbers) from the numbers a capture legitimately holds: version strings,
//! dates, timestamps, sequence numbers, ports, uuids and hex ids.
//!
//! The patterns in [`super::rules::BUILTIN_RULES`] find candidates by shape;
//! these functions decide, from the candidate and the text around it,
//! whether it really is one. Each is written from the format's standard:
//! RFC 4291 and RFC 5952 (IPv6, parsed by the standard library), RFC 791
//! dotted quads with the special-purpose ranges of RFC 6890 and RFC 5737,
//! ISO/IEC 7812 card numbers (issuer prefixes, lengths and the Luhn check
//! digit), and ITU-T E.164 and the North American Numbering Plan.

use super::rules::Candidate;
use std::net::{Ipv4Addr, Ipv6Addr};

/// The characters that continue a word, number or address: a candidate
/// next to one is a slice of something longer.
fn continues(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// An IPv6 address a host really has: it parses, stands alone, is written
/// with three or more groups (so `a::b` or `d::` in code is not taken for
/// one), and is not loopback, unspecified or documentation (2001:db8::/32).
pub fn is_ipv6_address(candidate: &Candidate<'_>) -> bool {
    let text = candidate.secret;
    let alone = !candidate.before.ends_with(|c: char| continues(c) || c == ':' || c == '.')
        && !candidate.after.starts_with(|c: char| continues(c) || c == ':');
    let groups = text.split(':').filter(|group| !group.is_empty()).count();
    let Ok(address) = text.parse::<Ipv6Addr>() else { return false };
    let documentation = address.segments()[0] == 0x2001 && address.segments()[1] == 0x0db8;
    alone && groups >= 3 && !address.is_loopback() && !address.is_unspecified() && !documentation
}

/// An IPv4 host address: four decimal octets without leading zeros, not a
/// slice of a longer dotted number (`1.2.3.4.5`), not after the word
/// `version`, and none of: `0.x.x.x`, loopback, a network or broadcast
/// address (last octet 0 or 255), or the RFC 5737 documentation ranges.
pub fn is_ipv4_address(candidate: &Candidate<'_>) -> bool {
    let text = candidate.secret;
    let octets_ok = text.split('.').all(|octet| octet == "0" || !octet.starts_with('0'));
    let Ok(address) = text.parse::<Ipv4Addr>() else { return false };
    let [first, second, third, last] = address.octets();
    let inside_longer = candidate.before.ends_with('.')
        || candidate.before.ends_with('-')
        || candidate.after.strip_prefix(['.', '-']).is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
    let documentation = matches!((first, second, third), (192, 0, 2) | (198, 51, 100) | (203, 0, 113));
    let special = first == 0 || address.is_loopback() || last == 0 || last == 255 || documentation;
    octets_ok && !inside_longer && !special && !after_version_word(candidate.before)
}

/// Whether the text ends with a word naming a version (`version 1.2.3.4`,
/// `"version": "1.2.3.4"`, `FileVersion=`), so a dotted quad is no address.
fn after_version_word(before: &str) -> bool {
    let tail: String = before.chars().rev().take(24).collect::<Vec<_>>().into_iter().rev().collect();
    let trimmed = tail.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ':' | '=' | 'v'));
    trimmed.to_ascii_lowercase().ends_with("version") || trimmed.to_ascii_lowercase().ends_with("ver")
}

/// A payment card number: 13–19 digits, written plain or in groups split
/// by one kind of separator (4-4-4-4, 4-4-4-4-3, 4-6-5, 4-6-4), with a card
/// network's issuer prefix and length, and a valid Luhn check digit. Not a
/// slice of a longer number (`-`, `.` or a digit around it).
pub fn is_card_number(candidate: &Candidate<'_>) -> bool {
    let text = candidate.secret;
    let inside_longer = candidate.before.ends_with(['.', '-', '+', ','])
        || candidate
            .after
            .strip_prefix(['.', '-', ','])
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
    let digits: String = text.chars().filter(char::is_ascii_digit).collect();
    !inside_longer && well_grouped(text) && network_accepts(&digits) && luhn_valid(&digits)
}

/// Plain digits, or groups split by one kind of separator in a layout that
/// cards are printed in.
fn well_grouped(text: &str) -> bool {
    let separators: Vec<char> = text.chars().filter(|c| !c.is_ascii_digit()).collect();
    if separators.is_empty() {
        return true;
    }
    if separators.iter().any(|&c| c != separators[0]) {
        return false;
    }
    let lengths: Vec<usize> = text.split(separators[0]).map(str::len).collect();
    matches!(lengths.as_slice(), [4, 4, 4, 4] | [4, 4, 4, 4, 3] | [4, 6, 5] | [4, 6, 4] | [4, 4, 4, 1] | [4, 4, 4, 2])
        || (lengths.len() >= 4
            && lengths[..lengths.len() - 1].iter().all(|&n| n == 4)
            && lengths[lengths.len() - 1] <= 4)
}

/// Whether a card network issues numbers with this prefix and length
/// (ISO/IEC 7812 issuer identification numbers of the networks that
/// publish them: Visa, Mastercard, American Express, Discover, JCB, Diners
/// Club, UnionPay).
fn network_accepts(digits: &str) -> bool {
    let length = digits.len();
    let prefix = |n: usize| digits.get(..n).and_then(|p| p.parse::<u32>().ok()).unwrap_or(0);
    let visa = digits.starts_with('4') && matches!(length, 13 | 16 | 19);
    let mastercard = ((51..=55).contains(&prefix(2)) || (2221..=2720).contains(&prefix(4))) && length == 16;
    let amex = matches!(prefix(2), 34 | 37) && length == 15;
    let discover =
        (prefix(4) == 6011 || prefix(2) == 65 || (644..=649).contains(&prefix(3))) && (16..=19).contains(&length);
    let jcb = (3528..=3589).contains(&prefix(4)) && (16..=19).contains(&length);
    let diners = ((300..=305).contains(&prefix(3)) || matches!(prefix(2), 36 | 38 | 39)) && (14..=19).contains(&length);
    let unionpay = prefix(2) == 62 && (16..=19).contains(&length);
    visa || mastercard || amex || discover || jcb || diners || unionpay
}

/// The Luhn (mod 10) check of ISO/IEC 7812-1.
pub fn luhn_valid(digits: &str) -> bool {
    let mut sum = 0u32;
    for (index, digit) in digits.bytes().rev().enumerate() {
        if !digit.is_ascii_digit() {
            return false;
        }
        let mut value = u32::from(digit - b'0');
        if index % 2 == 1 {
            value *= 2;
            if value > 9 {
                value -= 9;
            }
        }
        sum += value;
    }
    !digits.is_empty() && sum.is_multiple_of(10)
}

/// A phone number: with a `+` country code, 8–15 digits in all (E.164's
/// bound); in North American form, the pattern already fixed its shape.
/// Either way it stands alone: no digit, letter, `.`, `-`, `+` or `/`
/// continues it on either side.
pub fn is_phone_number(candidate: &Candidate<'_>) -> bool {
    let text = candidate.secret;
    let joined = |c: char| continues(c) || matches!(c, '.' | '-' | '+' | '/' | '=');
    let alone = !candidate.before.ends_with(|c: char| joined(c) && c != '=')
        && !candidate.after.starts_with(|c: char| continues(c) || c == '-' || c == '(')
        && !candidate.after.strip_prefix('.').is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
    let digits = text.chars().filter(char::is_ascii_digit).count();
    let balanced = text.matches('(').count() == text.matches(')').count();
    let sized = if text.starts_with('+') { (8..=15).contains(&digits) } else { (10..=11).contains(&digits) };
    alone && balanced && sized
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alone(secret: &str) -> Candidate<'_> {
        Candidate { secret, before: " ", after: " " }
    }

    #[test]
    fn ip_addresses_and_their_look_alikes() {
        for address in ["203.1.113.7", "10.12.0.5", "192.168.1.20", "8.8.4.4"] {
            assert!(is_ipv4_address(&alone(address)), "{address}");
        }
        for other in ["127.0.0.1", "0.0.0.0", "10.0.0.0", "192.0.2.10", "1.02.3.4", "300.1.1.1", "255.255.255.255"] {
            assert!(!is_ipv4_address(&alone(other)), "{other}");
        }
        assert!(!is_ipv4_address(&Candidate { secret: "1.2.3.4", before: "version ", after: "" }));
        assert!(!is_ipv4_address(&Candidate { secret: "1.2.3.4", before: "\"version\": \"", after: "\"" }));
        assert!(!is_ipv4_address(&Candidate { secret: "2.3.4.5", before: "1.", after: "" }));
        assert!(!is_ipv4_address(&Candidate { secret: "1.2.3.4", before: "", after: ".5" }));
        for address in ["2606:4700:4700::1111", "fe80::1ff:fe23:4567:890a", "2a00:1450:4001:82a::200e"] {
            assert!(is_ipv6_address(&alone(address)), "{address}");
        }
        for other in ["::1", "::", "2001:db8::8a2e:370:7334", "a::b", "12:30:45", "d::", "aa:bb:cc:dd:ee:ff"] {
            assert!(!is_ipv6_address(&alone(other)), "{other}");
        }
    }

    #[test]
    fn card_numbers_need_a_network_prefix_and_the_luhn_digit() {
        for card in
            ["4111111111111111", "4111 1111 1111 1111", "5500-0000-0000-0004", "3782 822463 10005", "6011000990139424"]
        {
            assert!(is_card_number(&alone(card)), "{card}");
        }
        for other in
            ["4111111111111112", "1736553600000", "1736553600000000", "4111 1111-1111 1111", "41 1111 1111 1111 11"]
        {
            assert!(!is_card_number(&alone(other)), "{other}");
        }
    }

    #[test]
    fn phone_numbers_stand_alone_with_a_plausible_length() {
        for phone in
            ["+1 415 555 0134", "+44 20 7946 0958", "+49-30-901820", "+14155550134", "(415) 555-0134", "415-555-0134"]
        {
            assert!(is_phone_number(&alone(phone)), "{phone}");
        }
        for other in ["+0100", "+12345", "+1 2", "+1234567890123456"] {
            assert!(!is_phone_number(&alone(other)), "{other}");
        }
        assert!(!is_phone_number(&Candidate { secret: "415-555-0134", before: "1.", after: "" }));
        assert!(!is_phone_number(&Candidate { secret: "415-555-0134", before: "", after: "-7" }));
    }
}
