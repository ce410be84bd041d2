//! Accounts and ticket holders for the benchmarks (`ws_load prepare-room`, `listeners serve` with
//! `ROOM_FANS`): accounts, each with a session, a paid order and a ticket to one concert,
//! through Encore's own stores (no password: argon2 for thousands would take minutes).

use encore::accounts::model::{AccountRow, Role};
use encore::auth::clients::WEB_CLIENT_ID;

/// `fans` holders of `event_id`'s tickets: each account and its session's id.
pub async fn holders(
    db: &encore::db::Db,
    event_id: &str,
    fans: usize,
) -> anyhow::Result<Vec<(AccountRow, String)>> {
    let now = encore::db::now_ms();
    let mut out = Vec::with_capacity(fans);
    for i in 0..fans {
        let login = format!("room-fan-{i}@example.com");
        let account = account(db, &login, "Fan", &format!("Bench{i}"), Role::User).await?;
        let session = uuid::Uuid::new_v4().to_string();
        let order = uuid::Uuid::new_v4().to_string();
        let mut tx = db.begin().await?;
        encore::auth::store::insert_session(
            &mut *tx,
            &session,
            &account.id,
            WEB_CLIENT_ID,
            false,
            now,
        )
        .await?;
        // A paid order, as a checkout leaves it (the ticket's order).
        sqlx::query(
            "INSERT INTO orders (id, account_id, status, total_minor, currency, provider, \
             checkout_token_hash, created_at, expires_at, paid_at, fulfilled_at) \
             VALUES ($1, $2, 'fulfilled', 500, 'EUR', 'bench', $1, $3, $3, $3, $3)",
        )
        .bind(&order)
        .bind(&account.id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let ticket = encore::commerce::store::NewTicket {
            account_id: &account.id,
            event_id,
            order_id: &order,
            price_minor: 500,
            may_be_spare: false,
            now,
        };
        encore::commerce::store::issue_ticket(&mut tx, &ticket).await?;
        tx.commit().await?;
        out.push((account, session));
    }
    Ok(out)
}

/// An account without a password (the benchmarks sign their tokens themselves).
pub async fn account(
    db: &encore::db::Db,
    login: &str,
    first_name: &str,
    last_name: &str,
    role: Role,
) -> anyhow::Result<AccountRow> {
    Ok(encore::accounts::store::insert(
        db,
        encore::accounts::store::NewAccount {
            first_name,
            last_name,
            ..encore::accounts::store::NewAccount::verified(login, role, None)
        },
    )
    .await?)
}
