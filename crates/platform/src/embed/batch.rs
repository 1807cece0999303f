//! How the in-process model is served (SPEC B8): a bounded cache of recent vectors, and an
//! optional micro-batcher, in front of any `Embedder`.
//!
//! - The cache answers a text embedded recently from memory, keyed by the exact text (the model
//!   is fixed per `Served`), holding at most `capacity` vectors and forgetting the oldest first.
//!   Repeated questions, retried messages and re-read memories cost nothing.
//! - The micro-batcher queues small requests (fewer texts than `max`) for its workers, each
//!   running one pass at a time: requests that arrive while passes run go together in the next
//!   one, up to `max` texts (with `window` above zero a worker also waits that long for
//!   company). Requests of `max` texts or more (bulk imports, re-embedding) are batches already
//!   and go straight to the model. It is off by default (`MINICLAW_EMBED_BATCH`): on the
//!   standard machine concurrent single passes measured faster, since a pass of sentences of
//!   mixed lengths pays for its padding what it saves in larger products (docs/BENCHMARKS.md
//!   "B8").

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use tokio::sync::{mpsc, oneshot};

use super::Embedder;

/// An embedder behind the cache and the micro-batcher, each when configured.
pub struct Served {
    inner: Arc<dyn Embedder>,
    cache: Option<Cache>,
    batcher: Option<Batcher>,
}

/// Vectors of recently embedded texts, the oldest forgotten first.
struct Cache {
    capacity: usize,
    store: Mutex<Store>,
}

#[derive(Default)]
struct Store {
    vectors: HashMap<Arc<str>, Arc<[f32]>>,
    order: VecDeque<Arc<str>>,
}

type Reply = oneshot::Sender<anyhow::Result<Vec<Vec<f32>>>>;

struct Batcher {
    queue: mpsc::UnboundedSender<(Vec<String>, Reply)>,
    max: usize,
}

/// One worker per core (at most 8): a sentence-sized pass runs on one core, so two passes at
/// once fill two.
pub fn workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).min(8)
}

impl Served {
    pub fn new(inner: Arc<dyn Embedder>) -> Served {
        Served { inner, cache: None, batcher: None }
    }

    /// Keeps the vectors of up to `capacity` recent texts (0: none).
    pub fn cached(mut self, capacity: usize) -> Served {
        self.cache = (capacity > 0).then(|| Cache { capacity, store: Mutex::default() });
        self
    }

    /// Runs concurrent small requests together, at most `max` texts a pass (1: each alone), with
    /// `workers` passes at once. Starts the workers on the current runtime; they end when the
    /// `Served` is dropped.
    pub fn batched(mut self, max: usize, window: Duration, workers: usize) -> Served {
        if max <= 1 {
            self.batcher = None;
            return self;
        }
        let (queue, rx) = mpsc::unbounded_channel();
        let intake = Arc::new(tokio::sync::Mutex::new(Intake { rx, held: None }));
        for _ in 0..workers.max(1) {
            tokio::spawn(run(self.inner.clone(), intake.clone(), max, window));
        }
        self.batcher = Some(Batcher { queue, max });
        self
    }

    /// How many vectors the cache holds.
    pub fn cached_len(&self) -> usize {
        self.cache.as_ref().map_or(0, |c| c.store.lock().expect("embedding cache lock").vectors.len())
    }

    /// The model's vectors for `texts`, through the micro-batcher when there is one and the
    /// request is small.
    async fn compute(&self, texts: &[String]) -> anyhow::Result<Vec<Vec<f32>>> {
        match &self.batcher {
            Some(b) if !texts.is_empty() && texts.len() < b.max => {
                let (reply, answer) = oneshot::channel();
                b.queue
                    .send((texts.to_vec(), reply))
                    .map_err(|_| anyhow::anyhow!("the embedding batcher has stopped"))?;
                answer.await.map_err(|_| anyhow::anyhow!("the embedding batcher dropped a request"))?
            }
            _ => self.inner.embed(texts).await,
        }
    }
}

impl Cache {
    fn get(&self, texts: &[String]) -> Vec<Option<Vec<f32>>> {
        let store = self.store.lock().expect("embedding cache lock");
        texts.iter().map(|t| store.vectors.get(t.as_str()).map(|v| v.to_vec())).collect()
    }

    fn put(&self, texts: Vec<String>, vectors: &[Vec<f32>]) {
        let mut store = self.store.lock().expect("embedding cache lock");
        for (text, vector) in texts.into_iter().zip(vectors) {
            let text: Arc<str> = text.into();
            if store.vectors.contains_key(&text) {
                continue;
            }
            while store.vectors.len() >= self.capacity {
                let Some(oldest) = store.order.pop_front() else { break };
                store.vectors.remove(&oldest);
            }
            store.order.push_back(text.clone());
            store.vectors.insert(text, vector.as_slice().into());
        }
    }
}

impl Embedder for Served {
    fn model(&self) -> &str {
        self.inner.model()
    }
    fn dimensions(&self) -> usize {
        self.inner.dimensions()
    }
    fn embed<'a>(&'a self, texts: &'a [String]) -> BoxFuture<'a, anyhow::Result<Vec<Vec<f32>>>> {
        Box::pin(async move {
            let Some(cache) = &self.cache else { return self.compute(texts).await };
            let mut out = cache.get(texts);
            let missing: Vec<usize> = (0..texts.len()).filter(|&i| out[i].is_none()).collect();
            if !missing.is_empty() {
                // Each distinct text once, however often the request repeats it.
                let mut unique: Vec<String> = Vec::new();
                let mut slot: HashMap<&str, usize> = HashMap::new();
                for &i in &missing {
                    slot.entry(texts[i].as_str()).or_insert_with(|| {
                        unique.push(texts[i].clone());
                        unique.len() - 1
                    });
                }
                let vectors = self.compute(&unique).await?;
                anyhow::ensure!(
                    vectors.len() == unique.len(),
                    "the model returned {} vectors for {} texts",
                    vectors.len(),
                    unique.len()
                );
                for &i in &missing {
                    out[i] = Some(vectors[slot[texts[i].as_str()]].clone());
                }
                cache.put(unique, &vectors);
            }
            Ok(out.into_iter().map(|v| v.expect("every text has its vector")).collect())
        })
    }
}

/// The queue, shared by the workers: one of them at a time gathers its next batch.
struct Intake {
    rx: mpsc::UnboundedReceiver<(Vec<String>, Reply)>,
    /// A request that did not fit the last batch: first in the next.
    held: Option<(Vec<String>, Reply)>,
}

/// The next batch: the first request waiting (`None` once the queue is closed), then whatever
/// else is queued (or arrives within `window`) up to `max` texts.
async fn gather(intake: &mut Intake, max: usize, window: Duration) -> Option<Vec<(Vec<String>, Reply)>> {
    let first = match intake.held.take() {
        Some(r) => r,
        None => intake.rx.recv().await?,
    };
    let mut count = first.0.len();
    let mut batch = vec![first];
    let deadline = tokio::time::Instant::now() + window;
    while count < max {
        let next = match intake.rx.try_recv() {
            Ok(r) => Some(r),
            Err(mpsc::error::TryRecvError::Disconnected) => None,
            Err(mpsc::error::TryRecvError::Empty) if !window.is_zero() => {
                tokio::time::timeout_at(deadline, intake.rx.recv()).await.ok().flatten()
            }
            Err(mpsc::error::TryRecvError::Empty) => None,
        };
        let Some(next) = next else { break };
        if count + next.0.len() > max {
            // Its own pass, next: a batch never exceeds `max` texts.
            intake.held = Some(next);
            break;
        }
        count += next.0.len();
        batch.push(next);
    }
    Some(batch)
}

async fn run(inner: Arc<dyn Embedder>, intake: Arc<tokio::sync::Mutex<Intake>>, max: usize, window: Duration) {
    loop {
        let Some(batch) = gather(&mut *intake.lock().await, max, window).await else { return };
        let texts: Vec<String> = batch.iter().flat_map(|(t, _)| t.iter().cloned()).collect();
        let result = inner.embed(&texts).await.and_then(|v| {
            anyhow::ensure!(v.len() == texts.len(), "the model returned {} vectors for {} texts", v.len(), texts.len());
            Ok(v)
        });
        match result {
            Ok(vectors) => {
                let mut vectors = vectors.into_iter();
                for (t, reply) in batch {
                    let _ = reply.send(Ok(vectors.by_ref().take(t.len()).collect()));
                }
            }
            Err(e) => {
                let message = format!("{e:#}");
                for (_, reply) in batch {
                    let _ = reply.send(Err(anyhow::anyhow!(message.clone())));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A model that takes 20 ms a pass and records the size of each.
    #[derive(Default)]
    struct Slow {
        passes: Mutex<Vec<usize>>,
        fail: AtomicUsize,
    }

    impl Embedder for Slow {
        fn model(&self) -> &str {
            "slow"
        }
        fn dimensions(&self) -> usize {
            2
        }
        fn embed<'a>(&'a self, texts: &'a [String]) -> BoxFuture<'a, anyhow::Result<Vec<Vec<f32>>>> {
            Box::pin(async move {
                tokio::time::sleep(Duration::from_millis(20)).await;
                self.passes.lock().unwrap().push(texts.len());
                anyhow::ensure!(self.fail.load(Ordering::Relaxed) == 0, "the model is down");
                Ok(texts.iter().map(|t| vec![t.len() as f32, 1.0]).collect())
            })
        }
    }

    #[tokio::test]
    async fn concurrent_requests_share_passes_and_each_gets_its_own_vectors_in_order() {
        let slow = Arc::new(Slow::default());
        let batched = Arc::new(Served::new(slow.clone()).batched(8, Duration::ZERO, 1));
        let calls = (0..12).map(|i| {
            let b = batched.clone();
            tokio::spawn(async move {
                let texts: Vec<String> = (0..=(i % 2)).map(|j| "x".repeat(i * 10 + j)).collect();
                (texts.clone(), b.embed(&texts).await.unwrap())
            })
        });
        for call in futures::future::join_all(calls).await {
            let (texts, vectors) = call.unwrap();
            let lengths: Vec<f32> = vectors.iter().map(|v| v[0]).collect();
            assert_eq!(lengths, texts.iter().map(|t| t.len() as f32).collect::<Vec<_>>());
        }
        let passes = slow.passes.lock().unwrap().clone();
        assert_eq!(passes.iter().sum::<usize>(), 18, "every text once");
        assert!(passes.iter().all(|n| *n <= 8), "no pass above the cap: {passes:?}");
        assert!(passes.len() <= 5, "18 texts queued together take few passes: {passes:?}");

        // A request as large as the cap goes straight to the model.
        let big: Vec<String> = (0..8).map(|i| i.to_string()).collect();
        assert_eq!(batched.embed(&big).await.unwrap().len(), 8);
        // A failed pass fails each of its requests, and the next pass works again.
        slow.fail.store(1, Ordering::Relaxed);
        assert!(batched.embed(&["a".into()]).await.unwrap_err().to_string().contains("the model is down"));
        slow.fail.store(0, Ordering::Relaxed);
        assert_eq!(batched.embed(&["abc".into()]).await.unwrap(), vec![vec![3.0, 1.0]]);
    }

    #[tokio::test]
    async fn the_cache_answers_repeats_and_forgets_the_oldest_beyond_its_capacity() {
        let slow = Arc::new(Slow::default());
        let cached = Served::new(slow.clone()).cached(3);
        let texts = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let first = cached.embed(&texts(&["a", "bb", "a"])).await.unwrap();
        assert_eq!(first, vec![vec![1.0, 1.0], vec![2.0, 1.0], vec![1.0, 1.0]]);
        assert_eq!(*slow.passes.lock().unwrap(), vec![2], "a repeated text is embedded once");
        assert_eq!(cached.embed(&texts(&["bb", "a"])).await.unwrap(), vec![vec![2.0, 1.0], vec![1.0, 1.0]]);
        assert_eq!(slow.passes.lock().unwrap().len(), 1, "answered from the cache");
        cached.embed(&texts(&["ccc", "dddd"])).await.unwrap();
        assert_eq!(cached.cached_len(), 3, "bounded");
        cached.embed(&texts(&["a"])).await.unwrap();
        assert_eq!(*slow.passes.lock().unwrap(), vec![2, 2, 1], "the oldest (a) was forgotten");
        // Failures are not cached.
        slow.fail.store(1, Ordering::Relaxed);
        assert!(cached.embed(&texts(&["eeeee"])).await.is_err());
        slow.fail.store(0, Ordering::Relaxed);
        assert_eq!(cached.embed(&texts(&["eeeee"])).await.unwrap(), vec![vec![5.0, 1.0]]);
    }
}
