//! Issue 30 D: an adversary that tries every deviation. A deterministic simulation in the
//! spirit of FoundationDB's simulation testing and Jepsen's checkers: 2 or 3 honest peers and
//! one Byzantine peer on the simulated network of `tests/common`. The Byzantine peer is a real
//! `Peer` (it plays, reveals, deals and resyncs like any page) whose outgoing messages pass
//! through a filter that, from a seeded RNG, picks deviations for the run and applies them to
//! each message (withhold a kind, send a different signed version to some peers, delay it to just
//! before or past a grace, replay old ones), and whose driver spams proposals, votes, readmits,
//! hellos, chat and false `withheld` claims, and reloads its page with or without its memento.
//! The honest peers behave as the pages do: they play with the bot, vote out whoever they have
//! waited on for a while and second readmission requests not marked `left_present`.
//!
//! After every run the checker asserts, on the honest peers only: they never diverge (same log
//! head at every common position, equal state hashes at equal lengths); no honest peer is
//! dropped or handed to a bot; no honest peer is named (halts, `Rejected` of a validly signed
//! message, transcripts); every stall names the adversary alone; every table a stranger or
//! participant can grow stays within its bound; honest transcripts verify, and those of a halted
//! game name the adversary.
//!
//! Economy games (`an_adversary_in_an_economy_game_never_harms_an_honest_peer`) draw from the
//! deviations that have something to act on there, and each run adds `SplitCommits` (another
//! signed commitment and reveal for a round to one peer) or `EmptyBatches`; the pages play the
//! computer's choice for their awaited seats.
//!
//! `cargo test -p orbis-protocol --test adversary` runs a small budget of seeds;
//! `ORBIS_ADV_GAMES=N ORBIS_ADV_SEED=S cargo test --release -p orbis-protocol --test adversary
//! -- --ignored --nocapture` runs N games from seed S and prints counts per deviation and per
//! outcome (economy games with `ORBIS_ADV_ECONOMY=1`).

mod common;

use common::economy::economy_proposal;
use common::{game_id, Net, NetParams};
use ed25519_dalek::SigningKey;
use orbis_deal::table::DealMsg;
use orbis_engine::classic::{Action, BotLevel, ClassicOptions};
use orbis_engine::codec::sha256;
use orbis_engine::dice::{Dice, SeededDice};
use orbis_engine::rules::Game;
use orbis_protocol::peer::{verify, VerifyError};
use orbis_protocol::wire::{encode_economy, orders_commitment};
use orbis_protocol::{
    Body, Control, Envelope, HaltReport, Peer, PeerKey, ProtocolEvent, Violation,
};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// Every way the adversary deviates. A run picks a few; each applies to a share of the messages
/// (or steps) it concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Dev {
    /// Keeps back its dice reveals.
    WithholdReveals,
    /// Keeps back its deal keys.
    WithholdKeys,
    /// Keeps back its escrows.
    WithholdEscrows,
    /// Keeps back its shuffles.
    WithholdShuffles,
    /// Keeps back its decryption shares (and piece shares).
    WithholdShares,
    /// Never plays its moves.
    WithholdMoves,
    /// Keeps back its checkpoints.
    WithholdCheckpoints,
    /// Answers no resend request (drops its `Batch`es).
    WithholdBatches,
    /// Sends some peers another signed entry for the same position.
    SplitEntries,
    /// Sends some peers a wrong dice pre-image.
    SplitReveals,
    /// Sends some peers another checkpoint.
    SplitCheckpoints,
    /// Sends some peers another shuffle (two cards swapped: its proof fails) or deal message
    /// under another deal number.
    SplitDeal,
    /// Holds its game messages back for just under or just over a grace.
    DelayToGrace,
    /// Thinks for just under or just over its turn grace before each move.
    SlowMoves,
    /// Sends old messages (its own, and others' it echoed) again.
    Replay,
    /// Spams setup proposals (its own key and throwaway keys).
    SpamProposals,
    /// Spams votes to drop honest peers or hand their seats to a bot, at positions around now.
    SpamVotes,
    /// Spams readmission requests (for itself and for others, with made-up tips).
    SpamReadmits,
    /// Spams hellos from its own and throwaway keys.
    SpamHellos,
    /// Spams chat, public and private, from its own and throwaway keys.
    SpamChat,
    /// Claims in its `Sync` that honest peers withhold the shares of its cards.
    FalseWithheld,
    /// Reloads its page, with its memento or without (another device: another history may be
    /// served to it).
    Reload,
    /// Goes offline for a while (connection down), then comes back.
    Disconnect,
    /// Flips bytes of some outgoing messages.
    Garbage,
    /// Sends the first honest peer another signed commitment (to an empty batch) for a round,
    /// and the reveal that opens it, under the true ones' sequence numbers (economy games).
    SplitCommits,
    /// Sends empty batches when awaited (economy games).
    EmptyBatches,
}

const ALL: [Dev; 24] = [
    Dev::WithholdReveals,
    Dev::WithholdKeys,
    Dev::WithholdEscrows,
    Dev::WithholdShuffles,
    Dev::WithholdShares,
    Dev::WithholdMoves,
    Dev::WithholdCheckpoints,
    Dev::WithholdBatches,
    Dev::SplitEntries,
    Dev::SplitReveals,
    Dev::SplitCheckpoints,
    Dev::SplitDeal,
    Dev::DelayToGrace,
    Dev::SlowMoves,
    Dev::Replay,
    Dev::SpamProposals,
    Dev::SpamVotes,
    Dev::SpamReadmits,
    Dev::SpamHellos,
    Dev::SpamChat,
    Dev::FalseWithheld,
    Dev::Reload,
    Dev::Disconnect,
    Dev::Garbage,
];

/// The deviations of an economy game (the deal's and the classic log's have nothing to act on).
const ECONOMY: [Dev; 17] = [
    Dev::WithholdReveals,
    Dev::WithholdMoves,
    Dev::WithholdCheckpoints,
    Dev::WithholdBatches,
    Dev::SplitReveals,
    Dev::SplitCheckpoints,
    Dev::SplitCommits,
    Dev::EmptyBatches,
    Dev::DelayToGrace,
    Dev::SlowMoves,
    Dev::Replay,
    Dev::SpamProposals,
    Dev::SpamVotes,
    Dev::SpamReadmits,
    Dev::SpamChat,
    Dev::Reload,
    Dev::Garbage,
];

/// The adversary's state, shared by its message filter and its driver.
struct Adv {
    rng: SeededDice,
    devs: Vec<Dev>,
    /// Percent of the messages a deviation applies to.
    rate: u32,
    /// On once every honest peer's game started (the lobby is not attacked but by spam).
    active: bool,
    key: SigningKey,
    #[allow(dead_code)]
    me: usize,
    /// Old messages it sent, for replays.
    stash: Vec<(usize, Vec<u8>)>,
    /// Messages held back: (deliver at, to, bytes).
    held: Vec<(u64, usize, Vec<u8>)>,
    /// The delay of `DelayToGrace` this run.
    delay: u64,
    now: u64,
    seq: u64,
    /// The honest peers' indices (participant indices too).
    honest: Vec<usize>,
    /// How many times each deviation did something.
    applied: BTreeMap<Dev, u64>,
    /// `SplitCommits`: per round, whether it is split (the first honest peer is told another
    /// batch: this payload and salt).
    split: BTreeMap<u32, Option<Opening>>,
}

/// A payload and the salt that opens its commitment.
type Opening = (Vec<u8>, [u8; 32]);

impl Adv {
    fn has(&self, d: Dev) -> bool {
        self.active && self.devs.contains(&d)
    }
    fn roll(&mut self, pct: u32) -> bool {
        self.rng.below(100) < pct
    }
    fn hit(&mut self, d: Dev) -> bool {
        if !self.has(d) {
            return false;
        }
        let r = self.rate;
        if self.roll(r) {
            *self.applied.entry(d).or_default() += 1;
            true
        } else {
            false
        }
    }
    fn seal(&mut self, key: Option<&SigningKey>, tag: [u8; 16], body: &Body) -> Vec<u8> {
        self.seq += 1;
        Envelope::seal(key.unwrap_or(&self.key), tag, self.seq, body)
    }
    fn throwaway(&mut self) -> SigningKey {
        let mut b = [0u8; 32];
        b[..4].copy_from_slice(&self.rng.below(1 << 20).to_le_bytes());
        b[31] = 0xad;
        SigningKey::from_bytes(&b)
    }

    /// What leaves for `to` in place of `bytes`.
    fn filter(&mut self, from: usize, to: usize, bytes: Vec<u8>) -> Vec<Vec<u8>> {
        if !self.active {
            return vec![bytes];
        }
        if self.stash.len() < 512 && self.roll(20) {
            self.stash.push((to, bytes.clone()));
        }
        let Ok((env, body)) = Envelope::open_where(&bytes, |_| true) else {
            return vec![bytes];
        };
        let mine = env.sender == PeerKey(self.key.verifying_key().to_bytes());
        let resign = |s: &Adv, b: &Body| Envelope::seal(&s.key, env.game_id, env.seq, b);
        let mut out = bytes.clone();
        match &body {
            Body::Reveal { .. } if mine && self.hit(Dev::WithholdReveals) => return vec![],
            Body::Entry(_) if mine && self.has(Dev::WithholdMoves) => {}
            Body::Checkpoint { .. } if mine && self.hit(Dev::WithholdCheckpoints) => return vec![],
            Body::Batch { .. } if self.hit(Dev::WithholdBatches) => return vec![],
            Body::Deal { msg, .. } if mine => {
                let d = match msg {
                    DealMsg::Key(_) => Some(Dev::WithholdKeys),
                    DealMsg::Escrow(_) => Some(Dev::WithholdEscrows),
                    DealMsg::Shuffle { .. } => Some(Dev::WithholdShuffles),
                    DealMsg::Share { .. } | DealMsg::PieceShare { .. } => Some(Dev::WithholdShares),
                    _ => None,
                };
                if let Some(d) = d {
                    if self.hit(d) {
                        return vec![];
                    }
                }
            }
            _ => {}
        }
        if mine {
            if let Some(b) = self.split_round(to, &body) {
                out = resign(self, &b);
            }
            match body.clone() {
                Body::Entry(mut e) if self.hit(Dev::SplitEntries) => {
                    e.action = if e.action == Action::EndTurn {
                        Action::EndAttack
                    } else {
                        Action::EndTurn
                    };
                    out = resign(self, &Body::Entry(e));
                }
                Body::Reveal {
                    index,
                    roll,
                    decl,
                    mut preimage,
                    next_tip,
                } if self.hit(Dev::SplitReveals) => {
                    preimage[0] ^= 1;
                    out = resign(
                        self,
                        &Body::Reveal {
                            index,
                            roll,
                            decl,
                            preimage,
                            next_tip,
                        },
                    );
                }
                Body::Checkpoint {
                    index,
                    mut state_hash,
                    log_head,
                } if self.hit(Dev::SplitCheckpoints) => {
                    state_hash[0] ^= 1;
                    out = resign(
                        self,
                        &Body::Checkpoint {
                            index,
                            state_hash,
                            log_head,
                        },
                    );
                }
                Body::Deal { deal, to: dto, msg } if self.hit(Dev::SplitDeal) => {
                    let msg = match msg {
                        DealMsg::Shuffle {
                            deck,
                            input,
                            mut output,
                            proof,
                        } if output.len() > 1 => {
                            output.swap(0, 1);
                            DealMsg::Shuffle {
                                deck,
                                input,
                                output,
                                proof,
                            }
                        }
                        m => m,
                    };
                    let deal = if self.roll(30) { deal + 1 } else { deal };
                    out = resign(self, &Body::Deal { deal, to: dto, msg });
                }
                Body::Sync {
                    started,
                    have_index,
                    head,
                    deal,
                    deal_digest,
                    unread,
                    ..
                } if self.hit(Dev::FalseWithheld) => {
                    let mut withheld: Vec<u8> = self
                        .honest
                        .iter()
                        .filter(|&&h| h != to)
                        .map(|&h| h as u8)
                        .collect();
                    if self.roll(50) {
                        withheld.truncate(1);
                    }
                    let mut unread = unread;
                    if unread.is_empty() && self.roll(50) {
                        unread.push((0, self.rng.below(44) as u16));
                    }
                    out = resign(
                        self,
                        &Body::Sync {
                            started,
                            have_index,
                            head,
                            deal,
                            deal_digest,
                            unread,
                            withheld,
                        },
                    );
                }
                _ => {}
            }
        }
        if self.hit(Dev::Garbage) {
            let mut g = out.clone();
            let at = self.rng.below(g.len() as u32) as usize;
            g[at] ^= 1 << self.rng.below(8);
            return vec![g, out];
        }
        if body.is_game() && mine && self.hit(Dev::DelayToGrace) {
            let at = self.now + self.delay;
            self.held.push((at, to, out));
            return vec![];
        }
        let _ = from;
        vec![out]
    }
}

impl Adv {
    /// `SplitCommits`: the other version of a commitment or reveal of ours for `to`, if its
    /// round is split and `to` is the victim (the first honest peer).
    fn split_round(&mut self, to: usize, body: &Body) -> Option<Body> {
        let round = match body {
            Body::OrdersCommit { round, .. } | Body::OrdersReveal { round, .. } => *round,
            _ => return None,
        };
        if !self.split.contains_key(&round) {
            let hit = self.hit(Dev::SplitCommits);
            let mut salt = [0x5c; 32];
            salt[..4].copy_from_slice(&round.to_le_bytes());
            self.split
                .insert(round, hit.then(|| (encode_economy(&[]), salt)));
        }
        let (payload, salt) = self.split.get(&round)?.clone()?;
        if self.honest.first() != Some(&to) {
            return None;
        }
        Some(match body {
            Body::OrdersCommit { .. } => Body::OrdersCommit {
                round,
                hash: orders_commitment(round, &payload, &salt),
            },
            _ => Body::OrdersReveal {
                round,
                payload,
                salt,
            },
        })
    }
}

/// How a run ended, for the long run's counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Finished,
    /// A face-down game ended by a vote nobody could stand in for.
    EndedByLeaver,
    HaltedNamingAdversary,
    /// Every honest peer halted on a vote of the adversary while playing.
    HaltedOnVoteOut,
    /// Every honest peer stalled for `STALL`, naming the adversary alone, and the votes to drop
    /// it did not unblock the game.
    StalledNamingAdversary,
    /// Still running at the limit (the position cap), no stall.
    Capped,
}

struct Run {
    outcome: Outcome,
    adversary_dropped: bool,
    devs: Vec<Dev>,
    applied: BTreeMap<Dev, u64>,
    positions: u64,
    sim_ms: u64,
}

/// Grace and timeouts of `common::config`: 2 s for a move, 1.5 s (missing / 2) for a reveal,
/// 3 s missing.
const TURN_GRACE: u64 = 2_000;
const MISSING: u64 = 3_000;
/// An honest page votes out whoever it has waited on this long (the browser offers the vote
/// after `missing_ms`; a person takes a moment).
const VOTE_AFTER: u64 = 4_500;
/// A stall: an honest peer's log has not moved for this long.
const STALL: u64 = 30_000;

fn fail(seed: u64, devs: &[Dev], what: String) -> ! {
    panic!("seed {seed}, deviations {devs:?}: {what}")
}

/// One adversarial game (an economy game when `economy`, else classic). `max_positions` caps
/// the log (the run then counts as `Capped`).
fn run(seed: u64, max_positions: u64, economy: bool) -> Run {
    let label: &[u8] = if economy {
        b"adversary-economy"
    } else {
        b"adversary"
    };
    let mut r = SeededDice::new(sha256(&[label, &seed.to_le_bytes()].concat()));
    let n = 3 + r.below(2) as usize;
    let me = r.below(n as u32) as usize;
    let face_down = r.below(2) == 0;
    let missions = r.below(2) == 0;
    let k = 1 + r.below(3) as usize;
    let pool: &[Dev] = if economy { &ECONOMY } else { &ALL };
    let mut devs: Vec<Dev> = vec![];
    while devs.len() < k {
        let d = pool[r.below(pool.len() as u32) as usize];
        if !devs.contains(&d) {
            devs.push(d);
        }
    }
    // Every economy run tries one of the attacks on its rounds.
    let round_attack = [Dev::SplitCommits, Dev::EmptyBatches][(seed % 2) as usize];
    if economy && !devs.contains(&round_attack) {
        devs.push(round_attack);
    }
    devs.sort();
    let rate = [5, 25, 60, 100][r.below(4) as usize];
    let delay = [
        MISSING / 2 - 100,
        MISSING / 2 + 100,
        TURN_GRACE - 100,
        TURN_GRACE + 100,
        MISSING - 100,
        MISSING + 100,
    ][r.below(6) as usize];
    let think = [TURN_GRACE - 150, TURN_GRACE + 150][r.below(2) as usize];
    let mut net = Net::new(n, seed, NetParams::perfect());
    net.params.max_delay = 1 + u64::from(r.below(40));
    let honest: Vec<usize> = (0..n).filter(|&i| i != me).collect();
    let adv = Rc::new(RefCell::new(Adv {
        rng: SeededDice::new(sha256(
            &[b"adv-rng".as_slice(), &seed.to_le_bytes()].concat(),
        )),
        devs: devs.clone(),
        rate,
        active: false,
        key: SigningKey::from_bytes(&net.configs[me].identity_secret),
        me,
        stash: vec![],
        held: vec![],
        delay,
        now: 0,
        seq: 1 << 52,
        honest: honest.clone(),
        applied: BTreeMap::new(),
        split: BTreeMap::new(),
    }));
    let a2 = adv.clone();
    net.tamper = Some((
        me,
        Box::new(move |_: &mut Peer, from, to, bytes| a2.borrow_mut().filter(from, to, bytes)),
    ));
    if devs.contains(&Dev::WithholdMoves) || devs.contains(&Dev::SlowMoves) {
        net.autoplay[me] = false;
    }
    let bots = r.below(2) as usize;
    let mut p = if economy {
        economy_proposal(&net, &vec![BotLevel::Easy; bots], 2)
    } else {
        let mut p = net.proposal(bots);
        p.face_down = face_down;
        p.options = ClassicOptions {
            missions,
            ..ClassicOptions::default()
        };
        p
    };
    p.nonce = seed;
    net.start(p.clone());
    let keys = net.keys();
    let adv_key = keys[me];
    let honest_keys: BTreeSet<PeerKey> = honest.iter().map(|&i| keys[i]).collect();
    // Per honest peer: what it waits on and since when; its log length and since when.
    let mut waiting: BTreeMap<usize, (Vec<PeerKey>, u64, u64)> = BTreeMap::new();
    let mut progress: BTreeMap<usize, (u64, u64)> = BTreeMap::new();
    let mut my_turn_since: Option<u64> = None;
    let mut my_batch_since: Option<u64> = None;
    let mut reloads = 0;
    let mut offline_until: Option<u64> = None;
    let limit = 600_000u64;
    let mut stalled_on_adversary = false;
    let trace = std::env::var("ORBIS_ADV_TRACE").is_ok();
    let done = |net: &Net| -> bool {
        honest.iter().all(|&i| {
            let p = &net.peers[i];
            p.halted().is_some()
                || p.ended().is_some()
                || p.game().is_some_and(|g| g.is_over())
                || p.log_len() >= max_positions
        })
    };
    loop {
        net.run_until(net.now + 100, |_| false);
        let now = net.now;
        if done(&net) || now > limit {
            break;
        }
        let started = honest.iter().all(|&i| net.peers[i].game().is_some());
        {
            let mut a = adv.borrow_mut();
            a.now = now;
            if started && !a.active {
                a.active = true;
            }
        }
        // Held messages whose time came.
        let due: Vec<(usize, Vec<u8>)> = {
            let mut a = adv.borrow_mut();
            let (due, keep): (Vec<_>, Vec<_>) = a.held.drain(..).partition(|h| h.0 <= now);
            a.held = keep;
            due.into_iter().map(|(_, to, b)| (to, b)).collect()
        };
        for (to, b) in due {
            net.inject(me, to, b);
        }
        // The adversary's driver.
        let active = adv.borrow().active;
        if active {
            adversary_step(
                &mut net,
                &adv,
                me,
                &honest,
                &mut reloads,
                &mut offline_until,
            );
            // Its slow or withheld moves.
            if net.online[me] && net.peers[me].is_my_turn() {
                let since = *my_turn_since.get_or_insert(now);
                if !adv.borrow().devs.contains(&Dev::WithholdMoves) && now >= since + think {
                    if let Some(s) = net.peers[me].view() {
                        if s.players[s.current as usize].sealed.is_empty() {
                            if let Some(act) = orbis_engine::bot::choose(&s, BotLevel::Normal) {
                                if let Ok(o) = net.peers[me].act(act) {
                                    net.process(me, o);
                                }
                                my_turn_since = None;
                            }
                        }
                    }
                }
            } else {
                my_turn_since = None;
            }
        }
        if economy {
            play_economy(&mut net, &adv, seed, think, &mut my_batch_since);
        }
        // The honest pages (and the adversary's own page, which votes like them).
        for i in 0..n {
            if !net.online[i] {
                continue;
            }
            let w = net.peers[i].waiting_on();
            let at = net.peers[i].log_len();
            let e = waiting.entry(i).or_insert((vec![], now, at));
            // As the page counts (`Session::note_waiting`): at one position, so a participant
            // awaited at every look over many quick positions is not overdue at the next.
            if e.0 != w || e.2 != at {
                *e = (w.clone(), now, at);
            }
            if !w.is_empty() && now >= e.1 + VOTE_AFTER && (now - e.1) % 1_000 < 100 {
                if trace {
                    println!(
                        "{now}: peer {i} (log {}) votes out {:?} (waited since {})",
                        net.peers[i].log_len(),
                        w.iter()
                            .map(|k| keys.iter().position(|x| x == k))
                            .collect::<Vec<_>>(),
                        e.1
                    );
                }
                for k in &w {
                    let c = Control::Drop {
                        peer: *k,
                        level: BotLevel::Easy,
                    };
                    if let Ok(o) = net.peers[i].vote(c) {
                        net.process(i, o);
                    }
                }
            }
            for req in net.peers[i].readmit_requests() {
                if !req.left_present && !req.seconded {
                    if let Ok(o) = net.peers[i].vote(req.control) {
                        net.process(i, o);
                    }
                }
            }
        }
        // Checks during the run: tables and stalls.
        let mut all_stalled = true;
        for &i in &honest {
            check_tables(seed, &devs, &net.peers[i], n);
            let p = &net.peers[i];
            let len = p.log_len();
            let e = progress.entry(i).or_insert((len, now));
            if e.0 != len {
                *e = (len, now);
            }
            let stopped =
                p.halted().is_some() || p.ended().is_some() || p.game().is_none_or(|g| g.is_over());
            if stopped || now < e.1 + STALL {
                all_stalled &= stopped;
            }
            if !stopped && now >= e.1 + STALL {
                let w = p.waiting_on();
                if w.is_empty() || w.iter().any(|k| honest_keys.contains(k)) {
                    if trace {
                        for j in 0..n {
                            println!(
                                "peer {j}: log {} waiting {:?} votes {:?} complaints {:?}",
                                net.peers[j].log_len(),
                                net.peers[j].waiting_on(),
                                net.peers[j].open_votes(),
                                net.complaints(j).iter().rev().take(6).collect::<Vec<_>>()
                            );
                            println!(
                                "  links {:?}",
                                (0..n)
                                    .map(|x| net.peers[j].link_of(&keys[x]))
                                    .collect::<Vec<_>>()
                            );
                        }
                    }
                    fail(
                        seed,
                        &devs,
                        format!(
                            "peer {i} (adversary {me}) stalled at {len} since {} ms waiting on {:?} (honest: {:?})",
                            e.1,
                            w.iter().map(|k| keys.iter().position(|x| x == k)).collect::<Vec<_>>(),
                            honest
                        ),
                    );
                }
            }
        }
        // Every honest peer stopped, or stalled naming the adversary alone: nothing more will
        // happen (its votes did not unblock it: counted apart).
        if all_stalled {
            stalled_on_adversary = true;
            break;
        }
    }
    // Let the last messages (halts' evidence, secrets) settle.
    net.run_until(net.now + 2_000, |_| false);
    let applied = adv.borrow().applied.clone();
    check(seed, &devs, &net, me, &honest, limit, &applied);
    let adversary_dropped = honest.iter().any(|&i| {
        net.events[i].iter().any(|e| {
            matches!(e, ProtocolEvent::ControlApplied { control: Control::Drop { peer, .. }, .. } if *peer == adv_key)
        })
    });
    let h0 = &net.peers[honest[0]];
    let outcome = if honest
        .iter()
        .all(|&i| net.peers[i].state().is_some_and(|s| s.winner().is_some()))
    {
        Outcome::Finished
    } else if h0.ended().is_some() {
        Outcome::EndedByLeaver
    } else if stalled_on_adversary && h0.halted().is_none() {
        Outcome::StalledNamingAdversary
    } else if matches!(h0.halted(), Some(HaltReport::VotedOutWhilePlaying { .. })) {
        Outcome::HaltedOnVoteOut
    } else if h0.halted().is_some() {
        Outcome::HaltedNamingAdversary
    } else {
        Outcome::Capped
    };
    Run {
        outcome,
        adversary_dropped,
        devs,
        applied,
        positions: h0.log_len(),
        sim_ms: net.now,
    }
}

fn adversary_step(
    net: &mut Net,
    adv: &Rc<RefCell<Adv>>,
    #[allow(dead_code)] me: usize,
    honest: &[usize],
    reloads: &mut u32,
    offline_until: &mut Option<u64>,
) {
    let now = net.now;
    if let Some(t) = *offline_until {
        if now >= t {
            *offline_until = None;
            net.online[me] = true;
        }
        return;
    }
    let mut guard = adv.borrow_mut();
    let a = &mut *guard;
    let to = honest[a.rng.below(honest.len() as u32) as usize];
    let tag = net.peers[to].game_tag();
    let at = net.peers[to].log_len();
    let keys = net.keys();
    let mut send: Vec<(usize, Vec<u8>)> = vec![];
    if a.hit(Dev::Replay) && !a.stash.is_empty() {
        let pick = a.rng.below(a.stash.len() as u32) as usize;
        let (_, b) = a.stash[pick].clone();
        send.push((to, b));
    }
    if a.hit(Dev::SpamProposals) {
        let mut p = net.proposal(0);
        p.nonce = u64::from(a.rng.below(1 << 30));
        let key = if a.roll(50) {
            None
        } else {
            Some(a.throwaway())
        };
        if let Some(k) = &key {
            p.participants[0] = PeerKey(k.verifying_key().to_bytes());
        }
        let b = a.seal(key.as_ref(), game_id(), &Body::Propose(p));
        send.push((to, b));
    }
    if let Some(tag) = tag {
        if a.hit(Dev::SpamVotes) {
            let victim = keys[honest[a.rng.below(honest.len() as u32) as usize]];
            let control = if a.roll(70) {
                Control::Drop {
                    peer: victim,
                    level: BotLevel::Easy,
                }
            } else {
                Control::SeatToBot {
                    seat: a.rng.below(keys.len() as u32) as u8,
                    level: BotLevel::Easy,
                }
            };
            let at = at + u64::from(a.rng.below(4)).saturating_sub(1);
            let b = a.seal(None, tag, &Body::Vote { at, control });
            send.push((to, b));
        }
        if a.hit(Dev::SpamReadmits) {
            let mut tip = [0u8; 32];
            tip[0] = a.rng.below(256) as u8;
            let peer = if a.roll(50) {
                keys[me]
            } else {
                keys[a.rng.below(keys.len() as u32) as usize]
            };
            let at = at + u64::from(a.rng.below(3));
            let b = a.seal(
                None,
                tag,
                &Body::Vote {
                    at,
                    control: Control::Readmit { peer, tip },
                },
            );
            send.push((to, b));
        }
    }
    if a.hit(Dev::SpamHellos) {
        let key = if a.roll(50) {
            None
        } else {
            Some(a.throwaway())
        };
        let name = format!("spam{}", a.rng.below(1000));
        let b = a.seal(
            key.as_ref(),
            game_id(),
            &Body::Hello {
                name,
                answer: false,
                challenge: None,
                response: None,
            },
        );
        send.push((to, b));
    }
    let mut chat: Option<Option<PeerKey>> = None;
    if a.hit(Dev::SpamChat) {
        if a.roll(50) {
            chat = Some(if a.roll(50) { None } else { Some(keys[to]) });
        } else {
            let key = a.throwaway();
            let b = a.seal(
                Some(&key),
                game_id(),
                &Body::Chat {
                    to: None,
                    text: "hi".into(),
                    sealed: vec![],
                },
            );
            send.push((to, b));
        }
    }
    let reload = *reloads < 3 && a.has(Dev::Reload) && a.roll(1) && a.roll(50);
    let memento = a.roll(50);
    let disconnect = a.has(Dev::Disconnect) && a.roll(1) && a.roll(30);
    let off_for = [MISSING / 2, MISSING + 500, 10_000][a.rng.below(3) as usize];
    drop(guard);
    for (to, b) in send {
        net.inject(me, to, b);
    }
    if let Some(dest) = chat {
        if let Ok(o) = net.peers[me].chat(dest, "spam") {
            net.process(me, o);
        }
    }
    if reload {
        *reloads += 1;
        *adv.borrow_mut().applied.entry(Dev::Reload).or_default() += 1;
        let m = if memento {
            net.peers[me].memento()
        } else {
            vec![]
        };
        net.reload(me, m);
    } else if disconnect {
        *adv.borrow_mut().applied.entry(Dev::Disconnect).or_default() += 1;
        net.online[me] = false;
        *offline_until = Some(now + off_for);
    }
}

/// The economy game's pages: every online peer whose seats are awaited sends the computer's
/// choice for them; the adversary's page withholds it, sends it late or sends an empty batch
/// when its deviations say so.
fn play_economy(
    net: &mut Net,
    adv: &Rc<RefCell<Adv>>,
    seed: u64,
    think: u64,
    since: &mut Option<u64>,
) {
    let me = adv.borrow().me;
    for i in 0..net.peers.len() {
        if !net.online[i] {
            continue;
        }
        let Some((round, seats)) = net.peers[i].economy_due() else {
            if i == me {
                *since = None;
            }
            continue;
        };
        let Some(Game::Economy(s)) = net.peers[i].game() else {
            continue;
        };
        let mut batch: Vec<_> = seats
            .iter()
            .filter_map(|&seat| orbis_engine::bot::economy::choose(s, seat, BotLevel::Normal))
            .collect();
        if i == me {
            let mut a = adv.borrow_mut();
            let first = since.is_none();
            let start = *since.get_or_insert(net.now);
            if a.has(Dev::WithholdMoves) {
                if first {
                    *a.applied.entry(Dev::WithholdMoves).or_default() += 1;
                }
                continue;
            }
            if a.has(Dev::SlowMoves) && net.now < start + think {
                if first {
                    *a.applied.entry(Dev::SlowMoves).or_default() += 1;
                }
                continue;
            }
            if a.hit(Dev::EmptyBatches) {
                batch.clear();
            }
        }
        let salt = sha256(
            &[
                b"batch".as_slice(),
                &[i as u8],
                &round.to_le_bytes(),
                &seed.to_le_bytes(),
            ]
            .concat(),
        );
        if let Ok(o) = net.peers[i].submit_economy(batch, salt) {
            net.process(i, o);
        }
        if i == me {
            *since = None;
        }
    }
}

/// Every table a stranger or a participant can grow stays within its bound (PROTOCOL.md, "A
/// stranger cannot: grow a peer's tables without bound").
fn check_tables(seed: u64, devs: &[Dev], p: &Peer, n: usize) {
    let t: BTreeMap<_, _> = p.table_sizes().into_iter().collect();
    // Orders and economy games keep every position's round (the transcript's part of the log):
    // the table grows with the log, never ahead of it; a classic game's generic rounds are
    // limited.
    let rounds = match p.game() {
        Some(Game::Classic(_)) | None => 64,
        _ => 64 + p.log_len() as usize,
    };
    let bounds = [
        ("proposals", 64),
        ("proposers", 64),
        ("names", 256),
        ("early", 4096),
        ("junk", 8192),
        // Open votes: at most 32 per voter, and those about us kept 64 positions.
        ("votes", 32 * n + 64 + n),
        ("rounds", rounds),
        ("their_checkpoints", 4 * n),
    ];
    for (k, b) in bounds {
        if let Some(&v) = t.get(k) {
            if v > b {
                fail(seed, devs, format!("table {k}: {v} > {b} ({t:?})"));
            }
        }
    }
}

/// After the run: the checker, on the honest peers only.
fn check(
    seed: u64,
    devs: &[Dev],
    net: &Net,
    #[allow(dead_code)] me: usize,
    honest: &[usize],
    _limit: u64,
    _applied: &BTreeMap<Dev, u64>,
) {
    let keys = net.keys();
    let adv = keys[me];
    let is_honest = |k: &PeerKey| honest.iter().any(|&i| keys[i] == *k);
    let f = |w: String| fail(seed, devs, format!("(adversary {me}) {w}"));
    if std::env::var("ORBIS_ADV_TRACE").is_ok() {
        for &i in honest {
            for e in &net.events[i] {
                if matches!(
                    e,
                    ProtocolEvent::ControlApplied { .. }
                        | ProtocolEvent::Halted(_)
                        | ProtocolEvent::Rejected { .. }
                        | ProtocolEvent::WithheldClaimed { .. }
                        | ProtocolEvent::GameEnded { .. }
                ) {
                    println!("peer {i}: {e:?}");
                }
            }
        }
        println!("keys {:?}", keys);
    }
    // No divergence: the same log head at every common position (up to where an equivocation
    // was found, which every honest peer shares), the same state at the same length.
    let mut agreed = u64::MAX;
    for &i in honest {
        if let Some(HaltReport::Equivocation { agreed_index, .. }) = net.peers[i].halted() {
            agreed = agreed.min(*agreed_index);
        }
    }
    for (x, &i) in honest.iter().enumerate() {
        for &j in &honest[x + 1..] {
            let (pi, pj) = (&net.peers[i], &net.peers[j]);
            let common = pi.log_len().min(pj.log_len()).min(agreed);
            for at in [common / 2, common] {
                if pi.head_at(at) != pj.head_at(at) {
                    f(format!("peers {i} and {j} diverge at {at} (of {common})"));
                }
            }
            if pi.log_len() == pj.log_len()
                && agreed == u64::MAX
                && pi.halted().is_none()
                && pj.halted().is_none()
                && pi.state_hash() != pj.state_hash()
            {
                f(format!(
                    "peers {i} and {j}: other states at {}",
                    pi.log_len()
                ));
            }
        }
    }
    for &i in honest {
        let p = &net.peers[i];
        for e in &net.events[i] {
            match e {
                // No honest peer dropped or handed to a bot.
                ProtocolEvent::ControlApplied {
                    control: Control::Drop { peer, .. },
                    at,
                } if is_honest(peer) => f(format!("peer {i}: honest {peer:?} dropped at {at}")),
                ProtocolEvent::ControlApplied {
                    control: Control::SeatToBot { seat, .. },
                    at,
                } if honest.contains(&(*seat as usize)) => f(format!(
                    "peer {i}: honest seat {seat} handed to a bot at {at}"
                )),
                ProtocolEvent::GameEnded { left, .. } if is_honest(left) => {
                    f(format!("peer {i}: game ended blaming honest {left:?}"))
                }
                // No honest peer named for a message it signed.
                ProtocolEvent::Rejected {
                    peer: Some(k),
                    violation,
                    ..
                } if is_honest(k) && !benign(violation) => {
                    f(format!("peer {i} rejects honest {k:?}: {violation:?}"))
                }
                _ => {}
            }
        }
        // No honest peer named a cheater.
        match p.halted() {
            None => {}
            Some(HaltReport::Equivocation { peer, .. })
            | Some(HaltReport::CheckpointMismatch { peer, .. })
            | Some(HaltReport::Cheat { peer, .. })
                if *peer != adv =>
            {
                f(format!("peer {i} halted naming {peer:?}: {:?}", p.halted()))
            }
            Some(HaltReport::VotedOutWhilePlaying { voters, .. })
                if voters.iter().any(is_honest) =>
            {
                f(format!("peer {i} halted naming honest voters: {voters:?}"))
            }
            Some(
                HaltReport::Equivocation { .. }
                | HaltReport::CheckpointMismatch { .. }
                | HaltReport::Cheat { .. }
                | HaltReport::VotedOutWhilePlaying { .. },
            ) => {}
            Some(h @ HaltReport::Internal(_)) => f(format!("peer {i}: {h:?}")),
        }
        // Honest transcripts verify and name the cheater of a halted game.
        if let Some(t) = p.transcript() {
            match (verify(&t), p.halted()) {
                (Ok(_), None) => {}
                (Ok(_), Some(HaltReport::VotedOutWhilePlaying { .. })) => {}
                (Err(VerifyError::Cheat { peer: Some(k), .. }), Some(_)) if k == adv => {}
                (
                    Err(VerifyError::Cheat {
                        peer: Some(k),
                        what,
                    }),
                    _,
                ) if k != adv => f(format!("peer {i}'s transcript names {k:?}: {what}")),
                (Ok(r), h) => f(format!(
                    "peer {i}'s transcript verifies though it halted {h:?}: agreed by {:?} of {:?}",
                    r.agreed_by, r.participants
                )),
                (r, h) => f(format!("peer {i}'s transcript: {r:?}, halted {h:?}")),
            }
        }
    }
}

/// Refusals that blame nobody: a message whose signature was never checked (the adversary
/// flipped bytes of an honest message it relayed) names only its claimed sender, which is no
/// evidence of anything (PROTOCOL.md, Wire: "validly signed ones name their signer").
fn benign(v: &Violation) -> bool {
    use orbis_protocol::wire::WireError;
    matches!(
        v,
        Violation::Wire(
            WireError::BadSignature | WireError::Undecodable(_) | WireError::UnknownVersion(_)
        )
    )
}

struct Tally {
    games: u64,
    outcomes: BTreeMap<Outcome, u64>,
    per_dev: BTreeMap<Dev, (u64, u64)>,
    dropped: u64,
    positions: u64,
    sim_ms: u64,
    /// Runs where the checker failed: seed and message.
    failures: Vec<(u64, String)>,
}

fn tally(seeds: impl Iterator<Item = u64>, max_positions: u64, economy: bool) -> Tally {
    let mut t = Tally {
        games: 0,
        outcomes: BTreeMap::new(),
        per_dev: BTreeMap::new(),
        dropped: 0,
        positions: 0,
        sim_ms: 0,
        failures: vec![],
    };
    for seed in seeds {
        t.games += 1;
        let r = match std::panic::catch_unwind(|| run(seed, max_positions, economy)) {
            Ok(r) => r,
            Err(e) => {
                let what = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                t.failures.push((seed, what));
                continue;
            }
        };
        *t.outcomes.entry(r.outcome).or_default() += 1;
        t.dropped += u64::from(r.adversary_dropped);
        t.positions += r.positions;
        t.sim_ms += r.sim_ms;
        for d in &r.devs {
            let e = t.per_dev.entry(*d).or_default();
            e.0 += 1;
            e.1 += r.applied.get(d).copied().unwrap_or(0);
        }
    }
    t
}

fn print(t: &Tally, secs: f64) {
    println!(
        "{} games in {secs:.1} s ({:.2} games/s), {} positions, {} simulated s, {} checker failures",
        t.games,
        t.games as f64 / secs,
        t.positions,
        t.sim_ms / 1000,
        t.failures.len()
    );
    for (o, c) in &t.outcomes {
        println!("  outcome {o:?}: {c}");
    }
    println!("  adversary dropped by vote: {}", t.dropped);
    for (d, (runs, times)) in &t.per_dev {
        println!("  {d:?}: in {runs} passing runs, applied {times} times");
    }
    for (seed, what) in &t.failures {
        println!(
            "  FAILED seed {seed}: {}",
            what.chars().take(400).collect::<String>()
        );
    }
}

/// Seeds whose run fails the checker on findings still open (see `known_findings`): none today.
///
/// (Seeds 4, 21, 24 and 41 failed until `orbis verify` named the cheater of an equivocation
/// halt and of a false checkpoint's halt, issue 30 C14; seed 13, where honest peers the
/// adversary's `SplitReveals` left at different positions voted each other out and deadlocked,
/// passes since a target whose part is in is never awaited, B7; the three of the run from
/// 3,000,000 are in `LONG_RUN_FIXED`.)
const KNOWN: [u64; 0] = [];

/// The small budget of the test suite.
#[test]
fn an_adversary_trying_every_deviation_never_harms_an_honest_peer() {
    let start = std::time::Instant::now();
    let t = tally((0..24).filter(|s| !KNOWN.contains(s)), 160, false);
    print(&t, start.elapsed().as_secs_f64());
    assert!(t.failures.is_empty(), "{:?}", t.failures);
}

/// The small budget of economy games: each run tries `SplitCommits` or `EmptyBatches` (the
/// independent review of issue 29) besides the deviations it draws.
#[test]
fn an_adversary_in_an_economy_game_never_harms_an_honest_peer() {
    let start = std::time::Instant::now();
    let t = tally(0..8, 200, true);
    print(&t, start.elapsed().as_secs_f64());
    assert!(t.failures.is_empty(), "{:?}", t.failures);
}

/// Seeds of the long run that failed the checker and pass since their fix, run again here:
/// - 2000259 (`WithholdReveals`): the adversary, voted out while the roll of its own entry
///   waited for its reveal, left a transcript that `orbis verify` refused, naming an honest
///   peer's reveal as forged: resends and transcripts gave a position's votes before its entry,
///   so a lagging peer or the verifier applied the vote to the adversary's turn (a computer
///   moved instead) and then refused the reveals of the roll that had been played. A vote taken
///   while a roll waits now comes after that roll's entry (`Run::voted_rolling`).
/// - 2000202 (`WithholdReveals`, spam): the adversary sent its reveal to one honest peer only.
///   The other voted it out and, bound by its own open vote (`bound`), waited for the first
///   to vote too; the first had passed the position (it had the reveal) and only asked for
///   resends, which did not count as having passed it, so the second never moved on, and the
///   first voted it out. A signed `Sync` now shows where its sender is (`on_sync`).
/// - 2000121, 2000131, 2000181, 2000198, 2000199 and 2000291: an honest page voted a player out
///   a few milliseconds into a position, having seen it awaited at every look over hundreds of
///   quick positions (each part in within its grace). The target halted naming honest voters
///   (2000121, 2000291), two honest peers left each dropped the other (2000181), a voter bound to
///   its early vote never took the late move another honest peer took and was voted out
///   (2000198), or honest peers split (2000131, 2000199). A page's clock now counts at one
///   position (`Session::note_waiting` in the browser, the same rule in this harness's pages).
/// - 3000057 and 3000099 (`SplitEntries`): the adversary signed an illegal and a legal entry
///   for one position and sent them to different peers. A peer that refused the illegal one
///   forgot it, took the legal one and went on, never comparing the two; the others halted on
///   them (3000057), or an honest peer stalled waiting on one that had gone on (3000099). The
///   refused entry is now kept at the position (`Run::refused`), and a different one chosen
///   there is equivocation (`adversarial.rs`,
///   `illegal_action_is_refused_and_a_second_version_is_equivocation`).
/// - 3000025 (`SplitEntries`): honest peers opened the roll of the version they were given;
///   the peer given the other version, which rolled nothing, refused their reveals for that
///   position as `BadReveal`, blaming them, before it halted naming the adversary. A reveal for
///   a declaration other than the one the log holds at a passed position is now ignored.
const LONG_RUN_FIXED: [u64; 11] = [
    2_000_259, 2_000_202, 2_000_121, 2_000_131, 2_000_181, 2_000_198, 2_000_199, 2_000_291,
    3_000_025, 3_000_057, 3_000_099,
];

#[test]
fn long_run_findings_stay_fixed() {
    let start = std::time::Instant::now();
    let t = tally(LONG_RUN_FIXED.into_iter(), 400, false);
    print(&t, start.elapsed().as_secs_f64());
    assert!(t.failures.is_empty(), "{:?}", t.failures);
}

/// The findings still open: each of these seeds fails the checker (run to see how).
#[test]
#[ignore]
fn known_findings() {
    let t = tally(KNOWN.into_iter(), 400, false);
    print(&t, 1.0);
    assert!(t.failures.is_empty());
}

/// One seed, traced: `ORBIS_ADV_ONLY=S ORBIS_ADV_TRACE=1`.
#[test]
#[ignore]
fn adversary_one_seed() {
    let seed = std::env::var("ORBIS_ADV_ONLY").unwrap().parse().unwrap();
    let r = run(seed, 400, std::env::var("ORBIS_ADV_ECONOMY").is_ok());
    println!("{:?} {:?} {:?}", r.outcome, r.devs, r.applied);
}

/// The long run: `ORBIS_ADV_GAMES` games (default 1,000) from seed `ORBIS_ADV_SEED` (default
/// 1,000,000), each capped at `ORBIS_ADV_POSITIONS` log positions (default 400), printing the
/// totals every `ORBIS_ADV_EVERY` games (default 100). Run it optimised and uncaptured:
/// `cargo test --release -p orbis-protocol --test adversary adversary_long_run -- --ignored --nocapture`.
#[test]
#[ignore]
fn adversary_long_run() {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let games = env("ORBIS_ADV_GAMES", 1_000);
    let from = env("ORBIS_ADV_SEED", 1_000_000);
    let cap = env("ORBIS_ADV_POSITIONS", 400);
    let every = env("ORBIS_ADV_EVERY", 100).max(1);
    let start = std::time::Instant::now();
    std::panic::set_hook(Box::new(|_| {}));
    // Progress as it goes (a run of 100,000 games takes hours): the totals so far after every
    // `ORBIS_ADV_EVERY` games, then the whole tally.
    let economy = std::env::var("ORBIS_ADV_ECONOMY").is_ok();
    let mut t = tally(std::iter::empty(), cap, economy);
    let mut next = from;
    while next < from + games {
        let end = (next + every).min(from + games);
        merge(&mut t, tally(next..end, cap, economy));
        next = end;
        println!(
            "after {} games, {:.0} s: {} checker failures",
            t.games,
            start.elapsed().as_secs_f64(),
            t.failures.len()
        );
    }
    print(&t, start.elapsed().as_secs_f64());
}

/// Adds tally `b` to `a`.
fn merge(a: &mut Tally, b: Tally) {
    a.games += b.games;
    for (o, c) in b.outcomes {
        *a.outcomes.entry(o).or_default() += c;
    }
    for (d, (runs, times)) in b.per_dev {
        let e = a.per_dev.entry(d).or_default();
        e.0 += runs;
        e.1 += times;
    }
    a.dropped += b.dropped;
    a.positions += b.positions;
    a.sim_ms += b.sim_ms;
    a.failures.extend(b.failures);
}

/// Found by this harness (seed 9: `SplitReveals`): the adversary sends one honest peer a wrong
/// dice pre-image under the very sequence number of its true reveal, which the others get. The
/// victim refused the forgery (`BadReveal`) but kept its number taken, so the true reveal, relayed
/// by the others' resends, was refused as `SeqReused`: the victim stalled at that roll for good
/// while the others played on, waited on the victim's next reveal and voted it out with the
/// adversary. A forged pre-image now takes no number and the true one still counts.
#[test]
fn a_forged_reveal_under_the_true_ones_number_stalls_nobody() {
    let mut net = Net::new(3, 9, NetParams::perfect());
    let liar = 1usize;
    let key = SigningKey::from_bytes(&net.configs[liar].identity_secret);
    let me = net.peers[liar].key();
    net.tamper = Some((
        liar,
        Box::new(move |_: &mut Peer, _, to, bytes: Vec<u8>| {
            match Envelope::open_where(&bytes, |_| true) {
                Ok((
                    env,
                    Body::Reveal {
                        index,
                        roll,
                        decl,
                        mut preimage,
                        next_tip,
                    },
                )) if to == 2 && env.sender == me => {
                    preimage[0] ^= 1;
                    let body = Body::Reveal {
                        index,
                        roll,
                        decl,
                        preimage,
                        next_tip,
                    };
                    vec![Envelope::seal(&key, env.game_id, env.seq, &body)]
                }
                _ => vec![bytes],
            }
        }),
    ));
    let p = net.proposal(0);
    net.start(p);
    assert!(
        net.run_until(2_000_000, |n| n.peers[2].log_len() >= 300
            || n.all_over(&[0, 2])),
        "peer 2 stalled at {} (peer 0 at {}), waiting on {:?}: {:?}",
        net.peers[2].log_len(),
        net.peers[0].log_len(),
        net.peers[2].waiting_on(),
        net.complaints(2).iter().rev().take(4).collect::<Vec<_>>()
    );
    for i in [0, 2] {
        assert!(net.peers[i].halted().is_none());
        let bad = net.events[i]
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    ProtocolEvent::Rejected {
                        violation: Violation::SeqReused { .. },
                        ..
                    }
                )
            })
            .count();
        assert_eq!(bad, 0, "peer {i} refused a true reveal");
    }
}
