//! One adversarial game: the simulated network, the honest pages' driver and the adversary's
//! steps, in classic and economy games.

use super::*;

/// One adversarial game (an economy game when `economy`, else classic). `max_positions` caps
/// the log (the run then counts as `Capped`). `harness` says which tables and deviations it
/// draws from.
pub(super) fn run(seed: u64, max_positions: u64, economy: bool, harness: Harness) -> Run {
    let label: &[u8] = if economy {
        b"adversary-economy"
    } else {
        b"adversary"
    };
    let mut r = SeededDice::new(sha256(&[label, &seed.to_le_bytes()].concat()));
    let before59 = harness == Harness::Before59;
    // Participants, the adversary one of them: 2 is the lone opponent of issue 59.
    let n = if before59 {
        3 + r.below(2) as usize
    } else {
        2 + r.below(3) as usize
    };
    let me = r.below(n as u32) as usize;
    let face_down = r.below(2) == 0;
    let missions = r.below(2) == 0;
    let k = 1 + r.below(3) as usize;
    let pool: &[Dev] = if economy { &ECONOMY } else { &ALL };
    // `UnawaitedVotes` is last in both lists.
    let pool = if before59 {
        &pool[..pool.len() - 1]
    } else {
        pool
    };
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
        honest_seats: vec![],
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
        let mut p = economy_proposal(&net, &vec![BotLevel::Easy; bots], 2);
        // Dealt face down half the time since issue 59 (the hand the lone opponent read).
        p.face_down = face_down && !before59;
        p
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
    adv.borrow_mut().honest_seats = p
        .seats
        .iter()
        .enumerate()
        .filter_map(|(seat, s)| match s.controller {
            Controller::Peer(i) if honest.contains(&(i as usize)) => Some((i as usize, seat as u8)),
            _ => None,
        })
        .collect();
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
        if trace && std::env::var("ORBIS_ADV_TRACE").as_deref() == Ok("2") && now % 500 < 100 {
            for j in 0..n {
                println!(
                    "{now}: P{j} log {} wait {:?} votes {:?} halted {}",
                    net.peers[j].log_len(),
                    net.peers[j]
                        .waiting_on()
                        .iter()
                        .map(|k| keys.iter().position(|x| x == k))
                        .collect::<Vec<_>>(),
                    net.peers[j]
                        .open_votes()
                        .iter()
                        .map(|(c, v, need)| (
                            format!("{c:?}"),
                            v.iter()
                                .map(|k| keys.iter().position(|x| x == k))
                                .collect::<Vec<_>>(),
                            need.len()
                        ))
                        .collect::<Vec<_>>(),
                    net.peers[j].halted().is_some(),
                );
            }
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
    let seats = adv.borrow().honest_seats.clone();
    check(seed, &devs, &net, me, &honest, &applied, &seats);
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

pub(super) fn adversary_step(
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
            // Now and then naming a made-up batch it fixed (a vote that then never applies).
            let fixed = a.roll(20).then(|| [a.rng.below(256) as u8; 32]);
            let b = a.seal(None, tag, &Body::Vote { at, control, fixed });
            send.push((to, b));
        }
        // Aimed at honest players the game does not wait on (as the adversary's own page sees
        // it), signed with its own key and broadcast: issue 59.
        if a.has(Dev::UnawaitedVotes) && a.roll(a.rate) {
            let awaited = net.peers[me].waiting_on();
            let targets: Vec<(usize, u8)> = a
                .honest_seats
                .iter()
                .filter(|(h, _)| !awaited.contains(&keys[*h]))
                .copied()
                .collect();
            if !targets.is_empty() {
                let (h, seat) = targets[a.rng.below(targets.len() as u32) as usize];
                let control = if a.roll(50) {
                    Control::SeatToBot {
                        seat,
                        level: BotLevel::Easy,
                    }
                } else {
                    Control::Drop {
                        peer: keys[h],
                        level: BotLevel::Easy,
                    }
                };
                let mine = net.peers[me].log_len();
                let at = match a.rng.below(6) {
                    0 => mine.saturating_sub(1),
                    1 => mine + 1,
                    _ => mine,
                };
                let b = a.seal(
                    None,
                    tag,
                    &Body::Vote {
                        at,
                        control,
                        fixed: None,
                    },
                );
                for &h in honest {
                    send.push((h, b.clone()));
                }
                *a.applied.entry(Dev::UnawaitedVotes).or_default() += 1;
            }
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
                    fixed: None,
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
pub(super) fn play_economy(
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
