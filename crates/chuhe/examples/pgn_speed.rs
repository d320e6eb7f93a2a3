//! How fast PGN files are read: `generate N FILE` writes N random Xiangqi games (a fixed
//! seed, 20–80 plies each, with tags, a clock comment per move and a result), `read FILE`
//! reads every game of FILE one at a time (every move checked, each game turned into its PCN
//! record as `chuhe record --to pcn` does) and prints games per second.
//!
//! ```sh
//! cargo run --release -p chuhe --example pgn_speed -- generate 100000 /tmp/games.pgn
//! cargo run --release -p chuhe --example pgn_speed -- read /tmp/games.pgn
//! ```

use std::io::{BufReader, BufWriter, Write};
use std::time::Instant;

use chuhe::{pgn, GameKind, MoveNotation};

/// xorshift64*: reproducible without a dependency.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

fn generate(count: usize, path: &str) -> std::io::Result<()> {
    let mut out = BufWriter::new(std::fs::File::create(path)?);
    let mut random = Random(0x9E37_79B9_7F4A_7C15);
    for i in 0..count {
        let mut game = GameKind::Xiangqi.new_game("start").expect("the start");
        let plies = 20 + random.below(61);
        for _ in 0..plies {
            let moves = game.legal_moves_text(MoveNotation::Uci).expect("xiangqi");
            if moves.is_empty() {
                break;
            }
            let m = &moves[random.below(moves.len())];
            game.play_text(m, MoveNotation::Uci).expect("legal");
        }
        if game.outcome().is_none() {
            game.resign(game.turn());
        }
        let tags = [
            ("Event".to_string(), format!("generated {}", i + 1)),
            ("TimeControl".to_string(), "300+3".to_string()),
        ];
        let times: Vec<f64> = (0..game.plies()).map(|p| (p % 7) as f64 + 0.5).collect();
        let text = pgn::write_annotated(game.as_ref(), &tags, &[], &times).expect("xiangqi");
        out.write_all(text.as_bytes())?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

fn read(path: &str) -> std::io::Result<()> {
    let reader = BufReader::new(std::fs::File::open(path)?);
    let start = Instant::now();
    let (mut games, mut refused, mut plies) = (0usize, 0usize, 0usize);
    for game in pgn::games(reader) {
        match game {
            Ok(g) => {
                plies += g.game.plies();
                let record = pgn::to_pcn(&g).to_json_pretty();
                std::hint::black_box(record);
                games += 1;
            }
            Err(e) => {
                eprintln!("{e}");
                refused += 1;
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{games} games read ({refused} refused), {plies} plies, in {seconds:.2} s: {:.0} games/s, {:.0} plies/s",
        games as f64 / seconds,
        plies as f64 / seconds
    );
    Ok(())
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["generate", n, path] => generate(n.parse().expect("a number of games"), path),
        ["read", path] => read(path),
        _ => {
            eprintln!("usage: pgn_speed generate N FILE | pgn_speed read FILE");
            std::process::exit(2);
        }
    }
}
