use super::*;
use crate::onchain::poc::score::Grade;

fn points(s: &Score, key: &str) -> u32 {
    s.dimensions.iter().flat_map(|d| &d.signals).find(|x| x.key == key).unwrap().points
}

#[test]
fn six_signals_per_dimension_whose_maxima_add_up_to_100() {
    let s = assess(&Measurements::default());
    assert_eq!(s.dimensions.len(), 5);
    for d in &s.dimensions {
        assert_eq!(d.signals.len(), 6, "{}", d.key);
        assert_eq!(d.signals.iter().map(|x| x.max).sum::<u32>(), 100, "{}", d.key);
    }
    let keys: std::collections::HashSet<_> = s.dimensions.iter().flat_map(|d| &d.signals).map(|x| x.key).collect();
    assert_eq!(keys.len(), 30, "signal keys are unique");
}

#[test]
fn a_new_agent_scores_its_name_only() {
    let s = assess(&Measurements::default());
    // Profile 1/4 → floor(15/4) = 3 identity points; 3 × 15 / 100 = 0.45 → 0.
    assert_eq!(s.dimensions[0].score, 3);
    assert_eq!((s.total, s.grade), (0, Grade::D));
    assert_eq!(s.backing.multiplier, 1.0);
    let left_out: Vec<_> = s
        .dimensions
        .iter()
        .flat_map(|d| &d.signals)
        .filter(|x| x.status == SignalStatus::NotAvailable)
        .map(|x| (x.key, x.points))
        .collect();
    assert_eq!(
        left_out,
        [("liquidity_pools", 0), ("live_pricing", 0), ("price_history", 0), ("badges", 0)],
        "only what the platform cannot have is left out; a wallet-less agent's funding is a measured 0"
    );
    let avail: Vec<_> = s.dimensions.iter().map(|d| d.available).collect();
    assert_eq!(avail, [100, 100, 65, 100, 80]);
}

#[test]
fn wallet_funding_is_the_balance_read_from_the_chain_or_left_out() {
    let at = |funding| {
        let s = assess(&Measurements { funding, ..Measurements::default() });
        let f = s.dimensions[2].signals.iter().find(|x| x.key == "wallet_funding").unwrap().clone();
        (f.status, f.points, s.dimensions[2].available)
    };
    assert_eq!(at(Funding::NoWallet), (SignalStatus::Measured, 0, 65));
    assert_eq!(at(Funding::Balance(0.005)), (SignalStatus::Measured, 10, 65)); // floor(20 × 0.005 / 0.01)
    assert_eq!(at(Funding::Balance(3.0)), (SignalStatus::Measured, 20, 65));
    assert_eq!(at(Funding::Unread), (SignalStatus::NotAvailable, 0, 45), "no chain: left out, not a zero");
}

#[test]
fn an_agent_that_does_everything_the_platform_measures_earns_grade_s() {
    let m = Measurements {
        verified: vec![(VerificationProvider::SelfXyz, None), (VerificationProvider::TalentProtocol, Some(100.0))],
        age_days: 90,
        persona: true,
        avatar: true,
        soul: true,
        active_days_7d: 7,
        wallet: Some(WalletKind::ServerManaged),
        erc8004: Some(("registered".into(), Some(7))),
        social: Social { posts: 20, likes: 50, comments: 30, given: 30, digests: 10 },
        market: Market { published: 5, sales_credits: 1_000, rating: Some((5.0, 4)) },
        commerce: Commerce {
            revenue_credits: 1_000,
            token: Some("deployed"),
            active_services: 3,
            settled: 5,
            refunded: 0,
            rating: Some((5.0, 2)),
        },
        stakes: Some(Stakes { count: 10, validated: 3, slashed: 0, volume: 10_000, active: 0 }),
        funding: Funding::Balance(0.01),
    };
    let s = assess(&m);
    assert_eq!(s.dimensions.iter().map(|d| d.score).collect::<Vec<_>>(), [100; 5]);
    assert_eq!((s.total, s.grade), (100, Grade::S));
}

#[test]
fn what_exists_today_is_scored_by_its_rule() {
    let m = Measurements {
        verified: vec![(VerificationProvider::TalentProtocol, Some(87.0)), (VerificationProvider::SelfXyz, None)],
        age_days: 45,
        persona: true,
        avatar: true,
        soul: false,
        active_days_7d: 3,
        wallet: Some(WalletKind::OwnerHeld),
        erc8004: Some(("registered".into(), Some(0))),
        social: Social::default(),
        market: Market::default(),
        commerce: Commerce::default(),
        stakes: None,
        funding: Funding::Unread,
    };
    let s = assess(&m);
    assert_eq!(points(&s, "verification_level"), 30, "the passport proof is the best level");
    assert_eq!(points(&s, "talent_score"), 8); // floor(10 × 87 / 100)
    assert_eq!(points(&s, "account_age"), 5); // floor(10 × 45 / 90)
    assert_eq!(points(&s, "profile_completeness"), 11); // floor(15 × 3 / 4)
    assert_eq!(points(&s, "recent_activity"), 10); // floor(25 × 3 / 7)
    assert_eq!(points(&s, "wallet"), 15, "an owner-held wallet counts");
    assert_eq!(points(&s, "erc8004"), 20, "agentId 0 is a registration like any other");
    assert_eq!(s.dimensions[0].score, 30 + 8 + 15 + 20 + 5 + 11);
    assert_eq!(s.dimensions[1].score, 10);
    // (89·15 + 10·20) / 100 = 15.35 → 15.
    assert_eq!((s.base, s.total), (15.35, 15));
    let erc = s.dimensions[0].signals.iter().find(|x| x.key == "erc8004").unwrap();
    assert_eq!(erc.value, json!("registered, agentId 0"));

    // A registration that is pending or failed earns nothing yet, and says where it stands.
    for status in ["pending", "failed"] {
        let s = assess(&Measurements { erc8004: Some((status.into(), None)), ..m.clone() });
        assert_eq!(points(&s, "erc8004"), 0, "{status}");
    }
    let profile = s.dimensions[0].signals.iter().find(|x| x.key == "profile_completeness").unwrap();
    assert_eq!(profile.value["missing"], json!(["soul"]));

    // Talent Protocol alone: 20 for the level; scores past 100 earn no more than 10.
    let m = Measurements { verified: vec![(VerificationProvider::TalentProtocol, Some(250.0))], ..m };
    let s = assess(&m);
    assert_eq!((points(&s, "verification_level"), points(&s, "talent_score")), (20, 10));
    // Age and activity saturate.
    let m = Measurements { age_days: 4000, active_days_7d: 7, ..m };
    let s = assess(&m);
    assert_eq!((points(&s, "account_age"), points(&s, "recent_activity")), (10, 25));
}

#[test]
fn commerce_and_stakes_are_scored_by_their_rules() {
    let m = Measurements {
        commerce: Commerce {
            revenue_credits: 400,
            token: Some("deployed"),
            active_services: 2,
            settled: 3,
            refunded: 1,
            rating: Some((4.0, 3)),
        },
        stakes: Some(Stakes { count: 4, validated: 1, slashed: 1, volume: 5_000, active: 5_000 }),
        ..Measurements::default()
    };
    let s = assess(&m);
    assert_eq!(points(&s, "commerce_revenue"), 10); // floor(25 × 400 / 1000)
    assert_eq!(points(&s, "token_deployment"), 20);
    let deploying = Measurements { commerce: Commerce { token: Some("deploying"), ..m.commerce }, ..m.clone() };
    assert_eq!(points(&assess(&deploying), "token_deployment"), 0, "a token counts once it is on chain");
    assert_eq!(points(&s, "active_services"), 10); // floor(15 × 2 / 3)
    assert_eq!(points(&s, "service_fulfillment"), 11); // floor(15 × 3 / 4)
    assert_eq!(points(&s, "commerce_ratings"), 7); // floor(10 × 3 / 4)
    assert_eq!(points(&s, "stake_count"), 8); // floor(20 × 4 / 10)
    assert_eq!(points(&s, "validation_rate"), 12); // floor(25 × 1 / 2)
    assert_eq!(points(&s, "slash_penalties"), 0);
    assert_eq!(points(&s, "stake_volume"), 7); // floor(15 × 5000 / 10000)
    assert_eq!(points(&s, "average_review"), 15); // floor(20 × 3 / 4): the orders' 4.0
    // Economy: 20 + 10 of the 65 measurable points: round(100 × 30 / 65) = 46.
    assert_eq!(s.dimensions[2].score, 46);
    // Reputation: 8 + 12 + 15 + 7 of 80 (badges left out): round(100 × 42 / 80) = 53.
    assert_eq!(s.dimensions[4].score, 53);
    // Skill reviews and order ratings average together by count: (5.0 × 1 + 4.0 × 3) / 4 = 4.25 → 4.3.
    let reviewed = Measurements { market: Market { rating: Some((5.0, 1)), ..m.market }, ..m.clone() };
    let review = assess(&reviewed).dimensions[4].signals.iter().find(|x| x.key == "average_review").unwrap().clone();
    assert_eq!(review.value, json!({ "average": 4.3, "reviews": 4 }));
    // 5,000 credits of backing: a 5 % boost (1 + min(5000 / 100000, 0.10)).
    assert!((s.backing.multiplier - 1.05).abs() < 1e-9, "{:?}", s.backing);
    // A slash more lowers the validation rate.
    let worse = Measurements { stakes: Some(Stakes { slashed: 3, ..m.stakes.unwrap() }), ..m.clone() };
    assert!(points(&assess(&worse), "validation_rate") < 12);
}

use proptest::prelude::*;

fn measurements() -> impl Strategy<Value = Measurements> {
    let provider = prop::sample::select(VerificationProvider::ALL.to_vec());
    let verified = prop::collection::vec((provider, proptest::option::of(0.0..10_000.0f64)), 0..3);
    let wallet = proptest::option::of(prop::sample::select(vec![WalletKind::ServerManaged, WalletKind::OwnerHeld]));
    let status = prop::sample::select(vec!["pending", "registered", "failed"]);
    let erc8004 = proptest::option::of((status, proptest::option::of(0i64..1_000)));
    (verified, -5i64..10_000, any::<[bool; 3]>(), 0u32..=7, wallet, erc8004).prop_map(
        |(verified, age_days, [p, a, s], days, wallet, erc8004)| Measurements {
            verified,
            age_days,
            persona: p,
            avatar: a,
            soul: s,
            active_days_7d: days,
            wallet,
            erc8004: erc8004.map(|(s, id)| (s.to_string(), id)),
            ..Measurements::default()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn signals_add_up_to_dimensions_and_dimensions_to_the_total(m in measurements()) {
        let s = assess(&m);
        for d in &s.dimensions {
            let measured = d.signals.iter().filter(|x| x.status == SignalStatus::Measured);
            let (points, available) = measured.fold((0, 0), |(p, a), x| (p + x.points, a + x.max));
            prop_assert_eq!(d.available, available, "{}", d.key);
            prop_assert_eq!(d.score, ((100.0 * f64::from(points)) / f64::from(available)).round() as u32, "{}", d.key);
            prop_assert!(d.signals.iter().all(|x| x.points <= x.max));
            prop_assert!(d.signals.iter().filter(|x| x.status == SignalStatus::NotAvailable).all(|x| x.points == 0));
        }
        let weighted: f64 = s.dimensions.iter().map(|d| d.weighted).sum();
        prop_assert!((weighted - s.base).abs() < 1e-9);
        prop_assert_eq!(s.total, s.base.round() as u32, "no backing yet: the total is the rounded base");
    }

    #[test]
    fn older_and_more_active_agents_never_score_lower(m in measurements(), days in 0i64..400, active in 0u32..=7) {
        let before = assess(&m);
        let later = Measurements { age_days: m.age_days.max(0) + days, ..m.clone() };
        prop_assert!(assess(&later).dimensions[0].score >= before.dimensions[0].score);
        let busier = Measurements { active_days_7d: (m.active_days_7d + active).min(7), ..m.clone() };
        prop_assert!(assess(&busier).dimensions[1].score >= before.dimensions[1].score);
    }
}
