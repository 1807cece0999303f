//! What sits in front of an in-process model (SPEC B8): a bounded cache of recent vectors, and a
//! micro-batcher that runs concurrent requests as one forward pass.
//!
//! - `Cached` answers a text it embedded recently from memory, keyed by the exact text (the
//!   model is fixed per wrapper), holding at most `capacity` vectors and forgetting the oldest
//!   first. Repeated questions, retried messages and re-read memories cost nothing.
//! - `Batched` queues small requests (fewer texts than `max`) for its workers (one pass each at
//!   a time). While the model runs a pass, requests that arrive wait in the queue and go
//!   together in the next one, up to `max` texts; with `window` above zero the worker also waits that long for company
//!   before a pass. A pass over many texts costs far less per text than one pass each (the
//!   matrix products are larger and keep both cores busy), so under load the model serves more
//!   texts per second, and an idle server adds no wait. Large requests (bulk imports,
//!   re-embedding) are batches already and go straight to the model.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use tokio::sync::{mpsc, oneshot};

use super::Embedder;

/// Vectors of recently embedded texts, the oldest forgotten first.
pub struct Cached {
    inner: Arc<dyn Embedder>,
    capacity: usize,
    store: Mutex<Store>,
}

#[derive(Default)]
struct Store {
    vectors: HashMap<Arc<str>, Arc<[f32]>>,
    order: VecDeque<Arc<str>>,
}

impl Cached {
    pub fn new(inner: Arc<dyn Embedder>, capacity: usize) -> Cached {
        Cached { inner, capacity, store: Mutex::default() }
    }

    /// How many vectors are held.
    pub fn len(&self) -> usize {
        self.store.lock().expect("embedding cache lock").vectors.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Embedder for Cached {
    fn model(&self) -> &str {
        self.inner.model()
    }
    fn dimensions(&self) -> usize {
        self.inner.dimensions()
    }
    fn embed<'a>(&'a self, texts: &'a [String]) -> BoxFuture<'a, anyhow::Result<Vec<Vec<f32>>>> {
        Box::pin(async move {
            let mut out: Vec<Option<Vec<f32>>> = {
                let store = self.store.lock().expect("embedding cache lock");
                texts.iter().map(|t| store.vectors.get(t.as_str()).map(|v| v.to_vec())).collect()
            };
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
                let vectors = self.inner.embed(&unique).await?;
                anyhow::ensure!(
                    vectors.len() == unique.len(),
                    "the model returned {} vectors for {}",
                    vectors.len(),
                    unique.len()
                );
                for &i in &missing {
                    out[i] = Some(vectors[slot[texts[i].as_str()]].clone());
                }
                let mut store = self.store.lock().expect("embedding cache lock");
                for (text, vector) in unique.into_iter().zip(vectors) {
                    let text: Arc<str> = text.into();
                    if self.capacity == 0 || store.vectors.contains_key(&text) {
                        continue;
                    }
                    while store.vectors.len() >= self.capacity {
                        let Some(oldest) = store.order.pop_front() else { break };
                        store.vectors.remove(&oldest);
                    }
                    store.order.push_back(text.clone());
                    store.vectors.insert(text, vector.into());
                }
            }
            Ok(out.into_iter().map(|v| v.expect("every text has its vector")).collect())
        })
    }
}

type Reply = oneshot::Sender<anyhow::Result<Vec<Vec<f32>>>>;

/// Concurrent small requests run together (see the module).
pub struct Batched {
    inner: Arc<dyn Embedder>,
    queue: mpsc::UnboundedSender<(Vec<String>, Reply)>,
    max: usize,
}

impl Batched {
    /// Starts `workers` worker tasks (on the current runtime), each running one pass at a time;
    /// they end when the `Batched` is dropped.
    pub fn new(inner: Arc<dyn Embedder>, max: usize, window: Duration, workers: usize) -> Batched {
        let (queue, rx) = mpsc::unbounded_channel();
        let intake = Arc::new(tokio::sync::Mutex::new(Intake { rx, held: None }));
        for _ in 0..workers.max(1) {
            tokio::spawn(run(inner.clone(), intake.clone(), max.max(1), window));
        }
        Batched { inner, queue, max: max.max(1) }
    }
}

/// One worker per core (at most 8): a pass keeps one core busy between its parallel matrix
/// products, so two passes at once fill two cores.
pub fn workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).min(8)
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
        match inner.embed(&texts).await {
            Ok(vectors) if vectors.len() == texts.len() => {
                let mut vectors = vectors.into_iter();
                for (t, reply) in batch {
                    let _ = reply.send(Ok(vectors.by_ref().take(t.len()).collect()));
                }
            }
            Ok(vectors) => {
                let message = format!("the model returned {} vectors for {} texts", vectors.len(), texts.len());
                batch.into_iter().for_each(|(_, reply)| {
                    let _ = reply.send(Err(anyhow::anyhow!(message.clone())));
                });
            }
            Err(e) => {
                let message = format!("{e:#}");
                batch.into_iter().for_each(|(_, reply)| {
                    let _ = reply.send(Err(anyhow::anyhow!(message.clone())));
                });
            }
        }
    }
}

impl Embedder for Batched {
    fn model(&self) -> &str {
        self.inner.model()
    }
    fn dimensions(&self) -> usize {
        self.inner.dimensions()
    }
    fn embed<'a>(&'a self, texts: &'a [String]) -> BoxFuture<'a, anyhow::Result<Vec<Vec<f32>>>> {
        Box::pin(async move {
            if texts.is_empty() {
                return Ok(Vec::new());
            }
            if texts.len() >= self.max {
                return self.inner.embed(texts).await;
            }
            let (reply, answer) = oneshot::channel();
            self.queue
                .send((texts.to_vec(), reply))
                .map_err(|_| anyhow::anyhow!("the embedding batcher has stopped"))?;
            answer.await.map_err(|_| anyhow::anyhow!("the embedding batcher dropped a request"))?
        })
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
        let batched = Arc::new(Batched::new(slow.clone(), 8, Duration::ZERO, 1));
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
        let cached = Cached::new(slow.clone(), 3);
        let texts = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let first = cached.embed(&texts(&["a", "bb", "a"])).await.unwrap();
        assert_eq!(first, vec![vec![1.0, 1.0], vec![2.0, 1.0], vec![1.0, 1.0]]);
        assert_eq!(*slow.passes.lock().unwrap(), vec![2], "a repeated text is embedded once");
        assert_eq!(cached.embed(&texts(&["bb", "a"])).await.unwrap(), vec![vec![2.0, 1.0], vec![1.0, 1.0]]);
        assert_eq!(slow.passes.lock().unwrap().len(), 1, "answered from the cache");
        cached.embed(&texts(&["ccc", "dddd"])).await.unwrap();
        assert_eq!(cached.len(), 3, "bounded");
        cached.embed(&texts(&["a"])).await.unwrap();
        assert_eq!(*slow.passes.lock().unwrap(), vec![2, 2, 1], "the oldest (a) was forgotten");
        // Failures are not cached.
        slow.fail.store(1, Ordering::Relaxed);
        assert!(cached.embed(&texts(&["eeeee"])).await.is_err());
        slow.fail.store(0, Ordering::Relaxed);
        assert_eq!(cached.embed(&texts(&["eeeee"])).await.unwrap(), vec![vec![5.0, 1.0]]);
    }
}
