//! Delta debugging (Zeller and Hildebrandt's ddmin): the smallest subset of a
//! list on which a test still fails, found with far fewer tests than trying
//! every subset.
//!
//! The result is 1-minimal: removing any single remaining element makes the
//! test pass. The test decides what "fails" means; here it is "shows the
//! same failure signature".

/// Finds a 1-minimal sublist of `items` (order kept) for which `fails` holds,
/// assuming it holds for `items`. `fails` returns `None` once the test budget
/// is spent; the search then stops with the smallest failing list so far.
pub fn ddmin<T: Clone>(items: Vec<T>, mut fails: impl FnMut(&[T]) -> Option<bool>) -> Vec<T> {
    let mut current = items;
    if current.len() > 1 && fails(&[]) == Some(true) {
        return Vec::new();
    }
    let mut granularity = 2usize;
    while current.len() >= 2 {
        let chunks = split(current.len(), granularity);
        let mut reduced = false;
        // A chunk alone may fail: continue with it, from coarse chunks again.
        for range in &chunks {
            match fails(&current[range.clone()]) {
                Some(true) => {
                    current = current[range.clone()].to_vec();
                    granularity = 2;
                    reduced = true;
                    break;
                }
                Some(false) => {}
                None => return current,
            }
        }
        if !reduced && granularity > 2 {
            // The complement of a chunk may fail: drop that chunk.
            for range in &chunks {
                let complement: Vec<T> = current[..range.start].iter().chain(&current[range.end..]).cloned().collect();
                match fails(&complement) {
                    Some(true) => {
                        current = complement;
                        granularity = (granularity - 1).max(2);
                        reduced = true;
                        break;
                    }
                    Some(false) => {}
                    None => return current,
                }
            }
        }
        if !reduced {
            if granularity >= current.len() {
                break;
            }
            granularity = (granularity * 2).min(current.len());
        }
    }
    current
}

/// `count` items in `parts` contiguous, nearly equal ranges.
fn split(count: usize, parts: usize) -> Vec<std::ops::Range<usize>> {
    let parts = parts.clamp(1, count.max(1));
    (0..parts).map(|part| (part * count / parts)..((part + 1) * count / parts)).filter(|r| !r.is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_two_elements_that_matter() {
        let items: Vec<u32> = (0..2000).collect();
        let mut tests = 0;
        let result = ddmin(items, |subset| {
            tests += 1;
            Some(subset.contains(&1234) && subset.contains(&77))
        });
        assert_eq!(result, [77, 1234]);
        assert!(tests < 400, "{tests} tests");
    }

    #[test]
    fn an_empty_list_is_tried_first_and_the_budget_is_respected() {
        assert!(ddmin(vec![1, 2, 3], |_| Some(true)).is_empty());
        let mut left = 3;
        let result = ddmin((0..100).collect::<Vec<u32>>(), |subset| {
            if left == 0 {
                return None;
            }
            left -= 1;
            Some(subset.contains(&5))
        });
        assert!(result.contains(&5) && result.len() < 100);
    }

    #[test]
    fn one_minimal_even_when_the_failure_needs_a_spread_out_set() {
        let wanted = [3u32, 40, 41, 97];
        let result = ddmin((0..100).collect(), |subset| Some(wanted.iter().all(|w| subset.contains(w))));
        assert_eq!(result, wanted);
    }
}
