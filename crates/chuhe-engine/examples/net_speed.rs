//! The Xiangqi network's inner loops alone, per kernel: nanoseconds per move update of the
//! hidden sums plus one output, over positions of a fixed random walk with captures.
//!
//!     cargo run --release -p chuhe-engine --example net_speed [NETWORK_FILE]
//!
//! Prints one line per kernel (`scalar`, and `avx2` where the CPU has it), best of 5 rounds,
//! for the embedded network or the network file given.

use std::hint::black_box;
use std::time::Instant;

use chuhe::xiangqi::{Move, Position};
use chuhe_engine::eval::xiangqi_net::{Accumulator, XiangqiNet};

/// (position, move) pairs of a few games: quiet moves and captures as games have them.
fn walk() -> Vec<(Position, Move)> {
    let mut out = Vec::new();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..40 {
        let mut pos = Position::start();
        for _ in 0..150 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = moves
                .iter()
                .copied()
                .find(|&m| seed % 4 == 0 && pos.is_capture(m))
                .unwrap_or(moves[(seed % moves.len() as u64) as usize]);
            out.push((pos.clone(), m));
            pos.play_unchecked(m);
        }
    }
    out
}

fn main() {
    let walk = walk();
    let fast = match std::env::args_os().nth(1) {
        Some(path) => match XiangqiNet::load(std::path::Path::new(&path)) {
            Ok(net) => std::sync::Arc::new(net),
            Err(e) => {
                eprintln!("net_speed: {e}");
                std::process::exit(2);
            }
        },
        None => XiangqiNet::embedded(),
    };
    println!("{fast:?}");
    let scalar = (*fast).clone().with_scalar_kernel();
    let mut nets = vec![&scalar];
    if fast.kernel() != scalar.kernel() {
        nets.push(&fast);
    }
    let states: Vec<Accumulator> = walk
        .iter()
        .map(|(pos, _)| Accumulator::new(&scalar, pos))
        .collect();
    let mut out = states[0].clone();
    let repeats = 200;
    for net in nets {
        let mut best = f64::INFINITY;
        let mut sum = 0i64;
        for _ in 0..5 {
            let start = Instant::now();
            for _ in 0..repeats {
                for ((pos, m), state) in walk.iter().zip(&states) {
                    black_box(state).after(net, pos, *m, &mut out);
                    sum += i64::from(black_box(&out).output(net, pos.turn()));
                }
            }
            let ns = start.elapsed().as_nanos() as f64 / (repeats * walk.len()) as f64;
            best = best.min(ns);
        }
        println!(
            "{:6}: {best:.2} ns per update and output ({} positions × {repeats}; checksum {sum})",
            net.kernel().name(),
            walk.len()
        );
    }
}
