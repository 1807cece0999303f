use super::*;
use uuid::Uuid;

fn id(n: u128) -> MemoryId {
    MemoryId(Uuid::from_u128(n))
}

fn edge(a: u128, b: u128, w: f64) -> Edge {
    Edge { source: id(a), target: id(b), weight: w, chars: 10 }
}

#[test]
fn tiers_follow_002_with_inhibitory_first() {
    assert_eq!(tier(0.6), Tier::Reflex);
    assert_eq!(tier(0.59), Tier::Habitual);
    assert_eq!(tier(0.2), Tier::Habitual);
    assert_eq!(tier(0.19), Tier::Dormant);
    assert_eq!(tier(0.0), Tier::Dormant);
    assert_eq!(tier(-0.01), Tier::Inhibitory);
    assert_eq!(tier(-0.009), Tier::Dormant);
}

#[test]
fn learning_fades_back_to_the_prior_with_a_half_life_in_queries() {
    assert!((decayed(0.9, 0.5, 0, 200.0) - 0.9).abs() < 1e-12);
    assert!((decayed(0.9, 0.5, 200, 200.0) - 0.7).abs() < 1e-12);
    assert!((decayed(-0.8, 0.0, 400, 200.0) + 0.2).abs() < 1e-12);
    // A clock that went backwards (a restored backup) is no age.
    assert!((decayed(0.9, 0.5, -5, 200.0) - 0.9).abs() < 1e-12);
}

#[test]
fn a_two_hop_question_reaches_the_bridge_and_the_answer() {
    // brother (1) -> fiancee (2) -> job (3); 4 is a distractor seed with no edges.
    let edges = [edge(1, 2, 0.45), edge(2, 3, 0.45), edge(2, 1, 0.45), edge(3, 2, 0.45)];
    let t = traverse(&[(id(1), 0.5), (id(4), 0.4)], &edges, &Params::default());
    let reached: Vec<MemoryId> = t.reached.iter().map(|n| n.id).collect();
    assert_eq!(reached, [id(2), id(3)]);
    assert!((t.reached[0].score - 0.5 * 0.45).abs() < 1e-12);
    assert!((t.reached[1].score - 0.5 * 0.45 * 0.45).abs() < 1e-12);
    assert_eq!(t.seeds.len(), 2);
    assert_eq!(t.reached[1].hop, 2);
}

#[test]
fn dormant_edges_are_not_followed_and_inhibitory_ones_veto() {
    let edges = [edge(1, 2, 0.1), edge(1, 3, 0.5), edge(1, 5, -0.5), edge(3, 5, 0.9)];
    let t = traverse(&[(id(1), 1.0)], &edges, &Params::default());
    let reached: Vec<MemoryId> = t.reached.iter().map(|n| n.id).collect();
    assert_eq!(reached, [id(3)], "dormant 1->2 skipped, 5 vetoed although 3->5 is reflex");
    assert_eq!(t.suppressed, [id(5)]);
}

#[test]
fn a_veto_removes_a_seed_too() {
    // The correction (2) is reached from the question's seed (1) and vetoes the wrong seed (3).
    let edges = [edge(1, 2, 0.7), edge(2, 3, -0.9)];
    let t = traverse(&[(id(1), 0.6), (id(3), 0.55)], &edges, &Params::default());
    assert_eq!(t.seeds.iter().map(|n| n.id).collect::<Vec<_>>(), [id(1)]);
    assert_eq!(t.reached.iter().map(|n| n.id).collect::<Vec<_>>(), [id(2)]);
    assert_eq!(t.suppressed, [id(3)]);
}

#[test]
fn damping_breaks_a_loop_and_budgets_stop_the_walk() {
    // 1 <-> 2 reflex loop: the second use of an edge counts 0.3 of it.
    let edges = [edge(1, 2, 1.0), edge(2, 1, 1.0)];
    let t = traverse(&[(id(1), 1.0)], &edges, &Params::default());
    assert_eq!(t.reached.len(), 1);
    let last = t.steps.last().unwrap();
    assert_eq!(t.steps.len(), 3);
    assert!((last.score - 0.3).abs() < 1e-12, "1->2 used again at hop 3: 1.0 * 1.0 * 0.3, got {}", last.score);

    let chain: Vec<Edge> = (1..20).map(|n| edge(n, n + 1, 0.9)).collect();
    let p = Params { max_hops: 10, max_fired: 3, ..Params::default() };
    let t = traverse(&[(id(1), 1.0)], &chain, &p);
    assert_eq!((t.reached.len(), t.stopped.as_str()), (3, "fired_budget"));
    let p = Params { max_hops: 10, max_chars: 25, ..Params::default() };
    let t = traverse(&[(id(1), 1.0)], &chain, &p);
    assert_eq!((t.reached.len(), t.chars, t.stopped.as_str()), (2, 20, "char_budget"));
}

#[test]
fn a_reflex_edge_passes_its_source_score_on() {
    let edges = [edge(1, 2, 0.8), edge(2, 3, 0.5)];
    let t = traverse(&[(id(1), 0.6)], &edges, &Params::default());
    assert!((t.reached[0].score - 0.6).abs() < 1e-12, "reflex: as its source");
    assert!((t.reached[1].score - 0.3).abs() < 1e-12, "habitual: times its weight");
}

#[test]
fn a_beam_prefers_memories_not_read_yet() {
    // 1 -> 2 is stronger, but 2 is a seed already: the only slot goes to 3.
    let edges = [edge(1, 2, 0.5), edge(1, 3, 0.3)];
    let p = Params { beam: 2, max_hops: 1, ..Params::default() };
    let t = traverse(&[(id(1), 1.0), (id(2), 0.9)], &edges, &Params { beam: 2, ..p });
    assert_eq!(t.steps.first().map(|s| s.to), Some(id(3)));
    assert_eq!(t.reached.iter().map(|n| n.id).collect::<Vec<_>>(), [id(3)]);
}

#[test]
fn reflex_edges_go_first_within_the_beam() {
    let mut edges: Vec<Edge> = (10..16).map(|n| edge(1, n, 0.55)).collect();
    edges.push(edge(1, 20, 0.6));
    let p = Params { beam: 2, max_hops: 1, ..Params::default() };
    let t = traverse(&[(id(1), 1.0)], &edges, &p);
    assert_eq!(t.reached.iter().map(|n| n.id).collect::<Vec<_>>(), [id(20), id(10)]);
}

#[test]
fn reinforce_matches_the_worked_example_of_002() {
    // Three edges with weights 0.5, 0.3, -0.2 and STOP; A chosen, η 0.1, τ 1, b 0, γ^0.
    let (a, b, c) = (id(2), id(3), id(4));
    let outgoing = HashMap::from([(id(1), vec![(a, 0.5), (b, 0.3), (c, -0.2)])]);
    let step = Step { from: id(1), to: a, tier: Tier::Habitual, weight: 0.5, score: 0.5, hop: 1 };
    let l = Learning { rate: 0.1, discount: 0.9, temperature: 1.0, baseline: 0.0 };
    let d = reinforce(&[step], &outgoing, true, &l);
    assert!((d[&(id(1), a)] - 0.066).abs() < 0.001, "{d:?}");
    assert!((d[&(id(1), b)] + 0.028).abs() < 0.001);
    assert!((d[&(id(1), c)] + 0.017).abs() < 0.001);
    // STOP takes the rest: the edges' changes sum to +0.021 (002: ΔSTOP = -0.021).
    let sum: f64 = d.values().sum();
    assert!((sum - 0.021).abs() < 0.001, "{sum}");
    let bad = reinforce(&[step], &outgoing, false, &l);
    assert!((bad[&(id(1), a)] + 0.066).abs() < 0.001);
}

#[test]
fn later_steps_are_discounted() {
    let outgoing = HashMap::from([(id(1), vec![(id(2), 0.4)]), (id(2), vec![(id(3), 0.4)])]);
    let steps = [
        Step { from: id(1), to: id(2), tier: Tier::Habitual, weight: 0.4, score: 0.4, hop: 1 },
        Step { from: id(2), to: id(3), tier: Tier::Habitual, weight: 0.4, score: 0.16, hop: 2 },
    ];
    let d = reinforce(&steps, &outgoing, true, &Learning::default());
    assert!((d[&(id(2), id(3))] / d[&(id(1), id(2))] - 0.9).abs() < 1e-9);
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn traversal_stays_within_its_budgets(
            raw in proptest::collection::vec((0u128..30, 0u128..30, -1.0f64..1.0, 1usize..400), 0..200),
            seeds in proptest::collection::vec((0u128..30, 0.0f64..1.0), 1..8),
        ) {
            let edges: Vec<Edge> = raw.iter().filter(|(a, b, _, _)| a != b)
                .map(|&(a, b, w, chars)| Edge { source: id(a), target: id(b), weight: w, chars }).collect();
            let seeds: Vec<(MemoryId, f64)> = seeds.into_iter().map(|(n, s)| (id(n), s)).collect();
            let p = Params::default();
            let t = traverse(&seeds, &edges, &p);
            prop_assert!(t.seeds.len() <= p.beam);
            prop_assert!(t.reached.len() <= p.max_fired);
            prop_assert!(t.chars <= p.max_chars);
            prop_assert!(t.steps.iter().all(|s| s.hop as usize <= p.max_hops && s.weight >= HABITUAL));
            let fired: HashSet<MemoryId> = t.fired().map(|n| n.id).collect();
            prop_assert!(t.suppressed.iter().all(|s| !fired.contains(s)), "a vetoed node never fires");
            prop_assert_eq!(fired.len(), t.seeds.len() + t.reached.len(), "each node fires once");
        }

        #[test]
        fn updates_at_a_node_sum_to_minus_the_stop_share(
            weights in proptest::collection::vec(-1.0f64..1.0, 1..10),
            chosen in 0usize..10,
            good in any::<bool>(),
        ) {
            let targets: Vec<(MemoryId, f64)> = weights.iter().enumerate().map(|(i, w)| (id(100 + i as u128), *w)).collect();
            let to = targets[chosen % targets.len()].0;
            let outgoing = HashMap::from([(id(1), targets.clone())]);
            let step = Step { from: id(1), to, tier: Tier::Habitual, weight: 0.5, score: 0.5, hop: 1 };
            let l = Learning::default();
            let d = reinforce(&[step], &outgoing, good, &l);
            // With STOP the changes of all actions sum to zero (002 §3.3), so the edges' sum
            // is the negative of STOP's own change, `η z π(STOP)`.
            let max = weights.iter().copied().fold(0.0f64, f64::max);
            let z: f64 = weights.iter().map(|w| (w - max).exp()).sum::<f64>() + (-max).exp();
            let stop = (-max).exp() / z;
            let sign = if good { 1.0 } else { -1.0 };
            let sum: f64 = d.values().sum();
            prop_assert!((sum - sign * l.rate * stop).abs() < 1e-9);
            prop_assert!(d[&(id(1), to)] * sign > 0.0, "the chosen edge moves with the outcome");
        }
    }
}
