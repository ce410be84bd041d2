//! Demo accounts for `make run`: one of each role and a fan with the SMS second factor.

use crate::accounts::model::{Password, Role};
use crate::accounts::store;
use crate::app::AppState;

struct DemoAccount {
    email: &'static str,
    password: &'static str,
    role: Role,
    first: &'static str,
    last: &'static str,
    phone: Option<&'static str>,
}

const DEMO: [DemoAccount; 4] = [
    DemoAccount {
        email: "sa@encore.local",
        password: "encore-super-admin",
        role: Role::Sa,
        first: "Sam",
        last: "Super",
        phone: None,
    },
    DemoAccount {
        email: "admin@encore.local",
        password: "encore-admin-demo",
        role: Role::Admin,
        first: "Ada",
        last: "Admin",
        phone: None,
    },
    DemoAccount {
        email: "fan@encore.local",
        password: "encore-fan-demo",
        role: Role::User,
        first: "Frankie",
        last: "Fan",
        phone: None,
    },
    DemoAccount {
        email: "mfa@encore.local",
        password: "encore-mfa-demo",
        role: Role::User,
        first: "Morgan",
        last: "Secure",
        phone: Some("+15550100123"),
    },
];

/// Create the demo accounts on an empty database, and print how to sign in.
pub async fn seed(state: &AppState) -> anyhow::Result<()> {
    if store::count(&state.db).await? == 0 {
        for demo in &DEMO {
            let password = Password::parse(demo.password)
                .map_err(|e| anyhow::anyhow!("demo password: {}", e.public_message()))?;
            let hash = state.passwords.hash(&password).await?;
            store::insert(
                &state.db,
                store::NewAccount {
                    login: demo.email,
                    first_name: demo.first,
                    last_name: demo.last,
                    role: demo.role,
                    password_hash: Some(hash),
                    phone: demo.phone,
                    use_mfa: demo.phone.is_some(),
                    notes: "Demo account",
                    tenant_key: &state.config.tenant_key,
                },
            )
            .await
            .map_err(|e| anyhow::anyhow!("demo account: {e}"))?;
        }
    }
    println!(
        "\nEncore demo accounts (sign in at {}/auth/login):",
        state.config.public_url
    );
    for demo in &DEMO {
        let note = if demo.phone.is_some() {
            "  (second factor: the SMS code appears in data/outbox.jsonl)"
        } else {
            ""
        };
        println!(
            "  {:<6} {:<20} {}{note}",
            demo.role.as_str(),
            demo.email,
            demo.password
        );
    }
    println!();
    Ok(())
}
