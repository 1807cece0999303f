//! Stage 1 and 2 of dedup (001 §5.3) and storing what survives: exact text, then vectors, then
//! one `dedup` call for the rest; the recall-loop guard, tombstones and the insight cap.

use miniclaw_core::ids::{AgentId, MemoryId};
use serde_json::Value;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::memory::hygiene::Injected;
use crate::memory::{self, Candidate, Judged, MemorySource, NewMemory, Newest, Remembered};
use crate::tenancy::auth::Actor;
use miniclaw_platform::activity::Origin;
use miniclaw_platform::llm::roles::{Dedup, Exchange, Extraction, Transcript};
use miniclaw_platform::llm::{CallContext, ChatRequest, Gateway};

use super::parse::{Extracted, parse_extraction};
use super::*;
use super::{FlushReport, Said};

/// Stage 2: one call for every remaining candidate. Returns `(decision, index)` per candidate;
/// a failed or malformed answer treats them all as new (the write path still dedups exact and
/// near copies).
async fn classify(
    llm: &Gateway,
    ctx: &CallContext,
    candidates: &[String],
    existing: &[String],
) -> Vec<(String, Option<usize>)> {
    let req = ChatRequest::from_input(Dedup { candidates: candidates.to_vec(), existing: existing.to_vec() });
    let fallback = || candidates.iter().map(|_| ("new".to_string(), None)).collect();
    let Ok(r) = llm.complete(ctx, req).await else { return fallback() };
    let Ok(v) = serde_json::from_str::<Value>(r.content.trim()) else { return fallback() };
    let Some(ds) = v.get("decisions").and_then(Value::as_array).filter(|d| d.len() == candidates.len()) else {
        return fallback();
    };
    ds.iter()
        .map(|d| {
            let decision = d.get("decision").and_then(Value::as_str).unwrap_or("new");
            let index = d.get("index").and_then(Value::as_u64).map(|i| i as usize).filter(|i| *i < existing.len());
            match (decision, index) {
                ("duplicate", Some(i)) => ("duplicate".into(), Some(i)),
                ("update", Some(i)) => ("update".into(), Some(i)),
                _ => ("new".into(), None),
            }
        })
        .collect()
}

/// Extracts facts and insights from `said` and stores what survives dedup, in `tx`. Facts are
/// dated by the newest statement of the batch (`occurred_at`). Everything `said` was said by
/// `end_user` (`None`: the owner, or no end user): what is learned is theirs (SPEC H1), read
/// beside the agent's own knowledge and compared only with what they said before.
#[expect(clippy::too_many_arguments, reason = "one batch of one person, with its services")]
pub(crate) async fn extract_and_store(
    tx: &mut PgConnection,
    llm: &Gateway,
    embedder: &dyn miniclaw_platform::embed::Embedder,
    ctx: &CallContext,
    agent_id: AgentId,
    end_user: Option<&str>,
    queued: &[Said],
    report: &mut FlushReport,
) -> anyhow::Result<()> {
    let reader = end_user.map_or(memory::Reader::Agent, |u| memory::Reader::EndUser(u.to_string()));
    let learned = Newest {
        sources: &memory::LEARNED_SOURCES,
        except_categories: &["insight"],
        reader: Some(&reader),
        ..Newest::default()
    };
    let recent_facts: Vec<String> =
        memory::newest(tx, agent_id, learned, RECENT_FACTS).await?.into_iter().map(|m| m.content).collect();
    let recent_insights = memory::recent_insights(tx, agent_id, &reader, RECENT_INSIGHTS).await?;
    let input = Extraction {
        known_facts: recent_facts,
        known_insights: recent_insights,
        focus: queued.iter().filter_map(|q| q.save_hint.clone()).collect(),
        transcript: Transcript::Turns(
            queued.iter().map(|q| Exchange { user: q.content.clone(), assistant: q.reply.clone() }).collect(),
        ),
    };
    let req = ChatRequest::from_input(input).max_tokens(2500);
    let answer = llm.complete(ctx, req).await?;
    let extracted = parse_extraction(&answer.content)?;
    let facts = extracted.iter().filter(|e| !e.insight).count();
    report.facts += facts;
    report.insights += extracted.len() - facts;
    if extracted.is_empty() {
        return Ok(());
    }
    // The newest statement time of the batch: tombstones laid before it do not hold (R6b).
    let stated_at = queued.iter().map(|q| q.created_at).max();
    // The recall-loop guard compares with everything injected into these turns (R6a).
    let injected_ids: Vec<Uuid> = queued.iter().flat_map(|q| q.injected.iter().copied()).collect();
    let injected_rows = memory::contents_and_vectors(tx, agent_id, &injected_ids).await?;
    let injected: Vec<Injected<'_>> =
        injected_rows.iter().map(|(content, v)| Injected { content, embedding: v.as_deref() }).collect();

    let texts: Vec<String> = extracted.iter().map(|e| e.content.clone()).collect();
    let vectors: Vec<Option<Vec<f32>>> = match embedder.embed(&texts).await {
        Ok(vs) => vs.into_iter().map(Some).collect(),
        Err(e) => {
            tracing::warn!(error = %e, "embedding extracted facts failed; stored without vectors");
            texts.iter().map(|_| None).collect()
        }
    };
    let model = embedder.model().to_string();
    let origin = Origin::new(Actor::Job("extraction".into()), None);

    // Stage 1: memory's duplicate policy, before the judge (near-verbatim copies only).
    let mut remaining: Vec<(Extracted, Option<Vec<f32>>)> = Vec::new();
    for (e, v) in extracted.into_iter().zip(vectors) {
        let vector = v.as_deref().map(|v| (v, model.as_str()));
        let same = memory::duplicate_of(tx, agent_id, end_user, &e.content, &e.category, vector, Judged::No).await?;
        match same {
            Some(id) => {
                memory::reinforce(tx, id, &origin).await?;
                report.buckets.exact_match += 1;
                report.reinforced += 1;
            }
            None => remaining.push((e, v)),
        }
    }
    if remaining.is_empty() {
        return Ok(());
    }

    // Stage 2: one model call for the rest, against the agent's live facts.
    // (id, content, whether a learned memory may replace it: not the owner's or a miniapp's).
    let existing: Vec<(MemoryId, String, bool)> = memory::recently_updated_facts(tx, agent_id, end_user, 50)
        .await?
        .into_iter()
        .map(|(id, content, source, pinned)| {
            let authoritative = source.parse().is_ok_and(memory::supersede::authoritative);
            (id, content, !pinned && !authoritative)
        })
        .collect();
    let decisions: Vec<(String, Option<usize>)> = if existing.is_empty() {
        report.buckets.no_existing += remaining.len() as u32;
        remaining.iter().map(|_| ("new".to_string(), None)).collect()
    } else {
        let candidates: Vec<String> = remaining.iter().map(|(e, _)| e.content.clone()).collect();
        let texts: Vec<String> = existing.iter().map(|(_, c, _)| c.clone()).collect();
        let d = classify(llm, ctx, &candidates, &texts).await;
        for (decision, _) in &d {
            match decision.as_str() {
                "duplicate" => report.buckets.llm_duplicate += 1,
                "update" => report.buckets.llm_update += 1,
                _ => report.buckets.llm_new += 1,
            }
        }
        d
    };
    for ((e, v), (decision, index)) in remaining.into_iter().zip(decisions) {
        let embedding = v.map(|v| (v, model.clone()));
        match (decision.as_str(), index) {
            ("duplicate", Some(i)) => {
                memory::reinforce(tx, existing[i].0, &origin).await?;
                report.reinforced += 1;
            }
            // The newer statement replaces the older (R7): a new memory with an `updates`
            // relation, the old one out of search but in history. Owner and miniapp memories
            // and pinned ones stay authoritative: the statement is stored beside them.
            ("update", Some(i)) if existing[i].2 => {
                let mut new = NewMemory::new(&e.content, &e.category, MemorySource::Conversation);
                new.confidence = e.confidence;
                new.importance = e.importance.unwrap_or(new.importance);
                new.embedding = embedding;
                new.occurred_at = stated_at;
                new.end_user = end_user.map(str::to_string);
                let created =
                    memory::create(tx, agent_id, &origin, new, Some("extracted")).await.map_err(anyhow::Error::from)?;
                let reason = "the dedup model judged it a newer value of the same fact";
                memory::supersede::link(tx, agent_id, &origin, created.id, existing[i].0, reason)
                    .await
                    .map_err(anyhow::Error::from)?;
                report.updated += 1;
            }
            _ => {
                let mut new = NewMemory::new(
                    &e.content,
                    &e.category,
                    if e.insight { MemorySource::Derived } else { MemorySource::Conversation },
                );
                new.confidence = e.confidence;
                new.importance = e.importance.unwrap_or(if e.insight { 4.0 } else { new.importance });
                new.embedding = embedding;
                new.occurred_at = if e.insight { None } else { stated_at };
                new.end_user = end_user.map(str::to_string);
                let candidate = Candidate { memory: new, stated_at: if e.insight { None } else { stated_at } };
                match memory::remember(tx, agent_id, &origin, candidate, &injected)
                    .await
                    .map_err(anyhow::Error::from)?
                {
                    Remembered::Created(_) => report.created += 1,
                    Remembered::Reinforced(_) => report.reinforced += 1,
                    Remembered::Suppressed(_) => report.suppressed += 1,
                }
            }
        }
    }
    evict_insights(tx, agent_id, &origin).await?;
    Ok(())
}

/// Keeps at most 50 active derived insights: the least recently updated are deleted.
async fn evict_insights(tx: &mut PgConnection, agent_id: AgentId, origin: &Origin) -> anyhow::Result<()> {
    let surplus = memory::derived_insights_beyond(tx, agent_id, INSIGHT_CAP).await?;
    for id in surplus {
        memory::delete(tx, agent_id, id, origin, Some("insight cap of 50 reached; the oldest goes"))
            .await
            .map_err(anyhow::Error::from)?;
    }
    Ok(())
}
