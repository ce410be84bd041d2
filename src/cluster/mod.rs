//! What several instances behind one load balancer need beyond the bus: this instance's
//! lifecycle (serving, then draining), its readiness for the load balancer, and leases
//! that make a job run on one instance per tick.

pub mod health;
pub mod lease;
pub mod lifecycle;
pub mod shared;

pub use lifecycle::Lifecycle;
