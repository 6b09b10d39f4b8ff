//! SIGINT and SIGTERM for the streaming verbs: the first signal sets a flag
//! that the run polls between chunks (it stops reading, writes only whole
//! lines, prints the summary and exits 130 or 143); a second one of the
//! same kind ends the process at once with that status.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use signal_hook::consts::{SIGINT, SIGTERM};

/// Which signals arrived since [`Interrupt::install`].
pub struct Interrupt {
    int: Arc<AtomicBool>,
    term: Arc<AtomicBool>,
}

impl Interrupt {
    /// Installs the handlers. Where a handler cannot be installed the
    /// signal keeps its default action (the process ends).
    pub fn install() -> Interrupt {
        let (int, term) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)));
        for (signal, flag, status) in [(SIGINT, &int, 130), (SIGTERM, &term, 143)] {
            // The shutdown is registered first, so it fires only on the
            // second signal, once the flag is already set.
            let _ = signal_hook::flag::register_conditional_shutdown(signal, status, Arc::clone(flag))
                .and_then(|_| signal_hook::flag::register(signal, Arc::clone(flag)));
        }
        Interrupt { int, term }
    }

    /// The signal that asked the run to stop and its exit status, if any.
    pub fn stopped(&self) -> Option<(&'static str, u8)> {
        if self.int.load(Ordering::Relaxed) {
            Some(("SIGINT", 130))
        } else if self.term.load(Ordering::Relaxed) {
            Some(("SIGTERM", 143))
        } else {
            None
        }
    }
}

/// What waiting on a channel under [`Interrupt`] gave.
pub enum Received<T> {
    /// The next message.
    Item(T),
    /// The sender is gone: the input is done.
    Done,
    /// A signal asked the run to stop: its name and exit status.
    Stopped(&'static str, u8),
}

impl Interrupt {
    /// The next message of `rx`, waiting in short steps so that a signal is
    /// noticed within 50 ms even while the other threads are busy or blocked.
    pub fn recv<T>(&self, rx: &Receiver<T>) -> Received<T> {
        loop {
            if let Some((signal, status)) = self.stopped() {
                return Received::Stopped(signal, status);
            }
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(item) => return Received::Item(item),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Received::Done,
            }
        }
    }
}
