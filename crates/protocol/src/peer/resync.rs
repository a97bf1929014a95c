//! Resync: answering `Sync` requests from lagging or rejoining peers with the transcript they may
//! miss (lobby messages, log entries with their votes and reveals, open rounds), in batches that
//! fit one data-channel message.
//!
//! Owns `Peer::last_answer` (at most one answer per link per half resend period), what our own
//! `Sync` asks for, `Peer::unread_asked` (when we last asked for an unread card's shares), and
//! `Peer::unanswered` (each participant's last request that came over a connection it is not
//! bound to, answered over the next connection it proves itself on).
//!
//! Invariant: an answer carries only original signed bytes, so a rejoiner verifies everything
//! itself and needs nobody's word; the groups of one position stay in one batch. Once a game
//! runs, an answer goes only over the connection bound to the request's signer.

use super::*;

/// Positions before our log end that a `Sync` answer repeats to a requester that is ahead of us.
pub(super) const SYNC_LOOKBACK: u64 = 4;

/// Positions before the requester's log end that a `Sync` answer repeats when its head there
/// differs from ours.
pub(super) const FORK_LOOKBACK: u64 = 64;

/// Messages in one resend batch, and the bytes we put in one (small enough for one WebRTC
/// data-channel message everywhere).
pub(super) const MAX_BATCH_ITEMS: usize = 8192;

pub(super) const BATCH_BYTES: usize = 48 * 1024;

/// What a `Sync` asks for: (started, its log length, its head), its deal (position, digest),
/// and the positions of its cards it cannot read.
#[derive(Clone, Debug)]
pub(super) struct SyncAsk {
    pub(super) at: (bool, u64, [u8; 32]),
    pub(super) deal: (u32, [u8; 32]),
    pub(super) unread: Vec<(u8, u16)>,
}

impl Peer {
    /// Whether a face-down card of ours has stayed unread for a resend period since we last
    /// asked for it (then it counts as asked now). A stall asks for every unread card anyway
    /// (`Sync::unread`), but a card that blocks no move (a mission, or a card held while
    /// others play) would otherwise never be asked for again after a reload or a lost share.
    pub(super) fn unread_overdue(&mut self, now: u64) -> bool {
        let unread = self.run.as_ref().map_or(vec![], Run::unread);
        self.unread_asked.retain(|k, _| unread.contains(k));
        let mut due = false;
        for k in unread {
            let at = *self.unread_asked.entry(k).or_insert(now);
            due |= now >= at.saturating_add(self.cfg.resend_ms);
        }
        if due {
            self.unread_asked.values_mut().for_each(|t| *t = now);
        }
        due
    }

    /// A request for what we miss.
    pub(super) fn sync_body(&self) -> Body {
        let r = self.run.as_ref();
        Body::Sync {
            started: r.is_some(),
            have_index: self.log_len(),
            head: self.log_head().unwrap_or([0; 32]),
            // Holding a deal message built on what we do not hold (someone told peers
            // different things), we ask for every deal message the others took, so that the
            // two conflicting ones meet.
            deal: r.and_then(|r| r.deal.as_ref()).map_or(0, |d| {
                if d.diverged {
                    0
                } else {
                    d.log.len() as u32
                }
            }),
            deal_digest: r
                .and_then(|r| r.deal.as_ref())
                .map_or([0; 32], |d| d.digest),
            unread: r.map_or(vec![], Run::unread),
            withheld: r.map_or(vec![], Run::withheld),
        }
    }

    /// Resends to `link` whatever it may be missing: the lobby transcript, log entries from
    /// `have`, the dice reveals of those positions and open orders rounds.
    pub(super) fn answer_sync(
        &mut self,
        link: LinkId,
        started: bool,
        have: u64,
        head: [u8; 32],
        out: &mut Output,
    ) {
        let groups = self.sync_groups(started, have, head);
        for items in pack(groups, BATCH_BYTES, MAX_BATCH_ITEMS) {
            let raw = self.seal(&Body::Batch { items });
            out.send.push((Dest::Link(link), raw));
        }
    }

    /// What a requester at (`started`, `have`, `head`) may miss, in groups that stay whole:
    /// the lobby, then per log position its votes, dice reveals and entry (and orders rounds).
    pub(super) fn sync_groups(
        &self,
        started: bool,
        have: u64,
        head: [u8; 32],
    ) -> Vec<Vec<Vec<u8>>> {
        // Groups are kept whole inside one batch, so a lagging peer sees the votes of a
        // position before its dice and entry.
        let mut groups: Vec<Vec<Vec<u8>>> = vec![];
        // A requester that started while we did not gets our lobby too: if the room moved on
        // to a newer proposal, the accepts in it tell that requester its game is dead.
        if !started || self.run.is_none() {
            let only = self.run.as_ref().map(|r| r.proposal_hash);
            let mut g = vec![];
            for (h, (_, raw)) in &self.lobby.proposals {
                if only.is_none_or(|o| o == *h) {
                    g.push(raw.clone());
                }
            }
            for (h, m) in &self.lobby.accepts {
                if only.is_none_or(|o| o == *h) {
                    g.extend(m.values().map(|a| a.raw.clone()));
                }
            }
            for (h, m) in &self.lobby.seed_reveals {
                if only.is_none_or(|o| o == *h) {
                    g.extend(m.values().map(|(_, raw)| raw.clone()));
                }
            }
            groups.push(g);
        }
        if let Some(r) = &self.run {
            let pending = r.pending.as_ref().map(|p| p.index);
            // Orders and economy games: position i is round i.
            let orders_game = !matches!(r.state, Game::Classic(_));
            // If our histories may differ, go back a little so that an entry a seat signed
            // differently for each of us reaches the requester, which then sees both.
            let next = r.next_index();
            let from = if have > next {
                next.saturating_sub(SYNC_LOOKBACK)
            } else if started && r.heads.get(have as usize) != Some(&head) {
                have.saturating_sub(FORK_LOOKBACK)
            } else {
                have
            };
            for i in from..=next {
                let mut votes = vec![];
                for (_, v) in r.votes.at(i) {
                    votes.extend(v.voters.values().cloned());
                }
                let mut content = vec![];
                let rec = if Some(i) == pending {
                    r.pending.as_ref().map(|p| &p.record)
                } else {
                    r.log.get(i as usize)
                };
                if let Some(raw) = rec.and_then(|x| x.raw.as_ref()) {
                    content.push(raw.clone());
                }
                if orders_game {
                    // Orders game: position i is round i.
                    if let Some(o) = u32::try_from(i).ok().and_then(|n| r.orders.get(&n)) {
                        content.extend(o.commits.values().map(|(_, raw)| raw.clone()));
                        content.extend(o.reveals.values().map(|(_, raw)| raw.clone()));
                    }
                }
                let dice: Vec<Vec<u8>> = r
                    .reveals
                    .get(&i)
                    .map_or(vec![], |m| m.values().map(|s| s.raw.clone()).collect());
                // As they came: a vote taken while the position's roll waited (a withheld
                // reveal) after the entry that rolled, so it applies to that roll; any other
                // before the position's entry, which it may have decided (a bot's move).
                let g = if r.voted_rolling.contains(&i) {
                    [content, votes, dice].concat()
                } else {
                    [votes, dice, content].concat()
                };
                groups.push(g);
            }
            if !orders_game {
                let mut g = vec![];
                for o in r.orders.values() {
                    g.extend(o.commits.values().map(|(_, raw)| raw.clone()));
                    g.extend(o.reveals.values().map(|(_, raw)| raw.clone()));
                }
                groups.push(g);
            }
        }
        groups
    }

    /// A `Sync` request: answered at most once per link per half resend period.
    pub(super) fn on_sync(
        &mut self,
        link: Option<LinkId>,
        sender: PeerKey,
        (started, have_index, head): (bool, u64, [u8; 32]),
        deal: (u32, [u8; 32]),
        unread: Vec<(u8, u16)>,
        out: &mut Output,
    ) -> bool {
        // Once a game runs, its transcript is for its participants only: a small request from
        // anyone else must not make us send the whole game.
        if self
            .run
            .as_ref()
            .is_some_and(|r| r.participant(&sender).is_none())
        {
            return true;
        }
        // Its position, signed: a voter bound to a position by its own open vote (`bound`)
        // waits only for voters that have not passed it. A voter that passed it and asks
        // for resends, never voting there, would otherwise hold us at that position while it
        // waits on us for the next, and vote us out (long-run seed 2000202).
        let mut moved = false;
        if let Some(r) = self.run.as_mut().filter(|_| started) {
            if r.reached.get(&sender).is_none_or(|&x| x < have_index) {
                r.note_reached(sender, have_index);
                moved = true;
            }
            // A head past our position may be the one that lets our own open vote go (a
            // voter's checkpoint lost on the way): look again (review of the 5500343 fix).
            // Kept like a checkpoint: only within `MAX_AHEAD` of us.
            let next = r.next_index();
            if have_index < next + MAX_AHEAD
                && r.sync_heads
                    .get(&sender)
                    .is_none_or(|&(x, _)| x <= have_index)
                && r.sync_heads.insert(sender, (have_index, head)) != Some((have_index, head))
                && have_index > next
            {
                moved = true;
            }
        }
        // Once a game runs, only over the connection bound to the request's signer: a `Sync`
        // goes to every connection, so anyone could replay a participant's over its own (or
        // another participant's) and have the whole game sent there
        // (`a_participants_sync_replayed_over_another_link_gets_no_transcript`). A participant
        // on another connection is challenged (`Peer::handle`), and its request kept and
        // answered as soon as it has proven itself there (`Peer::on_hello`): then nobody who
        // moves its binding elsewhere between its requests (the documented whole relay) can
        // keep it from its resends
        // (`a_whole_relay_does_not_cost_the_victim_its_resends_over_its_own_link`).
        let ask = SyncAsk {
            at: (started, have_index, head),
            deal,
            unread,
        };
        let mut kept = false;
        if let Some(l) = link {
            if self.run.is_none() || self.names.bound_to(&sender, l) {
                self.unanswered.remove(&sender);
                self.answer_request(l, sender, &ask, out);
            } else if sender != self.me {
                // Participants only (anyone else returned above): the last request of each,
                // whichever connection brought it, answered only where the signer proves
                // itself. Not remembered as handled either: a copy relayed first would make
                // the signer's own copy, over its own connection, a duplicate never answered
                // (`a_relayed_copy_that_comes_first_does_not_cost_the_victim_its_resend`).
                self.unanswered.insert(sender, ask);
                kept = true;
            }
        }
        if moved {
            self.advance(out);
        }
        !kept
    }

    /// Answers a `Sync` over connection `l`: at most one answer per connection per half
    /// resend period, so a cheap request cannot make us resend the whole game over and over.
    pub(super) fn answer_request(
        &mut self,
        l: LinkId,
        sender: PeerKey,
        ask: &SyncAsk,
        out: &mut Output,
    ) {
        let last = self.last_answer.get(&l).copied();
        if last.is_none_or(|t| self.now >= t + self.cfg.resend_ms / 2) {
            self.last_answer.insert(l, self.now);
            let (started, have_index, head) = ask.at;
            self.answer_sync(l, started, have_index, head, out);
            self.answer_deal(l, sender, ask.deal, &ask.unread, out);
        }
    }

    /// A batch (a `Sync` answer): each item handled as if received alone.
    pub(super) fn on_batch(
        &mut self,
        link: Option<LinkId>,
        items: Vec<Vec<u8>>,
        out: &mut Output,
    ) -> bool {
        // One level only: a batch inside a batch is ignored.
        if self.in_batch || items.len() > MAX_BATCH_ITEMS {
            return true;
        }
        self.in_batch = true;
        for item in items {
            let now = self.now;
            let o = self.receive(link, &item, now);
            out.merge(o);
        }
        self.in_batch = false;
        true
    }
}

/// Packs groups of messages into batches of at most `max_bytes` (unless one message alone is
/// larger) and `max_items`, in order. A group stays whole inside one batch when it fits one; a
/// larger group is spread over several batches in order (a data channel refuses one message of
/// megabytes, and a batch's items are handled one by one anyway).
pub(super) fn pack(
    groups: Vec<Vec<Vec<u8>>>,
    max_bytes: usize,
    max_items: usize,
) -> Vec<Vec<Vec<u8>>> {
    let mut batches = vec![];
    let mut batch: Vec<Vec<u8>> = vec![];
    let mut size = 0;
    for g in groups {
        let gs: usize = g.iter().map(|x| x.len()).sum();
        if !batch.is_empty() && (size + gs > max_bytes || batch.len() + g.len() > max_items) {
            batches.push(std::mem::take(&mut batch));
            size = 0;
        }
        if gs <= max_bytes && g.len() <= max_items {
            size += gs;
            batch.extend(g);
            continue;
        }
        for item in g {
            if !batch.is_empty() && (size + item.len() > max_bytes || batch.len() >= max_items) {
                batches.push(std::mem::take(&mut batch));
                size = 0;
            }
            size += item.len();
            batch.push(item);
        }
    }
    if !batch.is_empty() {
        batches.push(batch);
    }
    batches
}

impl Peer {
    /// The face-down deal's part of a `Sync` answer: every deal message we took, if the
    /// requester has taken fewer or others (its digest is not ours), and our shares of the
    /// positions it holds and cannot read.
    fn answer_deal(
        &mut self,
        link: LinkId,
        sender: PeerKey,
        (deal, digest): (u32, [u8; 32]),
        unread: &[(u8, u16)],
        out: &mut Output,
    ) {
        let Some(r) = &self.run else { return };
        let Some(requester) = r.participant(&sender) else {
            return;
        };
        let Some(d) = &r.deal else { return };
        if (deal as usize) < d.log.len() || (digest != d.digest && !d.log.is_empty()) {
            let log = d.log.clone();
            let mut batch = vec![];
            let mut bytes = 0;
            for raw in &log {
                if bytes + raw.len() > BATCH_BYTES && !batch.is_empty() {
                    let items = std::mem::take(&mut batch);
                    bytes = 0;
                    let b = self.seal(&Body::Batch { items });
                    out.send.push((Dest::Link(link), b));
                }
                bytes += raw.len();
                batch.push(raw.clone());
            }
            if !batch.is_empty() {
                let b = self.seal(&Body::Batch { items: batch });
                out.send.push((Dest::Link(link), b));
            }
        }
        if !unread.is_empty() {
            self.deal_resend(requester, unread, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::pack;

    fn msgs(n: usize, len: usize, tag: u8) -> Vec<Vec<u8>> {
        (0..n)
            .map(|i| {
                vec![tag, i as u8]
                    .into_iter()
                    .chain(std::iter::repeat_n(0, len - 2))
                    .collect()
            })
            .collect()
    }

    /// Security review, finding 6: one position's messages went out in one batch (4.8 MB for a
    /// position with many large messages, which no data channel delivers), so a rejoiner could
    /// never catch up past it.
    #[test]
    fn a_position_larger_than_a_batch_is_spread_over_several_in_order() {
        let groups = vec![msgs(3, 100, 1), msgs(200, 24 * 1024, 2), msgs(2, 100, 3)];
        let flat: Vec<Vec<u8>> = groups.iter().flatten().cloned().collect();
        let batches = pack(groups, 48 * 1024, 8192);
        assert!(batches.len() >= 100, "{} batches", batches.len());
        for b in &batches {
            let bytes: usize = b.iter().map(|x| x.len()).sum();
            assert!(bytes <= 48 * 1024, "a batch of {bytes} bytes");
        }
        assert_eq!(batches.concat(), flat, "order and content kept");
    }

    #[test]
    fn small_groups_stay_whole_and_one_huge_message_goes_alone() {
        let groups = vec![
            msgs(3, 7_000, 1),
            msgs(3, 7_000, 2),
            msgs(1, 100_000, 3),
            msgs(2, 10, 4),
        ];
        let batches = pack(groups.clone(), 48 * 1024, 8192);
        // 3 + 3 messages of 7 kB fit together; the 100 kB one goes alone; the last two after.
        let sizes: Vec<usize> = batches.iter().map(|b| b.len()).collect();
        assert_eq!(sizes, vec![6, 1, 2]);
        assert_eq!(batches.concat(), groups.concat());
        // A limit on items splits too, without breaking a group that fits.
        let batches = pack(vec![msgs(3, 10, 1), msgs(3, 10, 2)], 48 * 1024, 4);
        assert_eq!(
            batches.iter().map(|b| b.len()).collect::<Vec<_>>(),
            vec![3, 3]
        );
    }
}
