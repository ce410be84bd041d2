//! API integration tests: the real server over HTTP, each test with its own database.
//! Run on SQLite by default and on PostgreSQL with `ENCORE_TEST_DB=postgres`.

mod accounts;
mod bus;
mod cluster;
mod commerce;
mod concert_state;
mod concurrency;
mod envelope;
mod events;
mod everyday;
mod go_live;
mod helpers;
mod languages;
mod live;
mod live_figures;
mod mfa;
mod notifications;
mod openapi;
mod payments;
mod projects;
mod qr;
mod rate_limits;
mod reset;
mod roles;
mod sales;
mod security;
mod show_everywhere;
mod sign_in;
mod sms_and_images;
mod step_up;
mod stream;
mod titles;
mod tokens;
mod topology;
mod verify_email;
mod ws;
