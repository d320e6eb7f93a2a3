//! What the server's integration tests share: a server on a loopback port in its own runtime.

use std::net::SocketAddr;
use std::sync::Arc;

use chuhe_server::{http, store, App, AppOptions};

/// A server on a loopback port over a store, in its own runtime; dropping it stops it
/// abruptly (no graceful shutdown: as a killed process would).
pub struct TestServer {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// The address it listens on.
    pub addr: SocketAddr,
    /// Its games.
    pub hub: Arc<App>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestServer {
    /// A server over `store` with `options`.
    pub fn with_options(store: Arc<dyn store::Store>, options: AppOptions) -> TestServer {
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                let hub = App::new(store, options);
                addr_tx
                    .send((listener.local_addr().unwrap(), hub.clone()))
                    .unwrap();
                tokio::select! {
                    _ = axum::serve(listener, http::service(hub)) => {}
                    _ = stopped => {}
                }
            });
            runtime.shutdown_background();
        });
        let (addr, hub) = addr_rx.recv().unwrap();
        TestServer {
            base: format!("http://{addr}"),
            addr,
            hub,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// The URL of `path` on this server.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A database file in the temporary directory, removed (with its WAL files) when dropped.
pub struct TempDb(String);

impl TempDb {
    /// A fresh path named after `tag`.
    pub fn new(tag: &str) -> TempDb {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let path = std::env::temp_dir().join(format!(
            "chuhe-test-{tag}-{}-{nanos}.sqlite3",
            std::process::id()
        ));
        TempDb(path.display().to_string())
    }
}

impl std::ops::Deref for TempDb {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        for ext in ["", "-wal", "-shm", "-lock"] {
            let _ = std::fs::remove_file(format!("{}{ext}", self.0));
        }
    }
}

/// The URL of the throwaway PostgreSQL cluster of `scripts/with-postgres`, if set; without it
/// a PostgreSQL test passes by doing nothing, except under CI (`CI` set), where it fails.
pub fn postgres_url() -> Option<String> {
    let url = std::env::var("CHUHE_TEST_POSTGRES").ok();
    if url.is_none() {
        assert!(
            std::env::var("CI").is_err(),
            "CHUHE_TEST_POSTGRES is not set under CI: run the tests through scripts/with-postgres"
        );
        eprintln!(
            "CHUHE_TEST_POSTGRES is not set: run through scripts/with-postgres to test PostgreSQL"
        );
    }
    url
}

/// Sends `request` (with a JSON `body`, if any): the status and the JSON answer (null when
/// the answer is not JSON).
pub fn call(request: ureq::Request, body: Option<serde_json::Value>) -> (u16, serde_json::Value) {
    let request = request.timeout(std::time::Duration::from_secs(20));
    let response = match body {
        Some(b) => request.send_json(b),
        None => request.call(),
    };
    let response = match response {
        Ok(r) | Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{e}"),
    };
    let status = response.status();
    (
        status,
        response.into_json().unwrap_or(serde_json::Value::Null),
    )
}
