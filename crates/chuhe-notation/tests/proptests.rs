//! Property tests: printing and parsing are inverse on valid values, only
//! canonical text is accepted, canonical suggestions are valid, and no parser
//! panics on any input.

use chuhe_notation::*;
use proptest::prelude::*;

fn epin() -> impl Strategy<Value = Epin> {
    (0u8..26, any::<bool>(), 0u8..3, any::<bool>(), any::<bool>()).prop_map(
        |(l, second, st, term, derived)| {
            let side = if second { Side::Second } else { Side::First };
            let state = [
                PieceState::Normal,
                PieceState::Enhanced,
                PieceState::Diminished,
            ][usize::from(st)];
            Epin::new(Pin::new(b'A' + l, side, state, term), derived)
        },
    )
}

/// A small alphabet of pieces so hands get repeated items.
fn hand_piece() -> impl Strategy<Value = Epin> {
    prop::sample::select(vec![
        "s", "S", "+s", "+S", "-S", "h", "C", "g^", "G^", "S'", "a", "r",
    ])
    .prop_map(|t| Epin::parse(t).unwrap())
}

fn sin() -> impl Strategy<Value = Sin> {
    (0u8..26).prop_map(|l| Sin::new(b'A' + l, Side::First))
}

fn feen() -> impl Strategy<Value = Feen> {
    (1u16..=12, 1u16..=12)
        .prop_flat_map(|(w, h)| {
            let n = usize::from(w) * usize::from(h);
            (
                Just((w, h)),
                prop::collection::vec(prop::option::weighted(0.4, epin()), n),
                prop::collection::vec(hand_piece(), 0..12),
                prop::collection::vec(hand_piece(), 0..12),
                sin(),
                sin(),
                any::<bool>(),
            )
        })
        .prop_map(|((w, h), squares, first, second, s1, s2, second_to_move)| {
            let mut placement = Placement::empty(w, h);
            for (i, sq) in squares.into_iter().enumerate() {
                placement.set(Cell::from_index(i, w), sq);
            }
            let mut free = placement.len() - placement.piece_count();
            let mut hands = [Hand::new(), Hand::new()];
            for (k, list) in [first, second].into_iter().enumerate() {
                for p in list {
                    if free > 0 {
                        hands[k].add(p);
                        free -= 1;
                    }
                }
            }
            let to_move = if second_to_move {
                Side::Second
            } else {
                Side::First
            };
            Feen {
                placement,
                hands,
                style_turn: StyleTurn::new(s1, s2, to_move),
            }
        })
}

fn cell() -> impl Strategy<Value = Cell> {
    prop_oneof![
        (0u16..12, 0u16..12).prop_map(|(f, r)| Cell::new(f, r)),
        (any::<u16>(), any::<u16>()).prop_map(|(f, r)| Cell::new(f, r)),
    ]
}

fn op() -> impl Strategy<Value = MoveOp> {
    prop::sample::select(vec![MoveOp::Quiet, MoveOp::Capture, MoveOp::Special])
}

fn pmn() -> impl Strategy<Value = Pmn> {
    prop_oneof![
        Just(Pmn::Pass),
        (
            cell(),
            cell(),
            op(),
            prop::option::of(epin()),
            prop::option::of(epin())
        )
            .prop_map(|(from, to, op, transform, captured)| Pmn::Move {
                from,
                to,
                op,
                transform,
                captured: if op.may_capture() { captured } else { None },
            }),
        (
            prop::option::of(epin()),
            cell(),
            any::<bool>(),
            prop::option::of(epin()),
            prop::option::of(epin())
        )
            .prop_map(|(piece, to, capture, transform, captured)| Pmn::Drop {
                piece,
                to,
                capture,
                transform,
                captured: if capture { captured } else { None },
            }),
        (cell(), prop::option::of(epin()))
            .prop_map(|(square, captured)| Pmn::StaticCapture { square, captured }),
        (cell(), epin()).prop_map(|(square, piece)| Pmn::Mutation { square, piece }),
    ]
}

/// Strings drawn from the characters the notations use, plus a few others.
fn notation_text() -> impl Strategy<Value = String> {
    let alphabet: Vec<char> = "+-^'/ 0123456789abceghisxzABCGHSXZ.*=~:\n\té"
        .chars()
        .collect();
    prop::collection::vec(prop::sample::select(alphabet), 0..70)
        .prop_map(|v| v.into_iter().collect())
}

/// Random edits of valid FEEN and PMN strings.
fn mutated() -> impl Strategy<Value = String> {
    let seeds = vec![
        "rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x",
        "r2ag^2r/1e3c2/s1s1hs1s/3E4/2+s5/S2SS2S/2C1A1H1/R1B1G^B1R 2b2sch/3SCH x/X",
        "8/8 3s2hc/R+S X/x",
        "e3-e4",
        "d7+e8=R/p",
        "+S'*e5",
        "L.b4/p",
        "X:G^",
    ];
    let alphabet: Vec<char> = "+-^'/ 0123456789sSgGxX.*=~:".chars().collect();
    (
        prop::sample::select(seeds),
        prop::collection::vec(
            (
                any::<prop::sample::Index>(),
                0u8..3,
                prop::sample::select(alphabet),
            ),
            1..4,
        ),
    )
        .prop_map(|(seed, edits)| {
            let mut chars: Vec<char> = seed.chars().collect();
            for (at, kind, c) in edits {
                let i = at.index(chars.len() + 1);
                match kind {
                    0 => chars.insert(i, c),
                    1 if i < chars.len() => {
                        chars.remove(i);
                    }
                    _ if i < chars.len() => chars[i] = c,
                    _ => chars.push(c),
                }
            }
            chars.into_iter().collect()
        })
}

/// Runs every parser; each accepted input must be canonical (printing gives it
/// back) and each canonical suggestion must itself parse.
fn check_all_parsers(s: &str) {
    fn check<T: std::fmt::Display>(
        s: &str,
        result: Result<T, ParseError>,
        parse: impl Fn(&str) -> bool,
    ) {
        match result {
            Ok(v) => assert_eq!(v.to_string(), s),
            Err(e) => {
                let _ = e.to_string();
                assert!(
                    e.offset <= s.len(),
                    "offset {} past the end of {s:?}",
                    e.offset
                );
                if let Some(c) = &e.canonical {
                    assert!(parse(c), "canonical {c:?} of {s:?} does not parse");
                }
            }
        }
    }
    check(s, Cell::parse(s), |c| Cell::parse(c).is_ok());
    check(s, Pin::parse(s), |c| Pin::parse(c).is_ok());
    check(s, Epin::parse(s), |c| Epin::parse(c).is_ok());
    check(s, Sin::parse(s), |c| Sin::parse(c).is_ok());
    check(s, Snn::parse(s), |c| Snn::parse(c).is_ok());
    check(s, Qpi::parse(s), |c| Qpi::parse(c).is_ok());
    check(s, Feen::parse(s), |c| {
        Feen::parse(c).is_ok_and(|f| f.to_string() == c)
    });
    check(s, Pmn::parse(s), |c| {
        Pmn::parse(c).is_ok_and(|p| p.to_string() == c)
    });
    check(s, Status::parse(s), |c| Status::parse(c).is_ok());
}

proptest! {
    #[test]
    fn feen_round_trip(feen in feen()) {
        let text = feen.to_string();
        let parsed = Feen::parse(&text);
        prop_assert!(parsed.is_ok(), "{text}: {:?}", parsed.err());
        let parsed = parsed.unwrap();
        prop_assert_eq!(&parsed, &feen);
        prop_assert_eq!(parsed.to_string(), text);
    }

    #[test]
    fn pmn_round_trip(pmn in pmn()) {
        let text = pmn.to_string();
        let parsed = Pmn::parse(&text);
        prop_assert!(parsed.is_ok(), "{text}: {:?}", parsed.err());
        let parsed = parsed.unwrap();
        prop_assert_eq!(&parsed, &pmn);
        prop_assert_eq!(parsed.to_string(), text);
    }

    #[test]
    fn cell_and_pieces_round_trip(c in cell(), e in epin(), s in sin(), second in any::<bool>()) {
        prop_assert_eq!(Cell::parse(&c.to_string()), Ok(c));
        prop_assert_eq!(Epin::parse(&e.to_string()), Ok(e));
        prop_assert_eq!(Pin::parse(&e.pin.to_string()), Ok(e.pin));
        let side = if second { Side::Second } else { Side::First };
        let q = Qpi::new(s.with_side(side), e.pin.with_side(side)).unwrap();
        prop_assert_eq!(Qpi::parse(&q.to_string()), Ok(q));
    }

    #[test]
    fn hand_display_is_canonical(pieces in prop::collection::vec(hand_piece(), 0..20)) {
        let hand: Hand = pieces.iter().copied().collect();
        prop_assert_eq!(hand.len() as usize, pieces.len());
        let text = format!("12/12/12/12 {hand}/ X/x");
        let parsed = Feen::parse(&text);
        prop_assert!(parsed.is_ok(), "{}: {:?}", text, parsed.err());
        prop_assert_eq!(&parsed.unwrap().hands[0], &hand);
        // Counts are non-increasing and ties follow the Epin order.
        let items: Vec<_> = hand.iter().collect();
        for pair in items.windows(2) {
            prop_assert!(pair[0].1 > pair[1].1 || (pair[0].1 == pair[1].1 && pair[0].0 < pair[1].0));
        }
    }

    #[test]
    fn parsers_never_panic_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..80)) {
        check_all_parsers(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn parsers_never_panic_on_notation_text(s in notation_text()) {
        check_all_parsers(&s);
    }

    #[test]
    fn parsers_never_panic_on_edited_valid_text(s in mutated()) {
        check_all_parsers(&s);
    }
}
