//! Encore: ticketed live concerts — sign-in, accounts, tickets, live audio, dashboard.

pub mod accounts;
pub mod app;
pub mod auth;
pub mod cli;
pub mod commerce;
pub mod config;
pub mod crypto;
pub mod db;
pub mod demo;
pub mod envelope;
pub mod error;
pub mod events;
pub mod i18n;
pub mod messaging;
pub mod meta;
pub mod net;
pub mod notifications;
pub mod paging;
pub mod projects;
pub mod stream;
pub mod web;
