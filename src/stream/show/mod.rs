//! A concert's show: the hub (one show per concert, fed by one publisher at a time) and
//! its journal, which lets every instance serve a show its encoder pushes to another.

pub mod hub;
pub mod journal;
