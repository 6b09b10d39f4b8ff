//! Dynamic batching: requests for one operation (a *lane*, keyed by the
//! title the CLI's summary gives it) queue up; a batch is cut when it holds
//! `--max-batch` lines or its oldest request has waited `--max-wait-us`,
//! and runs as one engine call on a blocking thread, through the engine's
//! own backend choice (`auto` follows the calibration profile). Each lane
//! runs up to `--batches-in-flight` batches at a time; while they run, the
//! next one collects, so a busy GPU meets a larger batch when it is free
//! (Solana's sigverify stage coalesces packets the same way). Where a GPU
//! may run the batches two are in flight by default: one batch's host
//! work (parsing, packing, decoding, the answers' lines) then overlaps the
//! other's GPU call, which at a few hundred items is mostly the latency of
//! one thread's verification (the engine takes calls from many threads);
//! on the H200 one batch at a time reached 0.39 of the CLI path's
//! throughput (docs/bench/h200-2026-12-04b/serve.md). A CPU engine runs
//! one: a batch already takes every core.
//!
//! An engine without a GPU does not wait (unless `--max-wait-us` is given):
//! its cost per item does not fall
//! with the batch's size past a few items per core, so a lane whose engine
//! is idle runs what is queued at once, and under load a batch is whatever
//! queued while the previous one ran. Waiting there only idles the cores:
//! measured with `bench-serve` (64 clients of 1-16 lines, 2-vCPU VM),
//! Keccak-256 lines reached 0.14x of the CLI path's throughput with a
//! 2 ms wait and 0.39x with none.
//!
//! Admission is bounded: the lines and bytes accepted and not yet answered
//! across all lanes stay under `--queue-limit` and `--queue-bytes`; beyond
//! them a request is refused at once, never queued. A batch whose engine
//! call fails (a GPU fault) runs again on a CPU engine, and one failing
//! there too request by request: every request gets exactly one answer,
//! and a request the engine cannot answer fails alone.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use batchcrypto::{BackendChoice, Engine, Selection};
use tokio::sync::{Semaphore, mpsc, oneshot};

use super::Answered;
use super::metrics::{Metrics, Refusal};
use super::verb::{Output, Outputs, Payload, ServeVerb};

/// How long a batch that a GPU may run waits for more requests, unless
/// `--max-wait-us` says otherwise.
pub const DEFAULT_MAX_WAIT: Duration = Duration::from_millis(2);

/// The resolution of tokio's timer.
const TIMER_TICK: Duration = Duration::from_millis(1);

/// The batching limits (`serve`'s options).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Lines per batch at which it is cut at once.
    pub max_batch: usize,
    /// Longest wait of a batch's oldest request before it is cut; `None`
    /// for the default ([`DEFAULT_MAX_WAIT`] where a GPU may run the batch,
    /// no wait on a CPU-only engine).
    pub max_wait: Option<Duration>,
    /// Lines accepted and not yet answered, across operations.
    pub queue_items: usize,
    /// Request bytes accepted and not yet answered, across operations.
    pub queue_bytes: usize,
    /// Batches of one operation running at once; `None` for the default
    /// ([`GPU_IN_FLIGHT`] where a GPU may run the batches, else one).
    pub in_flight: Option<usize>,
}

/// Batches of one operation in flight by default where a GPU may run them.
pub const GPU_IN_FLIGHT: usize = 2;

/// Lines and bytes accepted and not yet answered.
#[derive(Debug, Default)]
pub struct Admission {
    items: AtomicUsize,
    bytes: AtomicUsize,
}

impl Admission {
    /// Takes room for a request, or returns false (the caller refuses it).
    fn try_take(&self, items: usize, bytes: usize, limits: &Limits) -> bool {
        if !take(&self.items, items, limits.queue_items) {
            return false;
        }
        if !take(&self.bytes, bytes, limits.queue_bytes) {
            self.items.fetch_sub(items, Ordering::AcqRel);
            return false;
        }
        true
    }

    fn give_back(&self, items: usize, bytes: usize) {
        self.items.fetch_sub(items, Ordering::AcqRel);
        self.bytes.fetch_sub(bytes, Ordering::AcqRel);
    }

    /// Lines and bytes now held.
    pub fn held(&self) -> (usize, usize) {
        (self.items.load(Ordering::Acquire), self.bytes.load(Ordering::Acquire))
    }
}

/// Adds `n` to `counter` unless that passes `limit`.
fn take(counter: &AtomicUsize, n: usize, limit: usize) -> bool {
    counter
        .fetch_update(Ordering::AcqRel, Ordering::Acquire, |held| {
            held.checked_add(n).filter(|&total| total <= limit)
        })
        .is_ok()
}

/// What a request gets back.
#[derive(Debug)]
pub enum Reply {
    /// The output lines, exactly as the CLI writes them, and what ran them.
    Answered(Answered),
    /// The request's one item was refused (`msm`: a bad point): why.
    Rejected(String),
    /// The deadline passed before the batch ran: nothing was computed.
    DeadlineExceeded,
    /// The engine failed on the batch and on the CPU fallback.
    Failed(String),
}

/// Why a request was not queued.
#[derive(Debug)]
pub enum NotQueued {
    /// Over the queue limits.
    Overloaded,
    /// The lane has stopped (the service is shutting down).
    Closed,
}

/// One queued request.
struct Job {
    payload: Payload,
    /// Its lines, or a binary verb's records.
    items: usize,
    bytes: usize,
    enqueued: Instant,
    deadline: Option<Instant>,
    reply: oneshot::Sender<Reply>,
}

/// What every lane shares: the engines, limits, admission and metrics.
pub struct Core {
    /// The engine requests run on.
    pub engine: Engine,
    /// Whether `engine` is a CPU engine already (no fallback needed).
    engine_is_cpu: bool,
    /// How long a batch's oldest request waits for more before it is
    /// cut: `--max-wait-us`, else none where no batch can run on a GPU (no
    /// adapter, or the CPU chosen; the module's doc says why), else
    /// [`DEFAULT_MAX_WAIT`].
    wait: Option<Duration>,
    /// Batches of one operation running at once (`--batches-in-flight`,
    /// else [`GPU_IN_FLIGHT`] where a GPU may run them, else one).
    in_flight: usize,
    /// The CPU engine a failed batch runs again on (built on first need).
    cpu: OnceLock<Option<Engine>>,
    threads: Option<usize>,
    /// The batching limits.
    pub limits: Limits,
    /// Lines and bytes in flight.
    pub admission: Admission,
    /// Counters for `/metrics`.
    pub metrics: Metrics,
}

impl Core {
    /// The core over `engine` (`backend` and `threads` as it was built).
    pub fn new(engine: Engine, backend: BackendChoice, threads: Option<usize>, limits: Limits) -> Core {
        let engine_is_cpu = backend == BackendChoice::Cpu;
        let cpu_only = engine_is_cpu || engine.gpu_adapter().is_none();
        Core {
            wait: batch_wait(limits.max_wait, cpu_only),
            in_flight: limits
                .in_flight
                .unwrap_or(if cpu_only { 1 } else { GPU_IN_FLIGHT })
                .max(1),
            engine,
            engine_is_cpu,
            cpu: OnceLock::new(),
            threads,
            limits,
            admission: Admission::default(),
            metrics: Metrics::default(),
        }
    }

    fn cpu_engine(&self) -> Option<&Engine> {
        self.cpu
            .get_or_init(|| crate::engine(BackendChoice::Cpu, self.threads).ok())
            .as_ref()
    }
}

/// How long a batch's oldest request waits for more: `--max-wait-us` when
/// given, else none on a CPU-only engine and [`DEFAULT_MAX_WAIT`] where a
/// GPU may run the batch.
fn batch_wait(max_wait: Option<Duration>, cpu_only: bool) -> Option<Duration> {
    max_wait.or((!cpu_only).then_some(DEFAULT_MAX_WAIT))
}

/// One operation's queue.
pub struct Lane {
    /// The operation's title (its batching key and metrics label).
    pub title: String,
    /// Whether each request is one item of the verb (`merkle`: a tree).
    pub whole: bool,
    /// Bytes per record of a binary verb; `None` for JSON Lines.
    pub record: Option<usize>,
    tx: mpsc::UnboundedSender<Job>,
}

impl Lane {
    /// Starts the lane's batching task on the current runtime.
    pub fn start(core: Arc<Core>, title: String, verb: Box<dyn ServeVerb>, whole: bool) -> Arc<Lane> {
        let (tx, rx) = mpsc::unbounded_channel();
        let record = verb.record();
        tokio::spawn(collect(core, title.clone(), Arc::from(verb), rx));
        Arc::new(Lane {
            title,
            whole,
            record,
            tx,
        })
    }

    /// Queues a request's input (`items` lines or records, `bytes` of
    /// request body) and returns where its reply will come; refused at once
    /// when the queue is full. The channel is unbounded because admission
    /// bounds what enters it.
    pub fn submit(
        &self,
        core: &Core,
        payload: Payload,
        items: usize,
        bytes: usize,
        deadline: Option<Instant>,
    ) -> Result<oneshot::Receiver<Reply>, NotQueued> {
        if !core.admission.try_take(items, bytes, &core.limits) {
            core.metrics.refused(Refusal::Overloaded);
            return Err(NotQueued::Overloaded);
        }
        let (reply, rx) = oneshot::channel();
        let job = Job {
            payload,
            items,
            bytes,
            enqueued: Instant::now(),
            deadline,
            reply,
        };
        self.tx.send(job).map_err(|e| {
            core.admission.give_back(e.0.items, e.0.bytes);
            NotQueued::Closed
        })?;
        Ok(rx)
    }
}

/// The lane's task: cuts batches and hands each to a blocking thread, up
/// to the core's batches in flight at a time.
async fn collect(core: Arc<Core>, title: String, verb: Arc<dyn ServeVerb>, mut rx: mpsc::UnboundedReceiver<Job>) {
    let running = Arc::new(Semaphore::new(core.in_flight));
    let mut next: Option<Job> = None;
    loop {
        let first = match next.take() {
            Some(job) => job,
            None => match rx.recv().await {
                Some(job) => job,
                None => break,
            },
        };
        // Without a wait (the CPU's default) the batch waits only for the
        // previous one (below). tokio's timer fires on the first
        // millisecond tick at or after its deadline, so the deadline is set
        // up to a tick early: the oldest request waits at most the wait,
        // not up to a millisecond more (a 2 ms wait lasted 2-3 ms).
        let cut_at = core
            .wait
            .map(|wait| first.enqueued + wait - wait.min(2 * TIMER_TICK) / 2);
        let mut lines = first.items;
        let mut jobs = vec![first];
        while let Some(cut_at) = cut_at
            && lines < core.limits.max_batch
        {
            // What is queued already joins without a timer; a passed
            // deadline cuts at once (tokio's timer ticks by the millisecond).
            match rx.try_recv() {
                Ok(job) => {
                    lines += job.items;
                    jobs.push(job);
                    continue;
                }
                Err(mpsc::error::TryRecvError::Disconnected) => break,
                Err(mpsc::error::TryRecvError::Empty) if Instant::now() >= cut_at => break,
                Err(mpsc::error::TryRecvError::Empty) => {}
            }
            tokio::select! {
                job = rx.recv() => match job {
                    Some(job) => {
                        lines += job.items;
                        jobs.push(job);
                    }
                    None => break,
                },
                () = tokio::time::sleep_until(cut_at.into()) => break,
            }
        }
        let Ok(permit) = Arc::clone(&running).acquire_owned().await else {
            break;
        };
        // What arrived while the earlier batches ran joins this one, up to
        // the cap; a request that would pass it starts the next batch.
        while lines < core.limits.max_batch {
            match rx.try_recv() {
                Ok(job) if lines + job.items <= core.limits.max_batch => {
                    lines += job.items;
                    jobs.push(job);
                }
                Ok(job) => {
                    next = Some(job);
                    break;
                }
                Err(_) => break,
            }
        }
        let (core, title, verb) = (Arc::clone(&core), title.clone(), Arc::clone(&verb));
        tokio::task::spawn_blocking(move || {
            run_batch(&core, &title, &*verb, jobs);
            drop(permit);
        });
    }
    // The channel is closed: wait for the batches still running.
    let _ = running.acquire_many(core.in_flight as u32).await;
}

/// Runs one batch and answers each of its requests once.
fn run_batch(core: &Core, title: &str, verb: &dyn ServeVerb, jobs: Vec<Job>) {
    let now = Instant::now();
    let (live, late): (Vec<Job>, Vec<Job>) = jobs.into_iter().partition(|job| job.deadline.is_none_or(|d| d > now));
    for job in late {
        core.admission.give_back(job.items, job.bytes);
        core.metrics.refused(Refusal::Deadline);
        let _ = job.reply.send(Reply::DeadlineExceeded);
    }
    if live.is_empty() {
        return;
    }
    let requests: Vec<&Payload> = live.iter().map(|job| &job.payload).collect();
    let batch_lines: usize = live.iter().map(|job| job.items).sum();
    let waited: Vec<Duration> = live.iter().map(|job| now - job.enqueued).collect();
    let (outputs, selection) = answers(core, title, verb, &requests);
    drop(requests);
    let backend = selection.map(|s| s.backend.to_string());
    // The lines metered are those answered (a request that failed alone
    // is not counted as work done).
    let answered_lines: usize = live
        .iter()
        .zip(&outputs)
        .filter(|(_, o)| o.is_ok())
        .map(|(job, _)| job.items)
        .sum();
    if answered_lines > 0 {
        core.metrics.batch(
            title,
            answered_lines,
            backend.as_deref().unwrap_or("none"),
            now.elapsed(),
            &waited,
        );
    }
    let binary = verb.record().is_some();
    for (job, output) in live.into_iter().zip(outputs) {
        core.admission.give_back(job.items, job.bytes);
        let _ = job.reply.send(match output {
            Ok(Ok(output)) => Reply::Answered(Answered {
                body: output.body,
                refused: output.refused,
                binary,
                backend: backend.clone(),
                batch_lines,
            }),
            Ok(Err(why)) => Reply::Rejected(why),
            Err(e) => Reply::Failed(e),
        });
    }
}

/// A request's answer: its output (or its one item's refusal), or why the
/// engine failed on it, and on the CPU fallback.
type Answer = Result<Result<Output, String>, String>;

/// Each request's answer, in order, and the backend that ran them. A
/// batch that fails on the engine runs again on a CPU engine; one that
/// fails there too runs request by request, so that a request the engine
/// cannot answer (an MSM it fails on) fails alone rather than taking its
/// batch with it.
fn answers(core: &Core, title: &str, verb: &dyn ServeVerb, requests: &[&Payload]) -> (Vec<Answer>, Option<Selection>) {
    let mut engine = &core.engine;
    let mut result = answer(verb, engine, requests);
    if result.is_err()
        && !core.engine_is_cpu
        && let Some(cpu) = core.cpu_engine()
    {
        core.metrics.fallback(title);
        engine = cpu;
        result = answer(verb, engine, requests);
    }
    match result {
        Ok((outputs, selection)) => (outputs.into_iter().map(Ok).collect(), selection),
        Err(e) if requests.len() == 1 => (vec![Err(e)], None),
        Err(_) => {
            let mut selection = None;
            let outputs = requests
                .iter()
                .map(|request| {
                    let (outputs, ran) = answer(verb, engine, std::slice::from_ref(request))?;
                    selection = ran.or(selection.take());
                    // `answer` checked that there is one output per request.
                    outputs
                        .into_iter()
                        .next()
                        .ok_or_else(|| "internal: no answer for the request".to_string())
                })
                .collect();
            (outputs, selection)
        }
    }
}

/// One engine call over the batch; a panic in it is an error, not the end
/// of the service.
fn answer(verb: &dyn ServeVerb, engine: &Engine, requests: &[&Payload]) -> Result<Outputs, String> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| verb.answer(engine, requests))) {
        Ok(Ok((bodies, selection))) if bodies.len() == requests.len() => Ok((bodies, selection)),
        Ok(Ok((bodies, _))) => Err(format!(
            "internal: {} answers for {} requests",
            bodies.len(),
            requests.len()
        )),
        Ok(Err(e)) => Err(e.0),
        Err(_) => Err("internal: the engine panicked on this batch".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A verb that fails (or panics) on the core's own engine, as a GPU
    /// fault would, and answers each line with its index on any other.
    struct FaultyOn<'a> {
        primary: &'a Engine,
        panic: bool,
        /// Fail on every engine.
        everywhere: bool,
        /// Fail on every engine when a request holds this line.
        poison: Option<&'static str>,
        calls: std::sync::atomic::AtomicUsize,
    }

    /// Each request's lines as its answer, one per line.
    fn echoed(requests: &[&Payload]) -> Result<Vec<Result<Output, String>>, crate::Fatal> {
        requests
            .iter()
            .map(|request| {
                let body = request
                    .lines()?
                    .iter()
                    .map(|l| format!("{}\n", l.as_deref().unwrap_or("?")))
                    .collect::<String>()
                    .into_bytes();
                Ok(Ok(Output {
                    body,
                    refused: Vec::new(),
                }))
            })
            .collect()
    }

    impl<'a> FaultyOn<'a> {
        /// Fails (with an error) on `primary` only.
        fn on(primary: &'a Engine) -> Self {
            FaultyOn {
                primary,
                panic: false,
                everywhere: false,
                poison: None,
                calls: Default::default(),
            }
        }
    }

    impl ServeVerb for FaultyOn<'_> {
        fn answer(&self, engine: &Engine, requests: &[&Payload]) -> Result<Outputs, crate::Fatal> {
            self.calls.fetch_add(1, Ordering::Relaxed);
            let poisoned = self.poison.is_some_and(|poison| {
                requests.iter().any(|r| {
                    r.lines()
                        .is_ok_and(|lines| lines.iter().any(|l| matches!(l.as_deref(), Ok(line) if line == poison)))
                })
            });
            if self.everywhere || poisoned || std::ptr::eq(engine, self.primary) {
                if self.panic {
                    panic!("device lost");
                }
                return Err(crate::Fatal("GPU: device lost".to_string()));
            }
            let outputs = echoed(requests)?;
            let selection = Selection {
                backend: batchcrypto::Backend::Cpu,
                why: "fallback".into(),
            };
            Ok((outputs, Some(selection)))
        }
    }

    #[test]
    fn only_a_batch_a_gpu_may_run_waits_unless_told_to() {
        let told = Some(Duration::from_micros(300));
        assert_eq!(batch_wait(None, true), None);
        assert_eq!(batch_wait(None, false), Some(DEFAULT_MAX_WAIT));
        assert_eq!(batch_wait(told, true), told);
        assert_eq!(batch_wait(told, false), told);
        // An engine built for the CPU has no adapter: it never waits.
        let engine = crate::engine(BackendChoice::Cpu, Some(1)).expect("engine");
        let limits = Limits {
            max_wait: None,
            ..LIMITS
        };
        assert_eq!(Core::new(engine, BackendChoice::Cpu, Some(1), limits).wait, None);
    }

    const LIMITS: Limits = Limits {
        max_batch: 10,
        max_wait: Some(Duration::from_millis(1)),
        queue_items: 100,
        queue_bytes: 1000,
        in_flight: None,
    };

    /// A verb that echoes each request's lines after a pause, counting the
    /// calls running at once and the most seen.
    #[derive(Default)]
    struct Slow {
        running: Arc<AtomicUsize>,
        most: Arc<AtomicUsize>,
    }

    impl ServeVerb for Slow {
        fn answer(&self, _: &Engine, requests: &[&Payload]) -> Result<Outputs, crate::Fatal> {
            let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
            self.most.fetch_max(now, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(50));
            self.running.fetch_sub(1, Ordering::SeqCst);
            let outputs = echoed(requests)?;
            Ok((outputs, None))
        }
    }

    /// A lane runs as many batches at once as its core allows, never more
    /// (a CPU engine one by default, a GPU engine [`GPU_IN_FLIGHT`]), and
    /// answers every request once with its own lines.
    #[test]
    fn a_lane_runs_its_batches_in_flight_and_no_more() {
        let engine = || crate::engine(BackendChoice::Cpu, Some(1)).expect("engine");
        assert_eq!(Core::new(engine(), BackendChoice::Cpu, Some(1), LIMITS).in_flight, 1);
        for in_flight in [1, 2, 3] {
            let limits = Limits {
                max_batch: 2,
                in_flight: Some(in_flight),
                ..LIMITS
            };
            let core = Arc::new(Core::new(engine(), BackendChoice::Cpu, Some(1), limits));
            let verb = Slow::default();
            let most = Arc::clone(&verb.most);
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_time()
                .build()
                .expect("runtime");
            let (jobs, _) = jobs(6);
            let bodies: Vec<Vec<u8>> = runtime.block_on(async {
                let lane = Lane::start(Arc::clone(&core), "op".to_string(), Box::new(verb), false);
                let replies: Vec<_> = jobs
                    .into_iter()
                    .map(|job| {
                        lane.submit(&core, job.payload, job.items, job.bytes, None)
                            .expect("queued")
                    })
                    .collect();
                let mut bodies = Vec::new();
                for reply in replies {
                    match reply.await {
                        Ok(Reply::Answered(a)) => bodies.push(a.body),
                        other => panic!("{other:?}"),
                    }
                }
                bodies
            });
            for (i, body) in bodies.iter().enumerate() {
                assert_eq!(*body, format!("r{i}a\nr{i}b\n").into_bytes(), "request {i}");
            }
            // Six batches of one request each (two lines: the cap), 50 ms
            // each, queued at once: the lane starts as many as it may.
            assert_eq!(most.load(Ordering::SeqCst), in_flight, "batches at once");
            assert_eq!(core.admission.held(), (0, 0));
        }
    }

    /// A core over a one-thread CPU engine; with `fallback`, built as a GPU
    /// engine's would be (a failed batch runs again on a CPU engine).
    fn core(fallback: bool) -> Core {
        let engine = crate::engine(BackendChoice::Cpu, Some(1)).expect("engine");
        let backend = if fallback {
            BackendChoice::Gpu
        } else {
            BackendChoice::Cpu
        };
        Core::new(engine, backend, Some(1), LIMITS)
    }

    fn jobs(n: usize) -> (Vec<Job>, Vec<oneshot::Receiver<Reply>>) {
        (0..n)
            .map(|i| {
                let (reply, rx) = oneshot::channel();
                let job = Job {
                    payload: Payload::Lines(vec![Ok(format!("r{i}a")), Ok(format!("r{i}b"))]),
                    items: 2,
                    bytes: 10,
                    enqueued: Instant::now(),
                    deadline: None,
                    reply,
                };
                (job, rx)
            })
            .unzip()
    }

    /// A batch whose engine fails (an error or a panic) runs again on the
    /// CPU: every request is answered once, with its own lines, and the
    /// fallback is counted.
    #[test]
    fn a_failed_batch_is_answered_once_from_the_cpu() {
        let limits = LIMITS;
        for panic in [false, true] {
            let core = core(true);
            let verb = FaultyOn {
                panic,
                ..FaultyOn::on(&core.engine)
            };
            let (jobs, mut replies) = jobs(3);
            assert!(core.admission.try_take(6, 30, &limits));
            run_batch(&core, "op", &verb, jobs);
            assert_eq!(verb.calls.load(Ordering::Relaxed), 2, "one try on each engine");
            for (i, rx) in replies.iter_mut().enumerate() {
                match rx.try_recv() {
                    Ok(Reply::Answered(a)) => {
                        assert_eq!(a.body, format!("r{i}a\nr{i}b\n").into_bytes());
                        assert_eq!(a.batch_lines, 6);
                        assert_eq!(a.backend.as_deref(), Some("cpu"));
                    }
                    other => panic!("request {i}: {other:?}"),
                }
            }
            assert_eq!(core.admission.held(), (0, 0), "everything given back");
            let text = core.metrics.render(0, 0, true);
            assert!(text.contains("batchcrypto_gpu_fallbacks_total{op=\"op\"} 1"), "{text}");
        }
    }

    /// When the CPU fails too, each request gets the failure, once.
    #[test]
    fn a_batch_failing_everywhere_is_answered_with_the_failure() {
        let limits = LIMITS;
        let core = core(true);
        let verb = FaultyOn {
            everywhere: true,
            ..FaultyOn::on(&core.engine)
        };
        let (jobs, mut replies) = jobs(2);
        assert!(core.admission.try_take(4, 20, &limits));
        run_batch(&core, "op", &verb, jobs);
        for rx in &mut replies {
            assert!(matches!(rx.try_recv(), Ok(Reply::Failed(e)) if e.contains("device lost")));
        }
        assert_eq!(core.admission.held(), (0, 0));
    }

    /// A request that fails on every engine fails alone: the others of its
    /// batch are answered (each request runs alone after the batch failed
    /// on both engines).
    #[test]
    fn a_request_failing_everywhere_fails_alone() {
        let limits = LIMITS;
        let core = core(true);
        let verb = FaultyOn {
            poison: Some("r1b"),
            ..FaultyOn::on(&core.engine)
        };
        let (jobs, mut replies) = jobs(3);
        assert!(core.admission.try_take(6, 30, &limits));
        run_batch(&core, "op", &verb, jobs);
        assert_eq!(
            verb.calls.load(Ordering::Relaxed),
            5,
            "the batch on each engine, then each request"
        );
        for (i, rx) in replies.iter_mut().enumerate() {
            match (i, rx.try_recv()) {
                (1, Ok(Reply::Failed(e))) => assert!(e.contains("device lost"), "{e}"),
                (0 | 2, Ok(Reply::Answered(a))) => {
                    assert_eq!(a.body, format!("r{i}a\nr{i}b\n").into_bytes());
                    assert_eq!(a.backend.as_deref(), Some("cpu"));
                }
                (i, other) => panic!("request {i}: {other:?}"),
            }
        }
        assert_eq!(core.admission.held(), (0, 0));
        // Metered: the two requests answered (two lines each), not the third.
        let text = core.metrics.render(0, 0, true);
        assert!(text.contains("batchcrypto_items_total{op=\"op\"} 4"), "{text}");
    }

    /// A deadline already passed: no engine call, the request told so.
    #[test]
    fn late_requests_are_not_run() {
        let limits = LIMITS;
        let core = core(false);
        let verb = FaultyOn::on(&core.engine);
        let (mut jobs, mut replies) = jobs(1);
        jobs[0].deadline = Some(Instant::now());
        assert!(core.admission.try_take(2, 10, &limits));
        run_batch(&core, "op", &verb, jobs);
        assert_eq!(verb.calls.load(Ordering::Relaxed), 0);
        assert!(matches!(replies[0].try_recv(), Ok(Reply::DeadlineExceeded)));
        assert_eq!(core.admission.held(), (0, 0));
    }

    #[test]
    fn admission_refuses_past_either_limit_and_gives_back() {
        let limits = LIMITS;
        let a = Admission::default();
        assert!(a.try_take(60, 100, &limits));
        assert!(!a.try_take(41, 100, &limits), "items over the limit");
        assert!(!a.try_take(1, 901, &limits), "bytes over the limit");
        assert_eq!(a.held(), (60, 100), "a refusal holds nothing");
        assert!(a.try_take(40, 900, &limits));
        a.give_back(60, 100);
        a.give_back(40, 900);
        assert_eq!(a.held(), (0, 0));
        assert!(!a.try_take(usize::MAX, 0, &limits), "no overflow");
    }
}
