//! This instance's lifecycle: serving, then draining once asked to stop. A leaf: the
//! state holds it, the readiness probe and the server read it.

use std::sync::atomic::{AtomicBool, Ordering};

use tokio_util::sync::CancellationToken;

#[derive(Default)]
pub struct Lifecycle {
    draining: AtomicBool,
    drained: CancellationToken,
}

impl Lifecycle {
    pub fn new() -> Self {
        Self::default()
    }

    /// Start draining: readiness answers 503 from now on, so the load balancer sends
    /// nothing new here, and whoever waits on [`Lifecycle::draining`] wakes.
    pub fn drain(&self) {
        self.draining.store(true, Ordering::Relaxed);
        self.drained.cancel();
    }

    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::Relaxed)
    }

    /// Resolves once draining started.
    pub fn draining(&self) -> tokio_util::sync::WaitForCancellationFuture<'_> {
        self.drained.cancelled()
    }
}
