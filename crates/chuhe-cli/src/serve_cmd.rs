//! `chuhe serve` (the site) and `chuhe user` (its administrator's accounts) over
//! chuhe-server.

use std::io::BufRead;
use std::sync::Arc;
use std::time::Duration;

use chuhe_server::store::{self, Store};
use chuhe_server::user::Users;
use clap::{Args, Subcommand, ValueEnum};

use crate::output::{CliError, Output};

/// Who may make an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Signup {
    /// Anyone, from the page.
    Open,
    /// Only the administrator, with `chuhe user create` (a club's own site).
    Closed,
}

/// `chuhe serve`'s flags.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on (loopback unless told otherwise).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// The database: a SQLite file (created on first start) or a postgres:// URL.
    #[arg(long, default_value = "chuhe-games.sqlite3")]
    db: String,
    /// The engine's thinking time per move, in milliseconds (10–60000).
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(10..=60_000))]
    engine_movetime: u64,
    /// An origin whose pages may change games (https://chuhe.example), repeatable; by
    /// default only the server's own (as the request's Host names it).
    #[arg(long = "allowed-origin", value_name = "ORIGIN")]
    allowed_origins: Vec<String>,
    /// The seconds each side has for its first move, in games with clocks and games between
    /// people (a side's clock starts only with that move); a game where a side does not
    /// move in time is aborted (1–86400).
    #[arg(long, value_name = "SECONDS", default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    abort_after: u64,
    /// The engine's worker threads: this many searches run at once, other games wait
    /// their turn in a queue (default: the number of cores; 1–256).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    engine_threads: Option<u16>,
    /// Seconds after which a game nobody uses (no request, no open page, no search, no
    /// running clock) is dropped from memory; it is read from the database when asked
    /// for again (1–86400).
    #[arg(long, value_name = "SECONDS", default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    idle_after: u64,
    /// In a game between people without clocks: seconds the player to move may have no page
    /// of the game open before losing it as left (10–604800). Games with clocks end by the
    /// clock instead.
    #[arg(long, value_name = "SECONDS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(10..=604_800))]
    abandon_after: u64,
    /// New games (created or imported) a minute from one client address; more are
    /// answered 429 with Retry-After (0: no limit).
    #[arg(long, value_name = "N", default_value_t = chuhe_server::app::DEFAULT_GAMES_PER_MINUTE)]
    games_per_minute: u32,
    /// Count clients by the last X-Forwarded-For entry, which the load balancer in front
    /// appends (only behind a balancer that sets it: clients could name any address).
    #[arg(long)]
    trust_forwarded_for: bool,
    /// Who may make an account: anyone (open), or only the administrator with
    /// `chuhe user create` (closed). Guests play casual games either way.
    #[arg(long, value_enum, default_value = "open")]
    signup: Signup,
    /// Mark the session cookie Secure (for a site served over HTTPS by a proxy in front).
    #[arg(long)]
    cookie_secure: bool,
    /// Seconds of search one analysis of the analysis board may use in all, at full
    /// strength on one engine thread; it ends with `done` (reason `limit`) after them
    /// (1–3600).
    #[arg(long, value_name = "SECONDS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    analysis_seconds: u64,
    /// Analysis pages of one client address that may search at once; more are answered
    /// `analysis_busy` (1–1000).
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=1000))]
    analysis_per_address: u16,
    /// Analyses and reviews that may wait for an engine worker; beyond them a request is
    /// answered `analysis_busy` with a time to retry after (1–100000). The engine players'
    /// moves never wait behind them.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    analysis_queue: u32,
    /// Nodes the engine searches in each position of a game's review (1000–100000000).
    #[arg(long, value_name = "N", default_value_t = chuhe_server::review::DEFAULT_REVIEW_NODES, value_parser = clap::value_parser!(u64).range(1000..=100_000_000))]
    review_nodes: u64,
    /// Also serve the game of a rules directory (its `rules.json` manifest and GGN, as in
    /// `games/`), under its manifest's name; repeatable. Its games are casual only. A name
    /// that is a native game's (`games/xiangqi` is named `xiangqi`) is refused: the native
    /// game keeps it.
    #[arg(long = "rules", value_name = "DIR")]
    rules: Vec<std::path::PathBuf>,
}

/// Runs `chuhe serve`.
pub fn serve(args: ServeArgs) -> Result<(), CliError> {
    chuhe_server::serve(chuhe_server::ServeOptions {
        addr: args.addr,
        db: args.db,
        engine_movetime: Duration::from_millis(args.engine_movetime),
        allowed_origins: args.allowed_origins,
        abort_after: Duration::from_secs(args.abort_after),
        engine_threads: args.engine_threads.map_or_else(
            chuhe_server::round::rooms::default_engine_threads,
            usize::from,
        ),
        idle_after: Duration::from_secs(args.idle_after),
        abandon_after: Duration::from_secs(args.abandon_after),
        games_per_minute: args.games_per_minute,
        trust_forwarded_for: args.trust_forwarded_for,
        signup_open: args.signup == Signup::Open,
        cookie_secure: args.cookie_secure,
        analysis_seconds: args.analysis_seconds,
        analysis_per_address: usize::from(args.analysis_per_address),
        analysis_queue: args.analysis_queue as usize,
        review_nodes: args.review_nodes,
        rules: args.rules,
    })
    .map_err(|e| CliError::user(format!("serve: {e}")))
}

/// `chuhe user`'s flags.
#[derive(Args, Debug)]
pub struct UserArgs {
    #[command(subcommand)]
    action: UserAction,
    /// The database of the site: a SQLite file or a postgres:// URL (the server may be
    /// running).
    #[arg(long, global = true, default_value = "chuhe-games.sqlite3")]
    db: String,
}

#[derive(Subcommand, Debug)]
enum UserAction {
    /// Makes an account; its password is read from standard input (one line).
    Create {
        /// The player's name (2–24 characters; Chinese and Vietnamese names welcome).
        name: String,
    },
    /// Sets an account's password, read from standard input (one line); its sessions end.
    Password {
        /// The player's name.
        name: String,
    },
    /// Disables an account: it cannot log in, its sessions and seeks end.
    Disable {
        /// The player's name.
        name: String,
    },
    /// Enables a disabled account.
    Enable {
        /// The player's name.
        name: String,
    },
    /// Lists the accounts: name, created, disabled.
    List,
}

/// One line of standard input, without its line end.
fn password_from_stdin() -> Result<String, CliError> {
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line).map_err(|e| {
        CliError::user(format!("cannot read the password from standard input: {e}"))
    })?;
    let password = line.trim_end_matches(['\n', '\r']).to_string();
    chuhe_server::user::check_password(&password).map_err(|e| CliError::user(e.to_string()))?;
    Ok(password)
}

/// Opens the site's database beside a running server: SQLite allows it (the server holds
/// no players in memory; every request reads them).
fn open(db: &str) -> Result<Arc<dyn Store>, CliError> {
    let opened: Result<Arc<dyn Store>, _> =
        if db.starts_with("postgres://") || db.starts_with("postgresql://") {
            store::PostgresStore::connect(db).map(|s| Arc::new(s) as Arc<dyn Store>)
        } else {
            store::SqliteStore::open_shared(db).map(|s| Arc::new(s) as Arc<dyn Store>)
        };
    opened.map_err(|e| CliError::user(format!("user: {e}")))
}

/// The account named `name`.
fn account(store: &dyn Store, name: &str) -> Result<store::User, CliError> {
    let key = chuhe_server::user::check_name(name)
        .map(|n| n.key)
        .unwrap_or_else(|_| name.trim().to_lowercase());
    match store.user_by_name(&key) {
        Ok(Some((user, _))) if !user.guest => Ok(user),
        Ok(_) => Err(CliError::user(format!(
            "user: no account is named '{name}'"
        ))),
        Err(e) => Err(CliError::user(format!("user: {e}"))),
    }
}

/// Runs `chuhe user`.
pub fn user(args: UserArgs, out: &mut Output) -> Result<(), CliError> {
    let store = open(&args.db)?;
    let failed = |e: &dyn std::fmt::Display| CliError::user(format!("user: {e}"));
    match args.action {
        UserAction::Create { name } => {
            let password = password_from_stdin()?;
            let user = Users::new(store.clone(), false)
                .create_account(&name, &password)
                .map_err(|e| failed(&e))?;
            out.write(&format!("created the account '{}'\n", user.name))
        }
        UserAction::Password { name } => {
            let user = account(store.as_ref(), &name)?;
            let password = password_from_stdin()?;
            let hash = chuhe_server::user::hash_password(&password).map_err(|e| failed(&e))?;
            store
                .set_password(&user.id, &hash)
                .map_err(|e| failed(&e))?;
            store
                .end_sessions_of(&user.id, None)
                .map_err(|e| failed(&e))?;
            out.write(&format!("set the password of '{}'\n", user.name))
        }
        UserAction::Disable { ref name } | UserAction::Enable { ref name } => {
            let disable = matches!(args.action, UserAction::Disable { .. });
            let user = account(store.as_ref(), name)?;
            store
                .set_disabled(&user.id, disable)
                .map_err(|e| failed(&e))?;
            let done = if disable { "disabled" } else { "enabled" };
            out.write(&format!("{done} the account '{}'\n", user.name))
        }
        UserAction::List => {
            for user in store.accounts().map_err(|e| failed(&e))? {
                let created = chuhe_server::archive::iso_datetime(user.created_ms);
                let state = if user.disabled { "disabled" } else { "active" };
                out.write(&format!("{}\t{}\t{state}\n", user.name, &created[..10]))?;
            }
            Ok(())
        }
    }
}
