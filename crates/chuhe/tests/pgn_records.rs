//! PGN records: results, counters, annotations, malformed text and many-game files.

use chuhe::pgn::{self, PgnError};
use chuhe::{record, GameKind, MoveNotation, Outcome, PositionFormat, Side, Status};

/// A PGN game: tags, a blank line, the movetext.
fn pgn_text(tags: &[(&str, &str)], movetext: &str) -> String {
    let mut text: String = tags
        .iter()
        .map(|(k, v)| format!("[{k} \"{v}\"]\n"))
        .collect();
    text.push('\n');
    text.push_str(movetext);
    text.push('\n');
    text
}

/// The error of a text that must not read.
fn refused(text: &str) -> PgnError {
    match pgn::read(text) {
        Ok(g) => panic!("read as a game: {:?}", g.game.moves_uci()),
        Err(e) => e,
    }
}

/// PGN -> PCN -> PGN.
fn through_pcn(text: &str) -> String {
    let pcn = pgn::to_pcn(&pgn::read(text).unwrap());
    let json = pcn.to_json_pretty();
    let back = chuhe::notation::pcn::Pcn::from_json(&json).unwrap();
    pgn::of_pcn(&back).unwrap()
}

#[test]
fn a_result_the_rules_cannot_see_is_kept_with_its_termination() {
    for (result, termination, status, winner) in [
        (
            "1-0",
            Some("time forfeit"),
            Status::Timelimit,
            Some(Side::First),
        ),
        (
            "0-1",
            Some("Resignation"),
            Status::Resignation,
            Some(Side::Second),
        ),
        ("0-1", None, Status::Resignation, Some(Side::Second)),
        ("1/2-1/2", None, Status::Agreement, None),
        ("1/2-1/2", Some("move limit"), Status::Movelimit, None),
        (
            "1-0",
            Some("rules infraction"),
            Status::Illegalmove,
            Some(Side::First),
        ),
        ("1/2-1/2", Some("repetition"), Status::Repetition, None),
        ("1/2-1/2", Some("agreement"), Status::Agreement, None),
    ] {
        let mut tags = vec![("Variant", "Xiangqi"), ("Result", result)];
        if let Some(t) = termination {
            tags.push(("Termination", t));
        }
        let text = pgn_text(&tags, &format!("1. Che3 Hg8 {result}"));
        let g = pgn::read(&text).unwrap();
        assert_eq!(
            g.game.outcome(),
            Some(Outcome::new(status, winner)),
            "{text}"
        );
        let pcn = pgn::to_pcn(&g);
        assert_eq!(pcn.status, Some(status));
        assert_eq!(pcn.winner.map(record::side_of_winner), Some(winner));
        let back = through_pcn(&text);
        assert!(back.contains(&format!("[Result \"{result}\"]")), "{back}");
        assert!(back.contains(&format!("1. Che3 Hg8 {result}")), "{back}");
        let again = pgn::read(&back).unwrap();
        assert_eq!(again.game.outcome(), g.game.outcome(), "{back}");
        // The termination written is the one read (or the word for the status).
        let written = termination.unwrap_or(pgn::termination_of(status));
        assert!(
            back.contains(&format!("[Termination \"{written}\"]")),
            "{back}"
        );
    }
}

#[test]
fn a_result_without_a_marker_comes_from_the_tag() {
    let text = pgn_text(&[("Result", "1-0")], "1. Che3 Hg8");
    let g = pgn::read(&text).unwrap();
    assert_eq!(g.result, Some(Some(Side::First)));
    assert_eq!(
        g.game.outcome(),
        Some(Outcome::win(Status::Resignation, Side::First))
    );
}

#[test]
fn contradicting_results_are_errors_that_name_both() {
    let e = refused(&pgn_text(&[("Result", "1-0")], "1. Che3 Hg8 0-1"));
    assert_eq!(
        e.to_string(),
        "PGN: the Result tag says 1-0 but the moves end with 0-1 (line 3, column 13)"
    );
    let e = refused(&pgn_text(&[("Result", "1/2-1/2")], "1. Che3 Hg8 *"));
    assert!(
        e.to_string()
            .contains("says 1/2-1/2 but the moves end with *"),
        "{e}"
    );
    // Black is mated: the result must be Red's win.
    let mate = [
        ("FEN", "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"),
        ("SetUp", "1"),
    ];
    let e = refused(&pgn_text(&mate, "1. Rd1# 0-1"));
    assert_eq!(
        e.to_string(),
        "PGN: the result says 0-1 but the game ended: checkmate, first wins"
    );
    let mut tagged = mate.to_vec();
    tagged.push(("Termination", "time forfeit"));
    let e = refused(&pgn_text(&tagged, "1. Rd1# 1-0"));
    assert_eq!(
        e.to_string(),
        "PGN: the Termination tag says 'time forfeit' but the game ended: checkmate, first wins"
    );
    let e = refused(&pgn_text(&[("Termination", "checkmate")], "1. Che3 1-0"));
    assert_eq!(
        e.to_string(),
        "PGN: the result says 1-0 by checkmate (Termination 'checkmate') but the position \
         shows no checkmate after its 1 moves"
    );
    // The rules' own result agrees: read, and written back with its termination.
    let g = pgn::read(&pgn_text(&mate, "1. Rd1# 1-0")).unwrap();
    assert_eq!(
        g.game.outcome(),
        Some(Outcome::win(Status::Checkmate, Side::First))
    );
    let text = pgn::write(g.game.as_ref(), &g.tags).unwrap();
    assert!(text.contains("[Termination \"normal\"]"), "{text}");
}

#[test]
fn fen_counters_survive_pgn_pcn_and_back() {
    let fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 4 3";
    let tags = [("FEN", fen), ("SetUp", "1")];
    let text = pgn_text(&tags, "3. Ra2 Kd9 *");
    let g = pgn::read(&text).unwrap();
    assert_eq!(g.game.start_halfmove(), 4);
    assert_eq!(
        g.game.to_text(PositionFormat::Fen).unwrap(),
        "9/3k5/9/9/9/9/9/9/R8/4K4 w - - 6 4"
    );
    let written = pgn::write(g.game.as_ref(), &g.tags).unwrap();
    assert!(written.contains(&format!("[FEN \"{fen}\"]")), "{written}");
    assert!(written.contains("3. Ra2 Kd9 *"), "{written}");
    let pcn = pgn::to_pcn(&g);
    assert_eq!(pcn.meta.extra["halfmove"], 4);
    assert_eq!(pcn.meta.extra["move_number"], 3);
    let back = through_pcn(&text);
    assert!(back.contains(&format!("[FEN \"{fen}\"]")), "{back}");
    assert!(back.contains("3. Ra2 Kd9 *"), "{back}");
    let game = record::game_of(&pcn).unwrap();
    assert_eq!(game.halfmove(), 6);
    assert_eq!(game.start_text(PositionFormat::Fen).unwrap(), fen);
    // A record without the counters starts at 0 and 1, as before.
    let plain = record::to_pcn(GameKind::Xiangqi.new_game("start").unwrap().as_ref(), &[]);
    assert!(!plain.meta.extra.contains_key("halfmove"));
    assert!(!plain.meta.extra.contains_key("move_number"));
    let bad = pcn
        .to_json_pretty()
        .replace("\"halfmove\": 4", "\"halfmove\": -4");
    let e = record::read(&bad).err().unwrap();
    assert_eq!(
        e.to_string(),
        "meta.halfmove: -4 is not a whole number of at least 0"
    );
}

#[test]
fn the_half_move_clock_of_the_fen_ends_the_game_at_the_move_limit() {
    // 96 plies without a capture: four more reach the limit of 100.
    let fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 96 60";
    let mut game = GameKind::Xiangqi.new_game(fen).unwrap();
    for m in ["a1a2", "d10d9", "a2a1", "d9d10"] {
        game.play_text(m, MoveNotation::Uci).unwrap();
    }
    let outcome = game.outcome().expect("the move limit");
    assert_eq!(outcome.status, Status::Movelimit);
    let text = pgn::write(game.as_ref(), &[]).unwrap();
    assert!(text.contains("[Result \"1/2-1/2\"]"), "{text}");
    assert!(text.contains(&format!("[FEN \"{fen}\"]")), "{text}");
    let back = pgn::read(&text).unwrap();
    assert_eq!(back.game.outcome(), Some(outcome));
    assert_eq!(back.result, Some(None));
    let again = record::game_of(&pgn::to_pcn(&back)).unwrap();
    assert_eq!(again.outcome(), Some(outcome));
}

#[test]
fn a_game_where_black_moves_first_is_numbered_as_pychess_numbers_it() {
    let mut game = GameKind::Xiangqi
        .new_game("3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1")
        .unwrap();
    for m in ["d10d9", "a1a9", "d9d10"] {
        game.play_text(m, MoveNotation::Uci).unwrap();
    }
    let text = pgn::write(game.as_ref(), &[]).unwrap();
    assert!(text.contains("\n1. Kd9 Ra9+ 2. Kd10 *"), "{text}");
    let back = pgn::read(&text).unwrap();
    assert_eq!(back.game.moves_uci(), game.moves_uci());
    // The older form `1... Kd9` still reads.
    let old = text.replace("1. Kd9 Ra9+ 2. Kd10", "1... Kd9 2. Ra9+ Kd10");
    assert_eq!(pgn::read(&old).unwrap().game.moves_uci(), game.moves_uci());
}

#[test]
fn comments_nags_variations_and_clocks_are_kept() {
    let text = "[Event \"x\"]\n[Variant \"Xiangqi\"]\n[TimeControl \"300+2\"]\n\n\
                {A game} 1. Che3 {[%clk 0:04:58]} Hg8! {[%clk 0:04:55]} (1... Ce8 2. Hg3) \
                2. Hg3 $14 {[%clk 0:04:50]} Rh10?! ; to the corner\n*\n";
    let g = pgn::read(text).unwrap();
    assert_eq!(g.notes[0].comments, ["A game"]);
    assert_eq!(g.notes[2].nags, [1]);
    assert_eq!(g.notes[2].variations, ["1... Ce8 2. Hg3"]);
    assert_eq!(g.notes[3].nags, [14]);
    assert_eq!(g.notes[4].nags, [6]);
    assert_eq!(g.notes[4].comments, ["to the corner"]);
    // 300 + 2 - 298 = 4 s, 300 + 2 - 295 = 7 s, 298 + 2 - 290 = 10 s, no clock: 0.
    assert_eq!(pgn::move_times(&g), [4.0, 7.0, 10.0, 0.0]);
    let pcn = pgn::to_pcn(&g);
    assert_eq!(pcn.moves[2].1, 10.0);
    let annotations = &pcn.meta.extra["annotations"];
    assert_eq!(annotations[0]["ply"], 0);
    assert_eq!(annotations[0]["comments"][0], "A game");
    let back = through_pcn(text);
    // After a comment, the second side's move is numbered again (PGN's export form).
    let flat = back.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "{A game} 1. Che3 {[%clk 0:04:58]} 1... Hg8 $1 {[%clk 0:04:55]} (1... Ce8 2. Hg3) \
             2. Hg3 $14 {[%clk 0:04:50]} 2... Rh10 $6 {to the corner} *"
        ),
        "{back}"
    );
    let again = pgn::read(&back).unwrap();
    assert_eq!(again.notes, g.notes);
    // A `;` comment may hold a `}`: it is written as a `;` comment again.
    let text = "1. Che3 ; a } brace\nHg8 *\n";
    let g = pgn::read(text).unwrap();
    assert_eq!(g.notes[1].comments, ["a } brace"]);
    let back = pgn::write_annotated(g.game.as_ref(), &[], &g.notes, &[]).unwrap();
    assert!(back.contains("1. Che3 ; a } brace\n1... Hg8 *\n"), "{back}");
    assert_eq!(pgn::read(&back).unwrap().notes, g.notes);
}

#[test]
fn move_times_come_back_as_elapsed_move_times() {
    let mut game = GameKind::Xiangqi.new_game("start").unwrap();
    game.play_text("h3e3", MoveNotation::Uci).unwrap();
    game.play_text("h10g8", MoveNotation::Uci).unwrap();
    let pcn = record::to_pcn(game.as_ref(), &[1.5, 62.0]);
    let text = pgn::of_pcn(&pcn).unwrap();
    assert!(
        text.contains("1. Che3 {[%emt 0:00:01.5]} 1... Hg8 {[%emt 0:01:02]} *"),
        "{text}"
    );
    let back = pgn::to_pcn(&pgn::read(&text).unwrap());
    assert_eq!(back.moves, pcn.moves);
}

#[test]
fn malformed_text_is_an_error_with_line_and_column() {
    let cases = [
        (
            "[Event \"x\"]\n\n1. Che3 {unclosed Hg8 *\n",
            "PGN line 3, column 9: the comment opened by '{' here is never closed by '}'",
        ),
        (
            "\n1. Che3 Hg8 (1... Ce8 2. Hg3 *\n",
            "PGN line 2, column 13: the variation opened by '(' here is never closed by ')'",
        ),
        ("", "PGN line 1, column 1: the text holds no game"),
        ("  \n\n", "PGN line 1, column 1: the text holds no game"),
        (
            "\n{only a comment}\n",
            "PGN line 2, column 1: no game here: no tag, move or result, only comments",
        ),
        (
            "1. Che3 Hg8 * Hg3",
            "PGN line 1, column 15: 'Hg3' after the result",
        ),
        (
            "1. Che3 Hg8 ) *",
            "PGN line 1, column 13: ')' closes no variation (no '(' before it)",
        ),
        (
            "[Event \"x\"\n1. Che3 *",
            "PGN line 1, column 1: the tag '[Event \"x\"' is never closed by ']'",
        ),
        (
            "1. Che3 Hg8 2. Rz9 *",
            "PGN line 1, column 16: illegal move 'Rz9' at ply 3",
        ),
    ];
    for (text, message) in cases {
        let e = refused(text);
        assert!(e.to_string().starts_with(message), "{text:?}: {e}");
    }
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let g = pgn::read("\u{feff}[Event \"x\"]\n\n1. Che3 *\n").unwrap();
    assert_eq!(g.tag("Event"), Some("x"));
    assert_eq!(g.game.moves_uci(), ["h3e3"]);
}

#[test]
fn every_game_of_a_file_is_read_and_refusals_say_where() {
    let text = "[Event \"one\"]\n\n1. Che3 Hg8 *\n\n\
                [Event \"two\"]\n\n1. Che3 Rz9 *\n\n\
                [Event \"three\"]\n\n1. Hg3 1-0\n\
                [Event \"four\"]\n1. Che3\n";
    let games: Vec<_> = pgn::read_all(text).collect();
    assert_eq!(games.len(), 4);
    assert_eq!(games[0].as_ref().unwrap().tag("Event"), Some("one"));
    let refusal = games[1].as_ref().err().unwrap();
    assert_eq!((refusal.game, refusal.line, refusal.column), (2, 7, 9));
    let three = games[2].as_ref().unwrap();
    assert_eq!(three.line, 9);
    assert_eq!(three.result, Some(Some(Side::First)));
    assert_eq!(games[3].as_ref().unwrap().game.moves_uci(), ["h3e3"]);
}

/// A reader of `count` generated game texts (the `n`-th, from 1, made by `make(n)`), never
/// all in memory.
struct GeneratedGames<F> {
    count: usize,
    made: usize,
    make: F,
    buffer: Vec<u8>,
    at: usize,
}

impl<F: FnMut(usize) -> String> GeneratedGames<F> {
    fn new(count: usize, make: F) -> std::io::BufReader<Self> {
        std::io::BufReader::new(GeneratedGames {
            count,
            made: 0,
            make,
            buffer: Vec::new(),
            at: 0,
        })
    }
}

impl<F: FnMut(usize) -> String> std::io::Read for GeneratedGames<F> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.buffer.len() {
            if self.made == self.count {
                return Ok(0);
            }
            self.made += 1;
            self.buffer = (self.make)(self.made).into_bytes();
            self.at = 0;
        }
        let n = out.len().min(self.buffer.len() - self.at);
        out[..n].copy_from_slice(&self.buffer[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[test]
fn a_hundred_thousand_games_stream_through() {
    let reader = GeneratedGames::new(100_000, |n| {
        format!("[Event \"game {n}\"]\n[Result \"1-0\"]\n\n1. Che3 Hg8 2. Hg3 1-0\n\n")
    });
    let mut read = 0;
    for (i, game) in pgn::games(reader).enumerate() {
        let game = game.unwrap();
        assert_eq!(game.line, 5 * i + 1);
        assert_eq!(game.game.plies(), 3);
        read += 1;
    }
    assert_eq!(read, 100_000);
}

#[test]
fn a_hundred_thousand_pcn_records_stream_through() {
    let reader = GeneratedGames::new(100_000, |n| {
        format!(
            "{{\"meta\": {{\"game\": \"xiangqi\", \"event\": \"game {n}\"}},\n \
             \"setup\": \"rheag^aehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAG^AEHR / X/x\",\n \
             \"moves\": [[\"h3-e3\", 1.5], [\"h10-g8\", 0.5], [\"h1-g3\", 2]]}}\n"
        )
    });
    let mut read = 0;
    for (i, text) in chuhe::record_stream::texts(reader).enumerate() {
        let text = text.unwrap();
        assert_eq!((text.index, text.line, text.column), (i + 1, 3 * i + 1, 1));
        let game = chuhe::record::read(&text.text).unwrap();
        assert_eq!(game.plies(), 3);
        read += 1;
    }
    assert_eq!(read, 100_000);
}

#[test]
fn the_chinese_programs_dialects_read_by_their_format_tag_and_write_back() {
    let san = "1. Che3 Hg8 2. Hg3 Rh10 *";
    let uci = ["h3e3", "h10g8", "h1g3", "i10h10"];
    for (format, movetext) in [
        ("Chinese", "1. 炮二平五 马8进7 2. 马二进三 车9平8 *"),
        ("WXF", "1. C2=5 H8+7 2. H2+3 R9=8 *"),
        ("ICCS", "1. H2-E2 H9-G7 2. H0-G2 I9-H9 *"),
        ("ICCS", "1. h2e2 h9g7 2. h0g2 i9h9 *"),
        ("UCI", "1. h3e3 h10g8 2. h1g3 i10h10 *"),
    ] {
        let text = pgn_text(&[("Format", format)], movetext);
        let g = pgn::read(&text).unwrap_or_else(|e| panic!("{format}: {e}"));
        assert_eq!(g.game.moves_uci(), uci, "{format}");
        // PCN's moves are PMN: the Format tag is not kept.
        let pcn = pgn::to_pcn(&g);
        assert!(!pcn.meta.extra.contains_key("pgn"), "{format}");
        let notation = match format {
            "Chinese" => MoveNotation::Chinese,
            "WXF" => MoveNotation::Wxf,
            "ICCS" => MoveNotation::Iccs,
            _ => MoveNotation::Uci,
        };
        let written = pgn::of_pcn_in(&pcn, notation).unwrap();
        assert!(
            written.contains(&format!("[Format \"{format}\"]")),
            "{written}"
        );
        let flat = movetext.to_lowercase().replace('-', "");
        let canonical = if format == "ICCS" {
            flat.as_str()
        } else {
            movetext
        };
        assert!(written.contains(canonical), "{written}");
        assert!(pgn::of_pcn(&pcn).unwrap().contains(san));
        assert_eq!(pgn::read(&written).unwrap().game.moves_uci(), uci);
    }
    // Chinese moves are read without a Format tag too.
    let g = pgn::read("1. 炮二平五 马8进7 *").unwrap();
    assert_eq!(g.game.moves_uci(), ["h3e3", "h10g8"]);
    let e = pgn::of_pcn_in(&record::to_pcn(g.game.as_ref(), &[]), MoveNotation::Pmn)
        .err()
        .unwrap();
    assert_eq!(
        e.to_string(),
        "PGN moves are written in SAN, ICCS, WXF, Chinese or UCI, not pmn"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
    /// Any text: games or refusals, never a panic.
    #[test]
    fn the_pgn_reader_never_panics(
        text in "(\\[[A-Za-z]{0,5} \"[^\"\\n]{0,6}\"?\\]?\\n|[0-9. ]{0,4}|[{}();$!?*\\n ]|1-0|Che3|Hg8|炮二平五|%|\u{feff}){0,40}"
    ) {
        for game in pgn::read_all(&text) {
            let _ = game.map(|g| g.game.plies());
        }
    }
}
