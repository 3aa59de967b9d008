//! Ctrl-C: the first press stops starting cases, abandons the ones in
//! flight (their processes are killed) and lets the command write the
//! reports of what ran; a second press kills every child and exits at once.

use conform::error::exit_code;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// The flag set by the first Ctrl-C (installing the handler on first use).
pub fn flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    Arc::clone(FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let seen = Arc::clone(&flag);
        let installed = ctrlc::set_handler(move || {
            if seen.swap(true, Ordering::SeqCst) {
                conform::implementation::subprocess::kill_all_children();
                std::process::exit(exit_code::INTERRUPTED);
            }
            eprintln!("\ninterrupted: stopping; the reports will cover the cases that ran (Ctrl-C again to quit now)");
        });
        if let Err(err) = installed {
            super::warning(format!("Ctrl-C handling is unavailable: {err}"));
        }
        flag
    }))
}

/// Whether Ctrl-C was pressed.
pub fn interrupted(flag: &AtomicBool) -> bool {
    flag.load(Ordering::SeqCst)
}
