//! The `miniclaw` command: server, worker and operator tools in one binary.

use miniclaw::ids::{AgentId, TenantId};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::{Parser, Subcommand};
use tokio_util::sync::CancellationToken;

use miniclaw::activity::Origin;
use miniclaw::app::{self, AppState};
use miniclaw::config::Config;
use miniclaw::db::{self, Database};
use miniclaw::jobs::worker::{Worker, run_cycle_now};
use miniclaw::tenancy::auth::Actor;
use miniclaw::tenancy::auth::keys::{self, NewKey};
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
    /// Check the database, pgvector, migrations, model files, providers, the master key, the
    /// chain and the job queue.
    Doctor,
    /// Run one background cycle now and print the finished job.
    RunCycle {
        /// Cycle name (see `miniclaw cycles`).
        cycle: String,
        /// Agent id, for per-agent cycles.
        #[arg(long)]
        agent: Option<AgentId>,
    },
    /// List the background cycles.
    Cycles,
    /// Pause (`on`) or resume (`off`) model calls (chat and background work), globally or for one tenant.
    KillSwitch {
        #[arg(value_parser = ["on", "off"])]
        state: String,
        #[arg(long)]
        tenant: Option<TenantId>,
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// API keys: `miniclaw keys create --agent <id> --scopes chat:write,memories:read`.
    Keys {
        #[command(subcommand)]
        action: KeysCommand,
    },
    /// Print the OpenAPI document (what `openapi/openapi.json` must contain).
    Openapi,
}

#[derive(Subcommand)]
enum KeysCommand {
    /// Issue a key for an agent and print it (shown once).
    Create {
        #[arg(long)]
        agent: AgentId,
        /// Comma-separated scopes, e.g. `chat:write,memories:read` or `*`.
        #[arg(long, value_delimiter = ',')]
        scopes: Vec<String>,
        #[arg(long, default_value = "cli")]
        name: String,
    },
}

fn main() -> ExitCode {
    miniclaw::embed::minilm::one_thread_per_pass();
    let cli = Cli::parse();

    // Commands that need neither configuration nor a database.
    match &cli.command {
        Command::Openapi => {
            print!("{}", miniclaw::api::openapi_json());
            return ExitCode::SUCCESS;
        }
        Command::Cycles => {
            let mut cycles = miniclaw::cycles::builtin().describe();
            // Registered at run time with the embedder; listed here all the same.
            cycles.push(miniclaw::jobs::registry::CycleInfo::platform(
                miniclaw::memory::reembed::NAME,
                miniclaw::memory::reembed::INTERVAL.as_secs(),
                miniclaw::memory::reembed::DESCRIPTION,
            ));
            cycles.push(miniclaw::jobs::registry::CycleInfo::platform(
                miniclaw::tenancy::agents::PURGE_CYCLE,
                3600,
                miniclaw::tenancy::agents::PURGE_DESCRIPTION,
            ));
            cycles.push(miniclaw::jobs::registry::CycleInfo::platform(
                miniclaw::chat::PURGE_CYCLE,
                3600,
                miniclaw::chat::PURGE_DESCRIPTION,
            ));
            for c in cycles {
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
    if let Err(e) = telemetry::init_tracing(config.log_format) {
        eprintln!("miniclaw: {e}");
        return ExitCode::from(2);
    }

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
    telemetry::shutdown_tracing();
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
    // Behind a transaction pooler, what needs a session of its own uses direct connections.
    let session = database.session_pool(&pool).await?;
    db::migrate(&session).await?;
    let mut registry = miniclaw::cycles::builtin();
    if matches!(command, Command::Serve | Command::Worker | Command::RunCycle { .. }) {
        let replica = match command {
            Command::Serve => database.replica(&config)?.map(Arc::new),
            _ => None,
        };
        let deps =
            miniclaw::services(pool.clone(), &config).await?.with_session_pool(session.clone()).with_replica(replica);
        registry.register(miniclaw::memory::reembed::cycle(deps.embedder.clone()));
        registry.register(miniclaw::tenancy::agents::purge_cycle(config.agent_retention_days));
        registry.register(miniclaw::tenancy::closing::purge_cycle(config.account_grace_days));
        registry.register(miniclaw::chat::stream::sweep_cycle(config.stream_stale_secs));
        registry.register(miniclaw::chat::purge_cycle(config.caps.conversation_retention_days));
        registry.provide(deps);
    }
    let registry = Arc::new(registry);
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
            let deps = registry.deps().cloned().context("serve assembles the services first")?;
            let state = AppState::new(deps, config.clone(), registry).await?;
            let first_login = match database {
                Database::Embedded(_) => first_login(&state, &config).await?,
                Database::External { .. } => Vec::new(),
            };
            print_banner(addr, database, &config, &first_login);
            app::serve(listener, state, cancel).await?;
        }
        Command::Worker => {
            let cancel = CancellationToken::new();
            app::cancel_on_signals(cancel.clone());
            Worker::new(pool.clone(), registry, config.worker_concurrency, config.worker_poll)
                .with_listen_pool(session.clone())
                .with_lease(config.job_lease)
                .with_tenant_share(config.worker_tenant_share)
                .run(cancel)
                .await?;
        }
        Command::RunCycle { cycle, agent } => {
            let job = run_cycle_now(&pool, &registry, &cycle, agent).await?;
            println!("{}", serde_json::to_string_pretty(&job)?);
            if job.status != "done" {
                anyhow::bail!("cycle {cycle} failed: {}", job.last_error.unwrap_or_default());
            }
        }
        Command::Keys { action: KeysCommand::Create { agent, scopes, name } } => {
            let (name, scopes) =
                miniclaw::tenancy::auth::keys::validate_request(&name, &scopes, None).map_err(anyhow::Error::from)?;
            let tenant = miniclaw::tenancy::agents::tenant_of(&pool, agent).await?;
            let tenant = tenant.ok_or_else(|| anyhow::anyhow!("no agent {agent}"))?;
            let mut tx = pool.begin().await?;
            let new = NewKey {
                tenant_id: tenant,
                agent_id: agent,
                name: &name,
                scopes: &scopes,
                expires_at: None,
                created_by: "cli".into(),
                event: "key.issued",
                end_user: None,
                limits: keys::Limits::default(),
            };
            let (key, token) = keys::create(&mut tx, new, &Origin::new(Actor::Admin, None)).await?;
            tx.commit().await?;
            println!("{}", token.expose());
            eprintln!("key {} for agent {agent} with scopes {}; it is not shown again", key.id, key.scopes.join(","));
        }
        Command::KillSwitch { state, tenant, reason } => {
            let scope = tenant.map(|t| format!("tenant {t}")).unwrap_or_else(|| "all tenants".into());
            if state == "on" {
                miniclaw::llm::budget::kill(&pool, tenant, &reason).await?;
                println!("model calls paused for {scope}");
            } else if miniclaw::llm::budget::revive(&pool, tenant).await? {
                println!("model calls resumed for {scope}");
            } else {
                println!("the kill switch for {scope} was not on");
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

/// On the embedded database's first start there is nobody to sign in as: create an owner with
/// a random password and keep the credentials in the data dir (mode 0600). The banner names the
/// file, never the password: stdout ends up in logs and terminals' scrollback.
async fn first_login(state: &AppState, config: &Config) -> anyhow::Result<Vec<String>> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = config.data_dir.join("first-login.txt");
    let owners = miniclaw::tenancy::accounts::count_owners(state.pool()).await?;
    if owners == 0 {
        let email = "owner@miniclaw.local";
        let password = {
            use rand::Rng;
            let alphabet = b"abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ23456789";
            let mut rng = rand::rng();
            (0..16).map(|_| alphabet[rng.random_range(0..alphabet.len())] as char).collect::<String>()
        };
        let (owner, tenant) = miniclaw::tenancy::accounts::create_owner(
            state.pool(),
            email,
            password.clone(),
            Some("My workspace".into()),
            None,
            miniclaw::tenancy::accounts::NewTenant::from_config(config),
        )
        .await
        .map_err(|e| anyhow::anyhow!("creating the first owner: {e}"))?;
        // The operator made this account: it is established, its address taken as given.
        miniclaw::tenancy::verify::vouch(state.pool(), owner.id, tenant.id).await?;
        let mut f = std::fs::OpenOptions::new().create(true).truncate(true).write(true).mode(0o600).open(&file)?;
        std::io::Write::write_all(&mut f, format!("email: {email}\npassword: {password}\n").as_bytes())?;
        return Ok(vec![
            format!("first login:    {email}, password in {}", file.display()),
            "                (or create your own account at /signup)".to_string(),
        ]);
    }
    if file.exists() {
        return Ok(vec![format!("first login:    see {}", file.display())]);
    }
    Ok(Vec::new())
}

fn print_banner(addr: std::net::SocketAddr, database: &Database, config: &Config, extra: &[String]) {
    let url = format!("http://{addr}");
    println!();
    println!("  miniclaw is running at {url}");
    println!("  dashboard:      {url}/login");
    println!("  API reference:  {url}/docs");
    println!("  health:         {url}/v1/gateway/health");
    match database {
        Database::Embedded(c) => println!(
            "  database:       embedded cluster in {} (psql -h {} -U postgres {})",
            c.pgdata().display(),
            c.socket_dir().display(),
            db::EMBEDDED_DB
        ),
        Database::External { .. } => println!("  database:       DATABASE_URL"),
    }
    if config.admin_password.is_none() {
        println!("  admin routes:   disabled (set ADMIN_PASSWORD to enable)");
    }
    for line in extra {
        println!("  {line}");
    }
    println!("  stop with Ctrl-C");
    println!();
}
