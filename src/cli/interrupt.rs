//! Ctrl-C, SIGTERM and SIGHUP: one handler for every command, installed at
//! start. Commands that stop gracefully (`run`, `reduce`, `check-adapter`
//! ask for [`flag`]) see the first signal as "stop starting cases, abandon
//! the ones in flight and write the reports of what ran"; a second one, or
//! any signal during another command, kills the implementation's processes,
//! removes the temporary files of writes in progress (nothing half-written
//! is left, see `conform::files`) and exits with status 130 at once.

use conform::error::exit_code;
use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// The flag set by the first signal of a graceful command.
fn shared_flag() -> &'static Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| Arc::new(AtomicBool::new(false)))
}

/// Set once a command asked for [`flag`]: the first signal only sets it.
static GRACEFUL: AtomicBool = AtomicBool::new(false);

/// Installs the handler (once, at start).
pub fn install() {
    let installed = ctrlc::set_handler(|| {
        if GRACEFUL.load(Ordering::SeqCst) && !shared_flag().swap(true, Ordering::SeqCst) {
            eprintln!("\ninterrupted: stopping; the reports will cover the cases that ran (Ctrl-C again to quit now)");
            return;
        }
        conform::implementation::subprocess::kill_all_children();
        conform::files::remove_live_and_exit(exit_code::INTERRUPTED);
    });
    if let Err(err) = installed {
        super::warning(format!("Ctrl-C handling is unavailable: {err}"));
    }
}

/// The flag set by the first Ctrl-C; asking for it makes the command stop
/// gracefully on the first signal.
pub fn flag() -> Arc<AtomicBool> {
    GRACEFUL.store(true, Ordering::SeqCst);
    Arc::clone(shared_flag())
}

/// Whether Ctrl-C was pressed.
pub fn interrupted(flag: &AtomicBool) -> bool {
    flag.load(Ordering::SeqCst)
}
