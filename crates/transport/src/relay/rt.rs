//! The little the relay code needs from its platform, native and browser alike: a websocket of
//! text frames, the wall clock, and a place to run a background task.

use futures::future::LocalBoxFuture;
use futures::{Sink, SinkExt, Stream, StreamExt};
use std::pin::Pin;

/// An open websocket: text frames out, text frames in (the stream ends when the socket closes).
pub struct Ws {
    pub tx: Pin<Box<dyn Sink<String, Error = String>>>,
    pub rx: Pin<Box<dyn Stream<Item = String>>>,
}

/// Seconds since the Unix epoch.
#[cfg(not(target_arch = "wasm32"))]
pub fn now_s() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Seconds since the Unix epoch.
#[cfg(target_arch = "wasm32")]
pub fn now_s() -> u64 {
    (js_sys::Date::now() / 1000.0) as u64
}

/// Runs `make()`'s future in the background until it ends: a thread of its own natively (the
/// websockets and timers bring their own reactors), the page's event loop in a browser.
#[cfg(not(target_arch = "wasm32"))]
pub fn spawn(make: impl FnOnce() -> LocalBoxFuture<'static, ()> + Send + 'static) {
    let _ = std::thread::Builder::new()
        .name("orbis-relays".into())
        .spawn(move || async_io::block_on(make()));
}

/// Runs `make()`'s future in the background until it ends: a thread of its own natively (the
/// websockets and timers bring their own reactors), the page's event loop in a browser.
#[cfg(target_arch = "wasm32")]
pub fn spawn(make: impl FnOnce() -> LocalBoxFuture<'static, ()> + Send + 'static) {
    wasm_bindgen_futures::spawn_local(make());
}

/// Opens a websocket.
#[cfg(not(target_arch = "wasm32"))]
pub async fn connect(url: &str) -> Result<Ws, String> {
    use async_tungstenite::tungstenite::protocol::WebSocketConfig;
    use async_tungstenite::tungstenite::Message;
    // A message longer than this ends the connection (tungstenite's default is 64 MiB): no frame
    // of ours comes near it, and longer ones would be dropped unparsed anyway. A browser takes
    // whole messages of any size; there they are dropped unparsed (`pool`).
    let limit = 4 * super::nostr::MAX_FRAME;
    let config = WebSocketConfig::default()
        .max_message_size(Some(limit))
        .max_frame_size(Some(limit));
    let (ws, _) = async_tungstenite::smol::connect_async_with_config(url, Some(config))
        .await
        .map_err(|e| e.to_string())?;
    // futures' split (the crate's own inherent `split` gives halves without its Sink bounds).
    let (tx, rx) = StreamExt::split(ws);
    let tx = tx
        .sink_map_err(|e| e.to_string())
        .with(|s: String| futures::future::ready(Ok::<_, String>(Message::text(s))));
    let rx = rx
        .take_while(|m| futures::future::ready(m.is_ok()))
        .filter_map(|m| {
            futures::future::ready(match m {
                Ok(Message::Text(t)) => Some(t.as_str().to_string()),
                _ => None,
            })
        });
    Ok(Ws {
        tx: Box::pin(tx),
        rx: Box::pin(rx),
    })
}

/// Opens a websocket.
#[cfg(target_arch = "wasm32")]
pub async fn connect(url: &str) -> Result<Ws, String> {
    use ws_stream_wasm::{WsMessage, WsMeta};
    // The browser says no more than "failed" (a CloseEvent with code 1006) whatever the cause.
    let (_meta, ws) = WsMeta::connect(url, None).await.map_err(|e| match e {
        ws_stream_wasm::WsErr::ConnectionFailed { .. } => "could not connect".to_string(),
        other => other.to_string(),
    })?;
    let (tx, rx) = ws.split();
    let tx = tx
        .sink_map_err(|e| e.to_string())
        .with(|s: String| futures::future::ready(Ok::<_, String>(WsMessage::Text(s))));
    let rx = rx.filter_map(|m| {
        futures::future::ready(match m {
            WsMessage::Text(t) => Some(t),
            WsMessage::Binary(_) => None,
        })
    });
    Ok(Ws {
        tx: Box::pin(tx),
        rx: Box::pin(rx),
    })
}
