//! The `miniclaw` command: server, worker and operator tools in one binary.

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::{Parser, Subcommand};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use miniclaw::app::{self, AppState};
use miniclaw::config::Config;
use miniclaw::db::{self, Database};
use miniclaw::jobs::Registry;
use miniclaw::jobs::worker::{Worker, run_cycle_now};
use miniclaw::{doctor, telemetry};

#[derive(Parser)]
#[command(name = "miniclaw", version, about = "Hosted persistent AI agents")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the API (and, unless MINICLAW_WORKER=false, the background worker).
    Serve,
    /// Run only the background worker.
    Worker,
    /// Apply pending database migrations.
    Migrate,
    /// Check the database, pgvector, migrations, model files, providers and the job queue.
    Doctor,
    /// Run one background cycle now and print the finished job.
    RunCycle {
        /// Cycle name (see `miniclaw cycles`).
        cycle: String,
        /// Agent id, for per-agent cycles.
        #[arg(long)]
        agent: Option<Uuid>,
    },
    /// List the background cycles.
    Cycles,
    /// Print the OpenAPI document (what `openapi/openapi.json` must contain).
    Openapi,
}

fn main() -> ExitCode {
    let cli = Cli::parse();

    // Commands that need neither configuration nor a database.
    match &cli.command {
        Command::Openapi => {
            print!("{}", miniclaw::api::openapi_json());
            return ExitCode::SUCCESS;
        }
        Command::Cycles => {
            for c in Registry::builtin().describe() {
                let every = c.interval_secs.map(|s| format!("every {s} s")).unwrap_or_else(|| "on demand".into());
                println!(
                    "{:<20} {:<9} {:<16} {}",
                    c.name,
                    format!("{:?}", c.scope).to_lowercase(),
                    every,
                    c.description
                );
            }
            return ExitCode::SUCCESS;
        }
        _ => {}
    }

    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("miniclaw: {e}");
            return ExitCode::from(2);
        }
    };
    telemetry::init_tracing(config.log_format);

    if let Command::Doctor = cli.command {
        return run_doctor(&config);
    }

    // The embedded cluster is started here, on the main thread, before the runtime exists:
    // its lifetime is tied to this thread.
    let database = match Database::open(&config) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("miniclaw: {e:#}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime().block_on(run(cli.command, config, &database));
    database.shutdown();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("miniclaw: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("tokio runtime")
}

async fn run(command: Command, config: Config, database: &Database) -> anyhow::Result<()> {
    let pool = database.pool(20).await?;
    db::migrate(&pool).await?;
    let registry = Arc::new(Registry::builtin());
    let config = Arc::new(config);

    match command {
        Command::Migrate => {
            let m = db::migration_status(&pool).await?;
            println!("migrations: {} applied, {} pending", m.applied, m.pending);
        }
        Command::Serve => {
            let cancel = CancellationToken::new();
            app::cancel_on_signals(cancel.clone());
            let listener = tokio::net::TcpListener::bind(config.addr)
                .await
                .with_context(|| format!("cannot listen on {} (MINICLAW_ADDR)", config.addr))?;
            let addr = listener.local_addr()?;
            print_banner(addr, database, &config);
            let state = AppState::new(pool.clone(), config.clone(), registry).await?;
            app::serve(listener, state, cancel).await?;
        }
        Command::Worker => {
            let cancel = CancellationToken::new();
            app::cancel_on_signals(cancel.clone());
            Worker::new(pool.clone(), registry, config.worker_concurrency, config.worker_poll).run(cancel).await?;
        }
        Command::RunCycle { cycle, agent } => {
            let job = run_cycle_now(&pool, &registry, &cycle, agent).await?;
            println!("{}", serde_json::to_string_pretty(&job)?);
            if job.status != "done" {
                anyhow::bail!("cycle {cycle} failed: {}", job.last_error.unwrap_or_default());
            }
        }
        Command::Doctor | Command::Openapi | Command::Cycles => unreachable!("handled before the database opens"),
    }
    pool.close().await;
    Ok(())
}

fn run_doctor(config: &Config) -> ExitCode {
    let database = Database::open(config).map_err(|e| format!("{e:#}"));
    let checks = runtime().block_on(doctor::checks(config, database.as_ref().map_err(|e| e.clone())));
    if let Ok(db) = database {
        db.shutdown();
    }
    if doctor::print(&checks) { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

fn print_banner(addr: std::net::SocketAddr, database: &Database, config: &Config) {
    let url = format!("http://{addr}");
    println!();
    println!("  miniclaw is running at {url}");
    println!("  API reference:  {url}/docs");
    println!("  health:         {url}/v1/gateway/health");
    match database {
        Database::Embedded(c) => println!(
            "  database:       embedded cluster in {} (psql -h {} -U postgres {})",
            c.pgdata().display(),
            c.socket_dir().display(),
            db::EMBEDDED_DB
        ),
        Database::External(_) => println!("  database:       DATABASE_URL"),
    }
    if config.admin_password.is_none() {
        println!("  admin routes:   disabled (set ADMIN_PASSWORD to enable)");
    }
    println!("  stop with Ctrl-C");
    println!();
}
