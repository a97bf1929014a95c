//! The online page's computer seats, thought in the worker (issue 62): every page of an online
//! game computes the computer seats' moves (the protocol's bots, from the game's shared state),
//! and the protocol's peer, told to [`Peer::think_elsewhere`], waits for them instead of
//! thinking inside `handle`. Each move it waits for goes to the worker as the job that runs
//! the very engine function the peer would run, one at a time (the worker thinks one job at a
//! time anyway, and so each answer's time is its own); the answer goes back to the peer at the
//! session's next timer step. Without a worker the move is thought on this thread, as before.

use orbis_protocol::peer::Thought;
use orbis_protocol::{Output, Peer};
use std::cell::RefCell;

#[derive(Default)]
struct Desk {
    /// The thought in the worker.
    asked: Option<[u8; 32]>,
    /// Answers in, with what they were and how long they took (ms).
    answers: Vec<(Thought, Vec<u8>, f64)>,
}

thread_local! {
    static DESK: RefCell<Desk> = RefCell::default();
}

/// The worker's job for a thought: its kind and the same inputs.
fn job(t: &Thought) -> Vec<u8> {
    use orbis_worker::{job, CLASSIC, ECONOMY, SUGGEST};
    match t {
        Thought::Classic { state, level } => job(CLASSIC, &(state, level)),
        Thought::Orders {
            state,
            power,
            level,
            salt,
        } => job(SUGGEST, &(state, power, level, salt)),
        Thought::Economy { state, seat, level } => job(ECONOMY, &(state, seat, level)),
    }
}

/// What a thought's time is recorded under (`widgets::record_bot_ms`): the ruleset, the level
/// and, for the orders ruleset, the phase type (issue 62 wants each phase type's figures).
pub fn name(t: &Thought) -> String {
    use orbis_engine::classic::BotLevel;
    use orbis_engine::rules::orders::Phase;
    let lv = |l: &BotLevel| match l {
        BotLevel::Easy => "easy",
        BotLevel::Normal => "normal",
        BotLevel::Hard => "hard",
    };
    match t {
        Thought::Classic { level, .. } => format!("online-classic-{}", lv(level)),
        Thought::Orders { state, level, .. } => {
            let phase = match state.phase {
                Phase::Movement => "movement",
                Phase::Retreat => "retreat",
                Phase::Adjustment => "adjustment",
                Phase::GameOver { .. } => "over",
            };
            format!("online-orders-{}-{phase}", lv(level))
        }
        Thought::Economy { level, .. } => format!("online-economy-{}", lv(level)),
    }
}

/// One timer step of the session: the answers that came in go to the peer (its outputs are
/// returned, to be absorbed like any other), and the next move it waits for goes to the worker.
/// `record` is given each answer's name and time.
pub fn step(peer: &mut Peer, now: u64, record: impl Fn(&str, f64)) -> Vec<Output> {
    let answers = DESK.with(|d| std::mem::take(&mut d.borrow_mut().answers));
    let mut outs = vec![];
    for (t, answer, ms) in answers {
        record(&name(&t), ms);
        outs.push(peer.thought(&t, answer, now));
    }
    if DESK.with(|d| d.borrow().asked.is_some()) {
        return outs;
    }
    let Some(t) = peer.thoughts_wanted().into_iter().next() else {
        return outs;
    };
    DESK.with(|d| d.borrow_mut().asked = Some(t.key()));
    super::post(job(&t), move |answer, ms| {
        // No worker: thought here (the page's own engine, the same function).
        let answer = answer.unwrap_or_else(|| t.think());
        DESK.with(|d| {
            let mut d = d.borrow_mut();
            d.asked = None;
            d.answers.push((t, answer, ms));
        });
    });
    outs
}
