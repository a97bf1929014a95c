//! Browser storage and files: autosave in localStorage, export/import of save files, seeds.

use wasm_bindgen::JsCast;

pub const SAVE_KEY: &str = "orbis.save";
pub const LOG_KEY: &str = "orbis.log";
/// Key of the autosaved classic game with its history (`savefile::to_replay_file`), for replays.
pub const HISTORY_KEY: &str = "orbis.history";
pub const SPEED_KEY: &str = "orbis.speed";
/// Key of the hot-seat seats of an orders game, a character per power (`orders::Seat::code`).
pub const ORDERS_SEATS_KEY: &str = "orbis.orders.seats";
/// Key of the last results of an orders game (UI state, see `OrdersSession::ui_bytes`).
pub const ORDERS_UI_KEY: &str = "orbis.orders.ui";

/// Key of the hot-seat seats of an economy game, a character per player (`economy::Seat::code`).
pub const ECONOMY_SEATS_KEY: &str = "orbis.economy.seats";
/// Key of an economy game's UI state (drafted plans, the log; see `EconomySession::ui_bytes`).
pub const ECONOMY_UI_KEY: &str = "orbis.economy.ui";

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub fn b64_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

pub fn b64_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in text.bytes() {
        if c == b'=' {
            break;
        }
        if c.is_ascii_whitespace() {
            continue;
        }
        let v = B64.iter().position(|&x| x == c)? as u32;
        acc = acc << 6 | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

fn storage() -> Option<web_sys::Storage> {
    if cfg!(not(target_arch = "wasm32")) {
        return None; // native unit tests: no browser
    }
    web_sys::window()?.local_storage().ok()?
}

pub fn get(key: &str) -> Option<String> {
    storage()?.get_item(key).ok()?
}

pub fn set(key: &str, value: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(key, value);
    }
}

pub fn remove(key: &str) {
    if let Some(s) = storage() {
        let _ = s.remove_item(key);
    }
}

/// Key of this tab's "a game was on screen" mark (sessionStorage: kept by a reload and the
/// pages' hand-overs in the same tab, not by a new visit). With it the page resumes the game;
/// without it, a first visit, the menu shows with "Continue your game" (issue 60).
pub const PLAYING_KEY: &str = "orbis.playing";

/// Sets or clears this tab's [`PLAYING_KEY`] mark.
pub fn mark_playing(on: bool) {
    if cfg!(not(target_arch = "wasm32")) {
        return; // native unit tests: no browser
    }
    if let Some(s) = web_sys::window().and_then(|w| w.session_storage().ok().flatten()) {
        let _ = if on {
            s.set_item(PLAYING_KEY, "1")
        } else {
            s.remove_item(PLAYING_KEY)
        };
    }
}

/// Whether this tab showed a game last (see [`PLAYING_KEY`]).
pub fn was_playing() -> bool {
    cfg!(target_arch = "wasm32")
        && web_sys::window()
            .and_then(|w| w.session_storage().ok().flatten())
            .and_then(|s| s.get_item(PLAYING_KEY).ok().flatten())
            .is_some()
}

/// A parameter of the page address, from its hash (`#room=…`) or else its query (`?seed=…`);
/// empty values count as missing.
pub fn url_param(name: &str) -> Option<String> {
    if cfg!(not(target_arch = "wasm32")) {
        return None; // native unit tests: no browser
    }
    let loc = web_sys::window()?.location();
    let from = |s: String| {
        web_sys::UrlSearchParams::new_with_str(s.trim_start_matches(['#', '?']))
            .ok()
            .and_then(|p| p.get(name))
            .filter(|v| !v.is_empty())
    };
    loc.hash()
        .ok()
        .and_then(from)
        .or_else(|| loc.search().ok().and_then(from))
}

/// A seed from `?seed=…` in the page address (for reproducible games and tests), else random.
pub fn new_seed() -> [u8; 32] {
    if cfg!(not(target_arch = "wasm32")) {
        return orbis_engine::codec::sha256(b"native test");
    }
    let from_url = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|q| web_sys::UrlSearchParams::new_with_str(&q).ok())
        .and_then(|p| p.get("seed"));
    let text = match from_url {
        Some(s) => s,
        None => {
            let mut s = String::new();
            for _ in 0..8 {
                s.push_str(&format!(
                    "{}.",
                    (js_sys::Math::random() * 4294967296.0) as u32
                ));
            }
            s.push_str(&format!("{}", js_sys::Date::now() as u64));
            s
        }
    };
    orbis_engine::codec::sha256(text.as_bytes())
}

/// Offers `bytes` as a file download.
pub fn download(name: &str, bytes: &[u8]) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let arr = js_sys::Uint8Array::from(bytes);
    let parts = js_sys::Array::of1(&arr);
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/octet-stream");
    let Ok(blob) = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &opts) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Ok(a) = doc.create_element("a") {
        if let Ok(a) = a.dyn_into::<web_sys::HtmlAnchorElement>() {
            a.set_href(&url);
            a.set_download(name);
            a.click();
        }
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Moves keyboard focus to the element with this id (SVG or HTML).
pub fn focus(id: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    {
        if let Some(h) = el.dyn_ref::<web_sys::HtmlElement>() {
            let _ = h.focus();
        } else if let Some(s) = el.dyn_ref::<web_sys::SvgElement>() {
            let _ = s.focus();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trip() {
        for n in 0..40u8 {
            let data: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37).wrapping_add(n)).collect();
            let text = b64_encode(&data);
            assert_eq!(text.len() % 4, 0);
            assert_eq!(b64_decode(&text).unwrap(), data);
        }
        assert_eq!(b64_encode(b"Orbis"), "T3JiaXM=");
        assert!(b64_decode("not base64!").is_none());
    }
}
