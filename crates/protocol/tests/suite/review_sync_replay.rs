//! Independent review of the `Sync`-under-the-game's-id change: a `Sync` from earlier in the
//! *same* game is still valid (same tag, not kept in `seen`/`seqs`, only in the bounded junk
//! window), and `note_withheld` takes whatever report it carries as the sender's latest. A
//! withholder replays the claimant's earlier `Sync` (empty `withheld`) and wipes the claim that
//! stands against it on a third peer: that peer then named the claimant as what the game waits
//! for and refused its own vote to drop the withholder. Now a report replaces its sender's claim
//! only from a `Sync` with a higher message number (`Run::claim_seqs`).

use crate::common;

use common::{Net, NetParams};
use orbis_engine::classic::{BotLevel, ClassicOptions};
use orbis_protocol::{Body, Control, Envelope, Peer};
use std::cell::RefCell;
use std::rc::Rc;

const A: usize = 0; // holds a card it cannot read: claims
const H: usize = 1; // withholds its shares of A's cards: the attacker
const C: usize = 2; // honest, judges the claim

#[test]
fn a_replayed_sync_of_this_game_wipes_a_standing_withheld_claim() {
    let mut net = Net::new(3, 63, NetParams::perfect());
    let mut p = net.proposal(0);
    p.face_down = true;
    p.options = ClassicOptions::default();

    // Phase 1, everyone honest: the network (and so H) sees A's `Sync` requests. Keep those A
    // signed for this game with nothing withheld.
    let old: Rc<RefCell<Vec<Vec<u8>>>> = Rc::default();
    let rec = old.clone();
    net.tamper = Some((
        A,
        Box::new(move |_: &mut Peer, _, _, bytes: Vec<u8>| {
            if let Ok((
                _,
                Body::Sync {
                    started: true,
                    withheld,
                    ..
                },
            )) = Envelope::open_where(&bytes, |_| true)
            {
                if withheld.is_empty() && !rec.borrow().contains(&bytes) {
                    rec.borrow_mut().push(bytes.clone());
                }
            }
            vec![bytes]
        }),
    ));
    net.start(p);
    assert!(
        net.run_until(600_000, |n| n.peers.iter().all(|p| p.log_len() > 20)),
        "the game never got going"
    );
    // A short stall (nobody plays): every peer asks for resends.
    net.autoplay = vec![false; 3];
    net.run_until(net.now + 1_000, |_| false);
    net.autoplay = vec![true; 3];
    let tag = net.peers[C].game_tag().expect("started");
    let old_sync = old
        .borrow()
        .iter()
        .find(|b| Envelope::open_where(b, |_| true).is_ok_and(|(e, _)| e.game_id == tag))
        .cloned()
        .expect("A sent a Sync of this game with nothing withheld");

    // Phase 2: H sends A none of its shares from now on (nor answers a claim).
    net.tamper = Some((H, common::withhold_shares_to(A as u8)));
    let a = net.peers[A].key();
    let h = net.peers[H].key();
    assert!(
        net.run_until(net.now + 60_000_000, |n| n.peers[C]
            .withholding(A as u8)
            .claimed
            == vec![h]
            && n.peers[C].waiting_on() == vec![h]),
        "the true claim never stood"
    );
    let drop_h = Control::Drop {
        peer: h,
        level: BotLevel::Normal,
    };
    assert!(
        net.peers[C].can_vote(&drop_h),
        "C may vote the withholder out"
    );

    // The attack. C remembers the old `Sync` only in its junk window: H pushes it out with
    // junk of its own (undecodable bytes cost C no signature check), then replays it.
    for k in 0u32..8_300 {
        let mut junk = b"junk".to_vec();
        junk.extend_from_slice(&k.to_le_bytes());
        let out = net.peers[C].handle(H as u64, &junk, net.now);
        net.process(C, out);
    }
    let dups = net.peers[C].duplicates;
    let out = net.peers[C].handle(H as u64, &old_sync, net.now);
    net.process(C, out);
    assert_eq!(net.peers[C].duplicates, dups, "the replay was taken as new");

    // Right after the replay (H repeats it after every fresh `Sync` of A's, which it receives
    // like everyone else): C no longer sees the claim, names A, and refuses to vote H out.
    let w = net.peers[C].withholding(A as u8);
    let waiting = net.peers[C].waiting_on();
    let may = net.peers[C].can_vote(&drop_h);
    assert!(
        w.claimed == vec![h] && waiting == vec![h] && may,
        "a replayed Sync of this game wiped A's claim on C: claimed {:?}, waiting on {:?} \
         (A is {a:?}, H is {h:?}), C may vote H out: {may}",
        w.claimed,
        waiting
    );
}
