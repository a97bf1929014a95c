//! The protocol's tests, one binary: each module is one concern (see ARCHITECTURE.md). One binary
//! rather than one per file: the test binaries are optimised (the workspace's dev profile), and
//! compiling and linking 36 of them cost CI minutes (issue 63). `tests/adversary` stays apart.

#[path = "../common/mod.rs"]
mod common;

mod adversarial;
mod bounds;
mod chat;
mod days;
mod days_holes;
mod days_review;
mod deal_leavers;
mod economy;
mod economy_attacks;
mod economy_face_down;
mod economy_face_down_review;
mod economy_hold;
mod economy_withheld_shares;
mod face_down;
mod fuzz;
mod games;
mod link_binding;
mod lone_opponent;
mod memory;
mod orders;
mod readmit;
mod readmit_flood;
mod rejoin;
mod review_dice_release;
mod review_drop_vs_proof;
mod review_memento_votes;
mod review_sync_replay;
mod review_vote_fixed;
mod review_withheld_shares;
mod seat_to_bot;
mod sim;
mod sizes;
mod sync_replay;
mod thoughts;
mod verdicts;
mod vote_binding;
mod vote_binding_dice;
mod vote_equivocation;
mod votes;
mod withheld_claims;
