//! The embedded PostgreSQL cluster (SPEC F3): without `DATABASE_URL`, miniclaw runs a private
//! cluster under `MINICLAW_DATA_DIR/pg` with the system's `initdb` and `postgres` binaries.
//!
//! The cluster listens only on a Unix socket (no TCP port to collide with), runs in its own
//! process group so a terminal's Ctrl-C reaches miniclaw first, and is asked to stop when
//! miniclaw exits. If miniclaw dies without running its shutdown, the kernel sends the
//! postmaster SIGINT (parent-death signal), so no cluster is left running.

use std::fs;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use nix::sys::signal::{Signal, kill};
use nix::unistd::{Pid, User, chown};
use sqlx::postgres::PgConnectOptions;

const PORT: u16 = 5432;
const SUPERUSER: &str = "postgres";

pub struct EmbeddedCluster {
    pgdata: PathBuf,
    socket_dir: PathBuf,
    /// The postmaster we started; `None` when we attached to one another miniclaw runs.
    child: Option<Child>,
}

impl EmbeddedCluster {
    /// Creates the cluster on first use, then starts it (or attaches to the running one).
    pub fn start(data_dir: &Path) -> anyhow::Result<Self> {
        fs::create_dir_all(data_dir)
            .with_context(|| format!("cannot create MINICLAW_DATA_DIR {}", data_dir.display()))?;
        let data_dir = data_dir.canonicalize()?;
        let pgdata = data_dir.join("pg");
        let bin = pg_bin_dir()?;
        let run_as = service_user()?;
        let socket_dir = socket_dir_for(&data_dir);
        fs::create_dir_all(&socket_dir)?;
        give_to(&socket_dir, run_as.as_ref(), 0o700)?;

        if !pgdata.join("PG_VERSION").exists() {
            tracing::info!(pgdata = %pgdata.display(), "creating the embedded PostgreSQL cluster");
            fs::create_dir_all(&pgdata)?;
            give_to(&pgdata, run_as.as_ref(), 0o700)?;
            let log = log_file(&data_dir)?;
            let status = command(&bin.join("initdb"), run_as.as_ref())
                .args(["-D"])
                .arg(&pgdata)
                .args(["-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--locale=C"])
                .stdout(log.try_clone()?)
                .stderr(log)
                .status()
                .context("could not run initdb")?;
            if !status.success() {
                let hint =
                    if run_as.is_some() { " (the `postgres` user must be able to reach this directory)" } else { "" };
                bail!("initdb failed{hint}:\n{}", log_tail(&data_dir));
            }
        }

        if let Some(pid) = running_postmaster(&pgdata) {
            if socket_dir.join(format!(".s.PGSQL.{PORT}")).exists() {
                tracing::info!(pid, "attaching to the embedded cluster another miniclaw process runs");
                return Ok(EmbeddedCluster { pgdata, socket_dir, child: None });
            }
            bail!(
                "the embedded cluster in {} is run by process {pid} with another socket; stop it first",
                pgdata.display()
            );
        }

        let log = log_file(&data_dir)?;
        let mut cmd = command(&bin.join("postgres"), run_as.as_ref());
        cmd.arg("-D")
            .arg(&pgdata)
            .args(["-c", "listen_addresses=", "-c"])
            .arg(format!("unix_socket_directories={}", socket_dir.display()))
            .args(["-c", &format!("port={PORT}")])
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .process_group(0);
        // SAFETY: prctl is async-signal-safe; it runs in the forked child before exec, after
        // the uid change (which would otherwise clear the parent-death signal).
        unsafe {
            cmd.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGINT) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().context("could not start postgres")?;
        let mut cluster = EmbeddedCluster { pgdata, socket_dir, child: Some(child) };
        cluster.wait_ready(&bin, &data_dir)?;
        tracing::info!(socket = %cluster.socket_dir.display(), "embedded PostgreSQL is up");
        Ok(cluster)
    }

    fn wait_ready(&mut self, bin: &Path, data_dir: &Path) -> anyhow::Result<()> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(child) = self.child.as_mut()
                && let Some(status) = child.try_wait()?
            {
                bail!("postgres exited during start-up ({status}):\n{}", log_tail(data_dir));
            }
            let ready = Command::new(bin.join("pg_isready"))
                .arg("-q")
                .arg("-h")
                .arg(&self.socket_dir)
                .args(["-p", &PORT.to_string()])
                .status()
                .map(|s| s.success())
                .unwrap_or(false);
            if ready {
                return Ok(());
            }
            if Instant::now() > deadline {
                bail!("postgres did not become ready within 60 s:\n{}", log_tail(data_dir));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn connect_options(&self, database: &str) -> PgConnectOptions {
        PgConnectOptions::new().socket(&self.socket_dir).port(PORT).username(SUPERUSER).database(database)
    }

    pub fn socket_dir(&self) -> &Path {
        &self.socket_dir
    }

    pub fn pgdata(&self) -> &Path {
        &self.pgdata
    }

    /// Creates `database` if it does not exist yet.
    pub async fn ensure_database(&self, database: &str) -> anyhow::Result<()> {
        use sqlx::Connection;
        let mut conn = sqlx::PgConnection::connect_with(&self.connect_options("postgres")).await?;
        let exists: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
            .bind(database)
            .fetch_one(&mut conn)
            .await?;
        if !exists {
            // Identifiers cannot be bound; the name is a constant of ours, quoted anyway.
            sqlx::query(&format!("CREATE DATABASE \"{}\"", database.replace('"', ""))).execute(&mut conn).await?;
        }
        conn.close().await?;
        Ok(())
    }

    /// Fast shutdown: active sessions are ended, data is flushed. Waits up to 30 s.
    pub fn stop(mut self) {
        self.stop_inner();
    }

    fn stop_inner(&mut self) {
        let Some(mut child) = self.child.take() else { return };
        let pid = Pid::from_raw(child.id() as i32);
        let _ = kill(pid, Signal::SIGINT);
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            match child.try_wait() {
                Ok(Some(_)) => {
                    tracing::info!("embedded PostgreSQL stopped");
                    return;
                }
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(50)),
                _ => {
                    tracing::warn!("embedded PostgreSQL did not stop in time; sending SIGQUIT");
                    let _ = kill(pid, Signal::SIGQUIT);
                    let _ = child.wait();
                    return;
                }
            }
        }
    }
}

impl Drop for EmbeddedCluster {
    fn drop(&mut self) {
        self.stop_inner();
    }
}

/// The directory holding `initdb`/`postgres`: `MINICLAW_PG_BIN`, else the newest
/// `/usr/lib/postgresql/*/bin`, else whatever `PATH` finds.
fn pg_bin_dir() -> anyhow::Result<PathBuf> {
    if let Ok(dir) = std::env::var("MINICLAW_PG_BIN") {
        return Ok(PathBuf::from(dir));
    }
    let mut candidates: Vec<(u32, PathBuf)> = fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let v: u32 = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((v, bin))
        })
        .collect();
    candidates.sort();
    if let Some((_, bin)) = candidates.pop() {
        return Ok(bin);
    }
    for dir in std::env::var("PATH").unwrap_or_default().split(':') {
        let p = Path::new(dir);
        if p.join("initdb").exists() && p.join("postgres").exists() {
            return Ok(p.to_path_buf());
        }
    }
    bail!("no PostgreSQL server binaries (initdb, postgres) found; run `scripts/setup.sh` or set DATABASE_URL")
}

/// PostgreSQL refuses to run as root; when we are root, the cluster runs as `postgres`.
fn service_user() -> anyhow::Result<Option<User>> {
    if !nix::unistd::geteuid().is_root() {
        return Ok(None);
    }
    match User::from_name(SUPERUSER)? {
        Some(u) => Ok(Some(u)),
        None => bail!(
            "running as root needs a `postgres` system user for the embedded cluster (install postgresql or set DATABASE_URL)"
        ),
    }
}

fn command(program: &Path, run_as: Option<&User>) -> Command {
    let mut cmd = Command::new(program);
    if let Some(u) = run_as {
        cmd.uid(u.uid.as_raw()).gid(u.gid.as_raw());
        cmd.env("HOME", &u.dir);
    }
    cmd
}

fn give_to(path: &Path, user: Option<&User>, mode: u32) -> anyhow::Result<()> {
    if let Some(u) = user {
        chown(path, Some(u.uid), Some(u.gid)).with_context(|| format!("cannot chown {}", path.display()))?;
    }
    fs::set_permissions(path, fs::Permissions::from_mode(mode))?;
    Ok(())
}

/// Unix socket paths are limited to ~107 bytes; long data dirs get a short one under /tmp.
fn socket_dir_for(data_dir: &Path) -> PathBuf {
    let preferred = data_dir.join("run");
    if preferred.as_os_str().len() + ".s.PGSQL.5432".len() + 1 < 100 {
        return preferred;
    }
    use sha2::Digest;
    let digest = sha2::Sha256::digest(data_dir.as_os_str().as_encoded_bytes());
    let short: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
    std::env::temp_dir().join(format!("miniclaw-{short}"))
}

fn log_file(data_dir: &Path) -> anyhow::Result<fs::File> {
    Ok(fs::OpenOptions::new().create(true).append(true).open(data_dir.join("pg.log"))?)
}

fn log_tail(data_dir: &Path) -> String {
    let mut s = String::new();
    if let Ok(mut f) = fs::File::open(data_dir.join("pg.log")) {
        let _ = f.read_to_string(&mut s);
    }
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(15)..].join("\n")
}

/// The pid in `postmaster.pid`, if that process is alive.
fn running_postmaster(pgdata: &Path) -> Option<i32> {
    let text = fs::read_to_string(pgdata.join("postmaster.pid")).ok()?;
    let pid: i32 = text.lines().next()?.trim().parse().ok()?;
    kill(Pid::from_raw(pid), None).ok().map(|_| pid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_data_dirs_get_a_short_socket_dir() {
        let short = socket_dir_for(Path::new("/srv/miniclaw"));
        assert_eq!(short, PathBuf::from("/srv/miniclaw/run"));
        let long = PathBuf::from(format!("/{}", "x".repeat(120)));
        let dir = socket_dir_for(&long);
        assert!(dir.as_os_str().len() < 60, "{}", dir.display());
        assert_eq!(dir, socket_dir_for(&long), "stable for the same data dir");
    }
}
