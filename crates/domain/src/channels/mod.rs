//! Channels (SPEC O): outreach by email, notifications, proactive behaviours, Telegram, and
//! outbound webhooks.

pub mod notifications;
pub mod outreach;
pub mod proactive;
pub mod telegram;
pub mod webhooks;

/// An end user is erased (SPEC H2): what the channels keep of their conversations goes — the
/// proactive items raised in them, the Telegram chats bound to them, and the webhook
/// deliveries whose payload names them or one of their conversations or messages (the
/// delivery archive). In the caller's transaction; returns the deliveries deleted.
pub async fn forget_end_user(
    conn: &mut sqlx::PgConnection,
    agent: miniclaw_core::ids::AgentId,
    end_user: &str,
    conversations: &[uuid::Uuid],
    messages: &[uuid::Uuid],
) -> sqlx::Result<u64> {
    sqlx::query!(
        "DELETE FROM proactive_items WHERE agent_id = $1 AND (conversation_id = ANY($2) OR message_id = ANY($3))",
        agent as _,
        conversations,
        messages
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "DELETE FROM telegram_chats WHERE agent_id = $1 AND conversation_id = ANY($2)",
        agent as _,
        conversations
    )
    .execute(&mut *conn)
    .await?;
    let named: Vec<String> = conversations.iter().chain(messages).map(|id| format!("%{id}%")).collect();
    Ok(sqlx::query!(
        "DELETE FROM webhook_deliveries WHERE agent_id = $1 AND (data->>'end_user' = $2 OR data::text LIKE ANY($3))",
        agent as _,
        end_user,
        &named
    )
    .execute(&mut *conn)
    .await?
    .rows_affected())
}

/// An agent's account is purged (SPEC H2): its webhook deliveries (kept by agent, not by
/// endpoint) go with it. In the caller's transaction.
pub async fn forget_agent(conn: &mut sqlx::PgConnection, agent: miniclaw_core::ids::AgentId) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM webhook_deliveries WHERE agent_id = $1", agent as _).execute(conn).await?;
    Ok(())
}
