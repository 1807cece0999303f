//! Platform credits: double-entry books in PostgreSQL. An account belongs to the platform (the
//! issuance account every grant comes from, the only one allowed below zero; `HOLDS`, what open
//! orders and stakes hold; `SINK`, where slashed stakes go), to a tenant (the owner's credits,
//! which pay for skills and tips) or to an agent (what it earns and spends). A transfer
//! moves a positive amount between two accounts and writes two entries that sum to zero; the sum
//! of every balance is therefore always zero, and a deferred trigger in the database refuses any
//! transaction that would leave a transfer unbalanced.
//!
//! Concurrency: a transfer locks both accounts in id order (no deadlock between two transfers in
//! opposite directions) before it reads the paying balance, so parallel spends never overdraw.
//! Idempotency: the same key from the same paying account is the same transfer; a retry returns
//! it and moves nothing, a different amount or payee under a used key is 409.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgConnection;
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};

/// The issuance account (created by the migration).
pub const PLATFORM: Uuid = Uuid::from_u128(0xc0001);
/// What open service orders and active stakes hold: its balance is the sum of what they hold.
pub const HOLDS: Uuid = Uuid::from_u128(0xc0002);
/// Where slashed stakes go.
pub const SINK: Uuid = Uuid::from_u128(0xc0003);

/// Whose account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    Tenant(TenantId),
    Agent(TenantId, AgentId),
}

/// The holder's account id, opened on first use.
pub async fn account(conn: &mut PgConnection, holder: Holder) -> sqlx::Result<Uuid> {
    let (kind, tenant, agent) = match holder {
        Holder::Tenant(t) => ("tenant", t.0, None),
        Holder::Agent(t, a) => ("agent", t.0, Some(a.0)),
    };
    // Opened by whoever comes first; the unique index per holder makes a second insert a no-op.
    sqlx::query!(
        "INSERT INTO credit_accounts (id, kind, tenant_id, agent_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        Uuid::now_v7(),
        kind,
        tenant,
        agent
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query_scalar!(
        "SELECT id FROM credit_accounts
          WHERE kind = $1 AND tenant_id = $2 AND agent_id IS NOT DISTINCT FROM $3",
        kind,
        tenant,
        agent
    )
    .fetch_one(&mut *conn)
    .await
}

/// A transfer to make.
#[derive(Debug, Clone)]
pub struct Move<'a> {
    pub from: Uuid,
    pub to: Uuid,
    pub amount: i64,
    /// `grant`, `purchase`, …
    pub kind: &'a str,
    pub memo: Option<String>,
    pub key: String,
}

/// A transfer made.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Transfer {
    pub id: Uuid,
    pub kind: String,
    pub amount: i64,
    pub memo: Option<String>,
    pub created_at: DateTime<Utc>,
    /// True when the key had been used for this same transfer before: nothing moved this time.
    pub replayed: bool,
}

/// Makes the transfer inside the caller's transaction (which the caller commits): 402
/// `insufficient_credits` when the payer's balance is short, 409 when the key was used for a
/// different transfer.
pub async fn transfer(conn: &mut PgConnection, m: Move<'_>) -> Result<Transfer, Error> {
    if m.amount <= 0 {
        return Err(Error::validation("amount", "amount must be a positive number of credits"));
    }
    if m.from == m.to {
        return Err(Error::validation("to", "a transfer needs two different accounts"));
    }
    let (first, second) = if m.from < m.to { (m.from, m.to) } else { (m.to, m.from) };
    let locked = sqlx::query!(
        "SELECT id, balance, allow_negative FROM credit_accounts WHERE id = ANY($1) ORDER BY id FOR UPDATE",
        &[first, second]
    )
    .fetch_all(&mut *conn)
    .await?;
    if locked.len() != 2 {
        return Err(Error::not_found("credit account"));
    }
    let earlier = sqlx::query!(
        "SELECT id, kind, amount, memo, to_account, created_at FROM credit_transfers
          WHERE from_account = $1 AND idempotency_key = $2",
        m.from,
        m.key
    )
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(t) = earlier {
        if t.to_account != m.to || t.amount != m.amount || t.kind != m.kind {
            return Err(Error::Conflict(
                "this idempotency key was used for a different transfer; use a new key".into(),
            ));
        }
        return Ok(Transfer {
            id: t.id,
            kind: t.kind,
            amount: t.amount,
            memo: t.memo,
            created_at: t.created_at,
            replayed: true,
        });
    }
    let payer = locked.iter().find(|a| a.id == m.from).expect("both accounts are locked");
    if !payer.allow_negative && payer.balance < m.amount {
        return Err(insufficient(payer.balance, m.amount));
    }
    let id = Uuid::now_v7();
    let created_at = sqlx::query_scalar!(
        "INSERT INTO credit_transfers (id, idempotency_key, kind, memo, from_account, to_account, amount)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING created_at",
        id,
        m.key,
        m.kind,
        m.memo,
        m.from,
        m.to,
        m.amount
    )
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query!(
        "WITH moved AS (
             UPDATE credit_accounts SET balance = balance + CASE WHEN id = $2 THEN -$4::bigint ELSE $4::bigint END
              WHERE id IN ($2, $3) RETURNING id, balance)
         INSERT INTO credit_entries (transfer_id, account_id, amount, balance_after)
         SELECT $1, id, CASE WHEN id = $2 THEN -$4::bigint ELSE $4::bigint END, balance FROM moved",
        id,
        m.from,
        m.to,
        m.amount
    )
    .execute(&mut *conn)
    .await?;
    Ok(Transfer { id, kind: m.kind.to_string(), amount: m.amount, memo: m.memo, created_at, replayed: false })
}

fn insufficient(balance: i64, needed: i64) -> Error {
    Error::Exhausted {
        limit: miniclaw_core::error::Limit::Payment,
        code: "insufficient_credits",
        message: format!("this needs {needed} credits and the balance is {balance}"),
        retry_after_secs: None,
        reset_at: None,
    }
}

/// Grants credits from the issuance account to a tenant (404 for an unknown tenant).
pub async fn grant(
    conn: &mut PgConnection,
    tenant: TenantId,
    amount: i64,
    key: String,
    memo: Option<String>,
) -> Result<Transfer, Error> {
    if !crate::tenancy::accounts::tenant_exists(conn, tenant).await? {
        return Err(Error::not_found("tenant"));
    }
    let to = account(conn, Holder::Tenant(tenant)).await?;
    transfer(conn, Move { from: PLATFORM, to, amount, kind: "grant", memo, key }).await
}

/// One line of an account's statement.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Entry {
    pub id: i64,
    pub transfer_id: Uuid,
    pub kind: String,
    pub memo: Option<String>,
    /// Positive: credits in; negative: credits out.
    pub amount: i64,
    pub balance_after: i64,
    pub created_at: DateTime<Utc>,
}

/// An account's balance and its latest entries, newest first (before entry `before` if given).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Statement {
    pub account_id: Uuid,
    pub balance: i64,
    pub entries: Vec<Entry>,
}

pub async fn statement(
    conn: &mut PgConnection,
    holder: Holder,
    limit: i64,
    before: Option<i64>,
) -> sqlx::Result<Statement> {
    let account_id = account(conn, holder).await?;
    let balance = sqlx::query_scalar!("SELECT balance FROM credit_accounts WHERE id = $1", account_id)
        .fetch_one(&mut *conn)
        .await?;
    let entries = sqlx::query_as!(
        Entry,
        "SELECT e.id, e.transfer_id, t.kind, t.memo, e.amount, e.balance_after, e.created_at
           FROM credit_entries e JOIN credit_transfers t ON t.id = e.transfer_id
          WHERE e.account_id = $1 AND ($2::bigint IS NULL OR e.id < $2)
          ORDER BY e.id DESC LIMIT $3",
        account_id,
        before,
        limit
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(Statement { account_id, balance, entries })
}

/// The state of the books: the sum of every balance (always 0), the sum of every entry (always
/// 0), and how many transfers do not have exactly two entries summing to zero (always 0).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Books {
    pub accounts: i64,
    pub transfers: i64,
    pub balance_sum: i64,
    pub entry_sum: i64,
    pub unbalanced_transfers: i64,
    /// Credits in circulation: minus the issuance account's balance.
    pub issued: i64,
}

pub async fn books(conn: &mut PgConnection) -> sqlx::Result<Books> {
    let r = sqlx::query!(
        r#"SELECT (SELECT count(*) FROM credit_accounts) AS "accounts!",
                  (SELECT count(*) FROM credit_transfers) AS "transfers!",
                  (SELECT coalesce(sum(balance), 0)::bigint FROM credit_accounts) AS "balance_sum!",
                  (SELECT coalesce(sum(amount), 0)::bigint FROM credit_entries) AS "entry_sum!",
                  (SELECT count(*) FROM (SELECT t.id FROM credit_transfers t LEFT JOIN credit_entries e ON e.transfer_id = t.id
                     GROUP BY t.id HAVING count(e.id) <> 2 OR coalesce(sum(e.amount), 0) <> 0) u) AS "unbalanced!",
                  (SELECT -balance FROM credit_accounts WHERE id = $1) AS "issued!""#,
        PLATFORM
    )
    .fetch_one(&mut *conn)
    .await?;
    Ok(Books {
        accounts: r.accounts,
        transfers: r.transfers,
        balance_sum: r.balance_sum,
        entry_sum: r.entry_sum,
        unbalanced_transfers: r.unbalanced,
        issued: r.issued,
    })
}

/// Credits the agent received from tips, settled orders and paid calls, ever.
pub async fn revenue(conn: &mut PgConnection, agent: AgentId) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"SELECT coalesce(sum(e.amount), 0)::bigint AS "revenue!" FROM credit_entries e
             JOIN credit_transfers t ON t.id = e.transfer_id JOIN credit_accounts a ON a.id = e.account_id
            WHERE a.agent_id = $1 AND a.kind = 'agent' AND e.amount > 0 AND t.kind IN ('tip', 'order_settled', 'payment')"#,
        agent as _
    )
    .fetch_one(conn)
    .await
}
