//! The adversary's deviations (`Dev`) and the filter and driver that apply them (`Adv`).

use super::*;
/// Every way the adversary deviates. A run picks a few; each applies to a share of the messages
/// (or steps) it concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Dev {
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
    /// Issue 59: at positions where an honest player is not awaited (not in its own page's
    /// `waiting_on`), signs with its own key (a genuine voter) a `SeatToBot` of that player's
    /// seat or a `Drop` of that player, at its position (now and then one before or after), and
    /// sends it to every honest peer.
    UnawaitedVotes,
}

pub(super) const ALL: [Dev; 25] = [
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
    // Last, so `Harness::Before59` draws from the list as it was.
    Dev::UnawaitedVotes,
];

/// The deviations of an economy game (the deal's and the classic log's have nothing to act on).
pub(super) const ECONOMY: [Dev; 18] = [
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
    Dev::UnawaitedVotes,
];

/// The adversary's state, shared by its message filter and its driver.
pub(super) struct Adv {
    pub(super) rng: SeededDice,
    pub(super) devs: Vec<Dev>,
    /// Percent of the messages a deviation applies to.
    pub(super) rate: u32,
    /// On once every honest peer's game started (the lobby is not attacked but by spam).
    pub(super) active: bool,
    pub(super) key: SigningKey,
    #[allow(dead_code)]
    pub(super) me: usize,
    /// Old messages it sent, for replays.
    pub(super) stash: Vec<(usize, Vec<u8>)>,
    /// Messages held back: (deliver at, to, bytes).
    pub(super) held: Vec<(u64, usize, Vec<u8>)>,
    /// The delay of `DelayToGrace` this run.
    pub(super) delay: u64,
    pub(super) now: u64,
    pub(super) seq: u64,
    /// The honest peers' indices (participant indices too).
    pub(super) honest: Vec<usize>,
    /// The honest players' seats: (participant, seat).
    pub(super) honest_seats: Vec<(usize, u8)>,
    /// How many times each deviation did something.
    pub(super) applied: BTreeMap<Dev, u64>,
    /// `SplitCommits`: per round, whether it is split (the first honest peer is told another
    /// batch: this payload and salt).
    pub(super) split: BTreeMap<u32, Option<Opening>>,
}

/// A payload and the salt that opens its commitment.
pub(super) type Opening = (Vec<u8>, [u8; 32]);

impl Adv {
    pub(super) fn has(&self, d: Dev) -> bool {
        self.active && self.devs.contains(&d)
    }
    pub(super) fn roll(&mut self, pct: u32) -> bool {
        self.rng.below(100) < pct
    }
    pub(super) fn hit(&mut self, d: Dev) -> bool {
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
    pub(super) fn seal(&mut self, key: Option<&SigningKey>, tag: [u8; 16], body: &Body) -> Vec<u8> {
        self.seq += 1;
        Envelope::seal(key.unwrap_or(&self.key), tag, self.seq, body)
    }
    pub(super) fn throwaway(&mut self) -> SigningKey {
        let mut b = [0u8; 32];
        b[..4].copy_from_slice(&self.rng.below(1 << 20).to_le_bytes());
        b[31] = 0xad;
        SigningKey::from_bytes(&b)
    }

    /// What leaves for `to` in place of `bytes`.
    pub(super) fn filter(&mut self, from: usize, to: usize, bytes: Vec<u8>) -> Vec<Vec<u8>> {
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
    pub(super) fn split_round(&mut self, to: usize, body: &Body) -> Option<Body> {
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
