//! A real Nostr relay process for the tests: the `nostr-relay` package from PyPI
//! (`scripts/nostr-relay.sh` installs it; `NOSTR_RELAY` names its executable), on a free port of
//! 127.0.0.1, storing events in sqlite as `scripts/serve.sh` configures it.
#![allow(dead_code)]

use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A relay's processes, killed together when dropped. The relay is gunicorn: a master and a worker
/// that holds the listening socket. Killing the master alone would leave the worker serving (and
/// running after the test), so the relay runs in a process group of its own and the whole group
/// is killed.
pub struct Relay {
    child: Child,
    pub url: String,
    /// Its sqlite database.
    pub db: PathBuf,
}

impl Drop for Relay {
    fn drop(&mut self) {
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.wait();
    }
}

/// Starts a relay on a free port with an empty database; `extra` is more of its YAML config
/// (top-level keys such as `max_event_size: 65536` or `oldest_event: 3600`).
pub fn start(tag: &str, extra: &str) -> Relay {
    let exe = std::env::var("NOSTR_RELAY").unwrap_or_else(|_| "nostr-relay".into());
    let port = free_port();
    let dir = std::env::temp_dir().join(format!("orbis-relay-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let db = dir.join("events.sqlite3");
    let _ = std::fs::remove_file(&db);
    let conf = dir.join("relay.yaml");
    std::fs::write(
        &conf,
        format!(
            "DEBUG: false\nrelay_name: orbis test relay\nstorage:\n  sqlalchemy.url: sqlite+aiosqlite:///{}\n  validators:\n    - nostr_relay.validators.is_not_too_large\n    - nostr_relay.validators.is_signed\n    - nostr_relay.validators.is_recent\ngunicorn:\n  bind: 127.0.0.1:{port}\n  workers: 1\n  loglevel: warning\n  reload: false\nauthentication:\n  enabled: false\n{extra}\n",
            db.display()
        ),
    )
    .expect("relay config");
    let child = Command::new(&exe)
        .arg("-c")
        .arg(&conf)
        .arg("serve")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("start nostr-relay (set NOSTR_RELAY)");
    let addr = format!("127.0.0.1:{port}");
    let t = Instant::now();
    while TcpStream::connect(&addr).is_err() {
        assert!(t.elapsed() < Duration::from_secs(30), "relay did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    Relay {
        child,
        url: format!("ws://{addr}"),
        db,
    }
}
