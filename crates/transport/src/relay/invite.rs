//! Invite codes: a WebRTC offer or answer small enough to paste into a chat (about 250
//! characters), for a room whose players cannot reach any relay. The host's page makes an offer
//! code for a fresh guest (the seed of its session key, from which both know its id); the guest's page turns it back into an SDP offer, answers, and shows
//! an answer code for the host to paste. The rest of the room is then introduced through the mesh.
//!
//! A code is `ROOM.PAYLOAD`: the room secret (the guest needs it to join the room's mesh) and
//! base64url of the ICE user fragment and password, the DTLS fingerprint, the UDP candidates, both
//! peer ids and an expiry, with an HMAC-SHA-256 tag (12 bytes) keyed by the room secret.
//!
//! What a code is, and is not: the tag's key travels in the code, so the tag only catches a code
//! damaged in copying or pasted into another room; anyone who sees a code can read the room
//! secret and make codes of their own. Codes are as secret as the room link, and must go only to
//! the friend they are for. Who is who in the game is proved by the protocol's signed keys, not
//! by the code. A host accepts one answer per invitation, and only before its offer expires.
//!
//! Invariant: [`decode`] never panics and accepts only what [`encode`] made for this room, unaltered
//! and unexpired; everything else is a [`CodeError`] a player can act on.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// How long a code stays good.
pub const LIFETIME_S: u64 = 15 * 60;
const VERSION: u8 = 1;
const TAG: usize = 12;
const MAX_CANDIDATES: usize = 8;

/// Offer (host → guest) or answer (guest → host).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Offer,
    Answer,
}

/// A candidate's address: IPv4, IPv6 or an mDNS name (`<uuid>.local`, what browsers show of a
/// host address).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Addr {
    V4([u8; 4]),
    V6([u8; 16]),
    Mdns([u8; 16]),
}

/// One UDP ICE candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub priority: u32,
    pub addr: Addr,
    pub port: u16,
    /// host, srflx, prflx, relay.
    pub typ: u8,
}

const TYPES: [&str; 4] = ["host", "srflx", "prflx", "relay"];

/// What of an SDP a data-channel connection needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sdp {
    pub ufrag: String,
    pub pwd: String,
    pub fingerprint: [u8; 32],
    pub candidates: Vec<Candidate>,
}

/// A decoded invite code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Code {
    pub kind: Kind,
    pub room: String,
    pub host: [u8; 16],
    /// In an offer, the seed of the guest's session key (the guest's peer id is that key's
    /// [`super::peer_id`], so the host knows it and nobody else can speak for it on the relays);
    /// in an answer, the guest's peer id.
    pub guest: [u8; 16],
    /// Unix seconds after which the code is refused.
    pub expires: u64,
    pub sdp: Sdp,
}

/// Why a code was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodeError {
    /// Not a code at all (cut short, changed, or something else pasted).
    Garbled,
    /// A code for another room (or altered).
    WrongRoom,
    Expired,
    /// An answer code where an offer was wanted, or the other way round.
    WrongKind(Kind),
}

impl std::fmt::Display for CodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CodeError::Garbled => write!(f, "This is not an Orbis invite code, or part of it is missing: copy the whole code again."),
            CodeError::WrongRoom => write!(f, "This code is for another room (or was changed on the way): ask for a new one."),
            CodeError::Expired => write!(f, "This code has expired (codes last 15 minutes): ask for a new one."),
            CodeError::WrongKind(Kind::Answer) => write!(f, "This is an answer code: paste it on the page that made the invitation."),
            CodeError::WrongKind(Kind::Offer) => write!(f, "This is an invitation (offer) code: paste it under \"Join by code\" on the guest's page."),
        }
    }
}

fn parse_candidate(line: &str) -> Option<Candidate> {
    // candidate:<foundation> <component> <transport> <priority> <address> <port> typ <type> …
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() < 8 || f[1] != "1" || !f[2].eq_ignore_ascii_case("udp") || f[6] != "typ" {
        return None;
    }
    let addr = if let Some(name) = f[4].strip_suffix(".local") {
        Addr::Mdns(*uuid::Uuid::parse_str(name).ok()?.as_bytes())
    } else {
        match f[4].parse::<std::net::IpAddr>().ok()? {
            std::net::IpAddr::V4(a) => Addr::V4(a.octets()),
            std::net::IpAddr::V6(a) => Addr::V6(a.octets()),
        }
    };
    Some(Candidate {
        priority: f[3].parse().ok()?,
        addr,
        port: f[5].parse().ok()?,
        typ: TYPES.iter().position(|t| *t == f[7])? as u8,
    })
}

/// Reads the parts of an SDP (with its candidates inline, as matchbox sends it once gathering is
/// complete) that an invite code carries.
pub fn parse_sdp(sdp: &str) -> Option<Sdp> {
    let mut ufrag = None;
    let mut pwd = None;
    let mut fingerprint = None;
    let mut candidates = vec![];
    for line in sdp.lines().map(str::trim) {
        if let Some(v) = line.strip_prefix("a=ice-ufrag:") {
            ufrag = Some(v.to_string());
        } else if let Some(v) = line.strip_prefix("a=ice-pwd:") {
            pwd = Some(v.to_string());
        } else if let Some(v) = line.strip_prefix("a=fingerprint:sha-256 ") {
            let bytes: Vec<u8> = v
                .split(':')
                .map(|h| u8::from_str_radix(h, 16))
                .collect::<Result<_, _>>()
                .ok()?;
            fingerprint = Some(<[u8; 32]>::try_from(bytes).ok()?);
        } else if let Some(v) = line.strip_prefix("a=candidate:") {
            if candidates.len() < MAX_CANDIDATES {
                candidates.extend(parse_candidate(v));
            }
        }
    }
    let (ufrag, pwd) = (ufrag?, pwd?);
    if ufrag.len() > 255 || pwd.len() > 255 {
        return None;
    }
    Some(Sdp {
        ufrag,
        pwd,
        fingerprint: fingerprint?,
        candidates,
    })
}

/// The SDP a browser accepts for this data-channel offer or answer.
pub fn build_sdp(s: &Sdp, kind: Kind) -> String {
    let mut out = String::from(
        "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0\r\na=msid-semantic: WMS\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\nc=IN IP4 0.0.0.0\r\n",
    );
    for (i, c) in s.candidates.iter().enumerate() {
        let addr = match &c.addr {
            Addr::V4(a) => std::net::Ipv4Addr::from(*a).to_string(),
            Addr::V6(a) => std::net::Ipv6Addr::from(*a).to_string(),
            Addr::Mdns(u) => format!("{}.local", uuid::Uuid::from_bytes(*u)),
        };
        out += &format!(
            "a=candidate:{} 1 udp {} {addr} {} typ {} generation 0\r\n",
            i + 1,
            c.priority,
            c.port,
            TYPES[usize::from(c.typ) % TYPES.len()]
        );
    }
    let fp: Vec<String> = s.fingerprint.iter().map(|b| format!("{b:02X}")).collect();
    out += &format!(
        "a=end-of-candidates\r\na=ice-ufrag:{}\r\na=ice-pwd:{}\r\na=ice-options:trickle\r\na=fingerprint:sha-256 {}\r\na=setup:{}\r\na=mid:0\r\na=sctp-port:5000\r\na=max-message-size:262144\r\n",
        s.ufrag,
        s.pwd,
        fp.join(":"),
        if kind == Kind::Offer { "actpass" } else { "active" }
    );
    out
}

fn mac(room: &str) -> Hmac<Sha256> {
    // HMAC accepts keys of any length.
    Hmac::<Sha256>::new_from_slice(format!("orbis/invite/{room}").as_bytes())
        .unwrap_or_else(|_| unreachable!())
}

/// The code for `c`.
pub fn encode(c: &Code) -> String {
    let mut b = vec![VERSION, matches!(c.kind, Kind::Answer) as u8];
    b.extend_from_slice(&c.host);
    b.extend_from_slice(&c.guest);
    b.extend_from_slice(&(c.expires.min(u64::from(u32::MAX)) as u32).to_be_bytes());
    for s in [&c.sdp.ufrag, &c.sdp.pwd] {
        b.push(s.len() as u8);
        b.extend_from_slice(s.as_bytes());
    }
    b.extend_from_slice(&c.sdp.fingerprint);
    b.push(c.sdp.candidates.len() as u8);
    for x in &c.sdp.candidates {
        let (kind, addr): (u8, &[u8]) = match &x.addr {
            Addr::V4(a) => (0, a),
            Addr::V6(a) => (1, a),
            Addr::Mdns(a) => (2, a),
        };
        b.push(x.typ << 2 | kind);
        b.extend_from_slice(&x.priority.to_be_bytes());
        b.extend_from_slice(addr);
        b.extend_from_slice(&x.port.to_be_bytes());
    }
    let mut m = mac(&c.room);
    m.update(&b);
    b.extend_from_slice(&m.finalize().into_bytes()[..TAG]);
    format!("{}.{}", c.room, URL_SAFE_NO_PAD.encode(b))
}

/// Reads a code pasted by a player (surrounding white space, a whole link or a `#…&offer=` part
/// are fine), checking its tag and its expiry against `now` (Unix seconds).
pub fn decode(text: &str, now: u64) -> Result<Code, CodeError> {
    let text = text.trim();
    let text = text.rsplit(['=', '#', '&', ' ']).next().unwrap_or(text);
    let (room, payload) = text.rsplit_once('.').ok_or(CodeError::Garbled)?;
    if room.is_empty() || payload.len() > 2048 {
        return Err(CodeError::Garbled);
    }
    let raw = URL_SAFE_NO_PAD
        .decode(payload)
        .map_err(|_| CodeError::Garbled)?;
    if raw.len() < 2 + 32 + 4 + 2 + 32 + 1 + TAG || raw[0] != VERSION {
        return Err(CodeError::Garbled);
    }
    let (body, tag) = raw.split_at(raw.len() - TAG);
    let mut m = mac(room);
    m.update(body);
    m.verify_truncated_left(tag)
        .map_err(|_| CodeError::WrongRoom)?;
    let mut r = Reader(body);
    let _version = r.take(1)?;
    let kind = match r.take(1)?[0] {
        0 => Kind::Offer,
        1 => Kind::Answer,
        _ => return Err(CodeError::Garbled),
    };
    let host = r.array::<16>()?;
    let guest = r.array::<16>()?;
    let expires = u64::from(u32::from_be_bytes(r.array::<4>()?));
    let mut text = || -> Result<String, CodeError> {
        let n = r.take(1)?[0] as usize;
        String::from_utf8(r.take(n)?.to_vec()).map_err(|_| CodeError::Garbled)
    };
    let ufrag = text()?;
    let pwd = text()?;
    let fingerprint = r.array::<32>()?;
    let n = r.take(1)?[0] as usize;
    let mut candidates = vec![];
    for _ in 0..n.min(MAX_CANDIDATES) {
        let head = r.take(1)?[0];
        let priority = u32::from_be_bytes(r.array::<4>()?);
        let addr = match head & 3 {
            0 => Addr::V4(r.array()?),
            1 => Addr::V6(r.array()?),
            2 => Addr::Mdns(r.array()?),
            _ => return Err(CodeError::Garbled),
        };
        let port = u16::from_be_bytes(r.array::<2>()?);
        let typ = head >> 2;
        if usize::from(typ) >= TYPES.len() {
            return Err(CodeError::Garbled);
        }
        candidates.push(Candidate {
            priority,
            addr,
            port,
            typ,
        });
    }
    if !r.0.is_empty() || ufrag.is_empty() || pwd.is_empty() {
        return Err(CodeError::Garbled);
    }
    if now > expires {
        return Err(CodeError::Expired);
    }
    Ok(Code {
        kind,
        room: room.to_string(),
        host,
        guest,
        expires,
        sdp: Sdp {
            ufrag,
            pwd,
            fingerprint,
            candidates,
        },
    })
}

/// The invitations under way on one peer: as host, guests whose offer code is out; as guest, the
/// host whose offer we answer.
#[derive(Debug, Default)]
pub struct Invites {
    /// Guest id → the seed of its key (which the offer code carries) and when the code expires.
    pending: std::collections::BTreeMap<[u8; 16], ([u8; 16], u64)>,
    /// As a guest: the host we answer.
    answering: Option<[u8; 16]>,
}

/// What an outgoing signal means for the invitations.
#[derive(Debug, PartialEq, Eq)]
pub enum Outgoing {
    /// Not an invitation's: publish it as usual.
    Publish,
    /// An invitation's offer or answer, as a code for the player to pass on.
    Code(Kind, String),
    /// An invitation's trickled candidate (the code carries them all): dropped.
    Swallow,
}

impl Invites {
    /// A new invitation for the guest whose key comes from `seed` and whose id is `guest`.
    pub fn start(&mut self, guest: [u8; 16], seed: [u8; 16], now: u64) {
        self.pending.retain(|_, (_, exp)| *exp >= now);
        self.pending.insert(guest, (seed, now + LIFETIME_S));
    }

    /// As a guest: we answer `host`'s offer.
    pub fn answering(&mut self, host: [u8; 16]) {
        self.answering = Some(host);
    }

    /// Sorts a signal matchbox sends to `to`.
    pub fn outgoing(
        &mut self,
        room: &str,
        me: [u8; 16],
        to: [u8; 16],
        data: &matchbox_socket::PeerSignal,
        now: u64,
    ) -> Outgoing {
        use matchbox_socket::PeerSignal as S;
        let (kind, host, guest, expires) = if let Some((seed, exp)) = self.pending.get(&to) {
            (Kind::Offer, me, *seed, *exp)
        } else if self.answering == Some(to) {
            (Kind::Answer, to, me, now + LIFETIME_S)
        } else {
            return Outgoing::Publish;
        };
        let sdp = match (kind, data) {
            (Kind::Offer, S::Offer(sdp)) | (Kind::Answer, S::Answer(sdp)) => sdp,
            _ => return Outgoing::Swallow,
        };
        match parse_sdp(sdp) {
            Some(sdp) => Outgoing::Code(
                kind,
                encode(&Code {
                    kind,
                    room: room.to_string(),
                    host,
                    guest,
                    expires,
                    sdp,
                }),
            ),
            None => Outgoing::Swallow,
        }
    }

    /// As host: the guest's answer code, at `now` (Unix seconds); the signal for matchbox. The
    /// invitation it answers must still be pending: not used, and not past its offer's expiry.
    pub fn answer(
        &mut self,
        me: [u8; 16],
        code: &Code,
        now: u64,
    ) -> Result<matchbox_socket::PeerEvent, String> {
        if code.kind != Kind::Answer {
            return Err(CodeError::WrongKind(Kind::Offer).to_string());
        }
        let pending = (code.host == me)
            .then(|| self.pending.remove(&code.guest))
            .flatten();
        let Some((_, expires)) = pending else {
            return Err("This answer is for another invitation (or was used already): make a new invitation and send that one.".into());
        };
        if now > expires {
            return Err("This invitation has expired (codes last 15 minutes): make a new invitation and send that one.".into());
        }
        Ok(matchbox_socket::PeerEvent::Signal {
            sender: matchbox_socket::PeerId(uuid::Uuid::from_bytes(code.guest)),
            data: matchbox_socket::PeerSignal::Answer(build_sdp(&code.sdp, Kind::Answer)),
        })
    }
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], CodeError> {
        if self.0.len() < n {
            return Err(CodeError::Garbled);
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }
    fn array<const N: usize>(&mut self) -> Result<[u8; N], CodeError> {
        self.take(N)?.try_into().map_err(|_| CodeError::Garbled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const CHROME_OFFER: &str = "v=0\r\no=- 960089236642906367 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0\r\na=extmap-allow-mixed\r\na=msid-semantic: WMS\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\nc=IN IP4 0.0.0.0\r\na=candidate:2717261383 1 udp 2113937151 672241c9-4a99-472a-a850-e51997df6319.local 41241 typ host generation 0 network-cost 999\r\na=candidate:1787879335 1 udp 2113942271 af28b09c-3c04-45f8-aceb-0d14775786b0.local 58913 typ host generation 0 network-cost 999\r\na=candidate:842163049 1 udp 1677729535 203.0.113.7 61000 typ srflx raddr 0.0.0.0 rport 0 generation 0 network-cost 999\r\na=candidate:1 1 tcp 1518280447 192.0.2.1 9 typ host tcptype active\r\na=ice-ufrag:rtUe\r\na=ice-pwd:iRxoIEhHWt2+8v4KSQKpfprx\r\na=ice-options:trickle\r\na=fingerprint:sha-256 D9:DF:56:E1:24:37:B1:43:13:51:89:9A:F6:5B:4D:1F:A2:92:65:46:BE:90:6E:87:CF:A9:F1:78:C9:36:50:00\r\na=setup:actpass\r\na=mid:0\r\na=sctp-port:5000\r\na=max-message-size:262144\r\n";

    fn code() -> Code {
        Code {
            kind: Kind::Offer,
            room: "Zm9vYmFyYmF6cXV4cXV1eA".into(),
            host: [1; 16],
            guest: [2; 16],
            expires: 1_900_000_000,
            sdp: parse_sdp(CHROME_OFFER).unwrap(),
        }
    }

    #[test]
    fn a_chrome_offer_round_trips_in_a_short_code() {
        let c = code();
        assert_eq!(c.sdp.candidates.len(), 3, "UDP candidates only");
        let text = encode(&c);
        println!("offer code, {} characters: {text}", text.len());
        assert!(text.len() <= 300, "{} characters", text.len());
        assert_eq!(decode(&text, 1_800_000_000), Ok(c.clone()));
        // As a link, or with white space around it.
        assert_eq!(
            decode(
                &format!("https://x.example/orbis/full/#room=r&offer={text}"),
                1_800_000_000
            ),
            Ok(c.clone())
        );
        assert_eq!(decode(&format!("  {text}\n"), 1_800_000_000), Ok(c.clone()));
        // The rebuilt SDP carries the same parts.
        assert_eq!(
            parse_sdp(&build_sdp(&c.sdp, Kind::Offer)),
            Some(c.sdp.clone())
        );
        assert!(build_sdp(&c.sdp, Kind::Answer).contains("a=setup:active"));
    }

    #[test]
    fn an_answer_to_an_expired_invitation_is_refused() {
        let me = [1; 16];
        let guest = [2; 16];
        let answer = Code {
            kind: Kind::Answer,
            host: me,
            guest,
            ..code()
        };
        let mut invites = Invites::default();
        invites.start(guest, [3; 16], 1_000);
        let err = invites
            .answer(me, &answer, 1_000 + LIFETIME_S + 1)
            .unwrap_err();
        assert!(err.contains("expired"), "{err}");
        // Used up either way: the same answer again is for no invitation.
        assert!(invites.answer(me, &answer, 1_000).is_err());
        // In time, it goes through once.
        invites.start(guest, [3; 16], 1_000);
        assert!(invites.answer(me, &answer, 1_000 + LIFETIME_S).is_ok());
        assert!(invites.answer(me, &answer, 1_000 + LIFETIME_S).is_err());
    }

    #[test]
    fn expired_altered_foreign_and_garbled_codes_are_refused() {
        let text = encode(&code());
        assert_eq!(decode(&text, 1_900_000_001), Err(CodeError::Expired));
        let other = text.replacen("Zm9v", "Zm9x", 1);
        assert_eq!(decode(&other, 0), Err(CodeError::WrongRoom));
        let (room, payload) = text.rsplit_once('.').unwrap();
        let mut raw = URL_SAFE_NO_PAD.decode(payload).unwrap();
        raw[40] ^= 1;
        assert_eq!(
            decode(&format!("{room}.{}", URL_SAFE_NO_PAD.encode(&raw)), 0),
            Err(CodeError::WrongRoom)
        );
        for junk in ["", "hello", ".", "a.", "a.!!!", &text[..text.len() - 5]] {
            assert!(decode(junk, 0).is_err(), "{junk:?}");
        }
        assert!(CodeError::Expired.to_string().contains("ask for a new one"));
    }

    proptest! {
        #[test]
        fn garbage_never_panics(s in ".{0,400}") {
            let _ = decode(&s, 0);
            let _ = parse_sdp(&s);
        }

        #[test]
        fn garbage_payloads_never_panic(b in proptest::collection::vec(any::<u8>(), 0..300)) {
            let _ = decode(&format!("room.{}", URL_SAFE_NO_PAD.encode(&b)), 0);
        }
    }
}
