//! Criterion benchmarks: perft and move generation for Xiongqi and Xiangqi, and random games
//! through the arbiter (`Game::play_legal`, what the Python environments run).
//!
//! `cargo bench -p chuhe --bench perft`

use chuhe::xiangqi;
use chuhe::xiongqi::{perft, MoveList, Position};
use chuhe::{Game, GamePosition};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const MIDGAME: &str = "r2ag^2r/1e3c2/s1s1hs1s/3E4/2+s5/S2SS2S/2C1A1H1/R1B1G^B1R 2b2sch/3SCH x/X";

fn bench_perft(c: &mut Criterion) {
    let start = Position::start();
    let mut group = c.benchmark_group("xiongqi-perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(perft(&start, 4)));
    group.bench_function("start-depth-4", |b| b.iter(|| perft(black_box(&start), 4)));
    group.finish();
}

fn bench_movegen(c: &mut Criterion) {
    let positions = [Position::start(), Position::from_feen(MIDGAME).unwrap()];
    let mut group = c.benchmark_group("xiongqi-movegen");
    for (name, pos) in ["start", "midgame"].iter().zip(positions.iter()) {
        group.bench_function(format!("generate-{name}"), |b| {
            b.iter(|| {
                let mut list = MoveList::new();
                black_box(pos).generate_moves(&mut list);
                list.len()
            })
        });
        group.bench_function(format!("count-{name}"), |b| {
            b.iter(|| black_box(pos).count_moves())
        });
    }
    group.finish();
}

fn bench_xiangqi(c: &mut Criterion) {
    let start = xiangqi::Position::start();
    let mut group = c.benchmark_group("xiangqi-perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(xiangqi::perft(&start, 4)));
    group.bench_function("start-depth-4", |b| {
        b.iter(|| xiangqi::perft(black_box(&start), 4))
    });
    group.finish();
    let mut group = c.benchmark_group("xiangqi-movegen");
    group.bench_function("generate-start", |b| {
        b.iter(|| {
            let mut list = xiangqi::MoveList::new();
            black_box(&start).generate_moves(&mut list);
            list.len()
        })
    });
    group.bench_function("count-start", |b| {
        b.iter(|| black_box(&start).count_moves())
    });
    group.finish();
}

/// Plies of random games through the arbiter: each ply plays a random legal move and
/// generates the next legal list (history rules included), restarting when a game ends.
fn random_plies<P: GamePosition>(start: &P, plies: u64, seed: u64) -> u64 {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = Game::from_position(start.clone());
    let mut next = game.legal_moves();
    let mut checksum = 0;
    for _ in 0..plies {
        if next.is_empty() {
            game.restart(start.clone());
            next = game.legal_moves();
        }
        let m = next[rng.gen_range(0..next.len())];
        game.play_legal(m, &mut next);
        checksum += next.len() as u64;
    }
    checksum
}

fn bench_arbiter(c: &mut Criterion) {
    const PLIES: u64 = 10_000;
    let mut group = c.benchmark_group("arbiter-random-plies");
    group.sample_size(20);
    group.throughput(Throughput::Elements(PLIES));
    let xiongqi = Position::start();
    group.bench_function("xiongqi", |b| {
        b.iter(|| random_plies(black_box(&xiongqi), PLIES, 7))
    });
    let xiangqi = xiangqi::Position::start();
    group.bench_function("xiangqi", |b| {
        b.iter(|| random_plies(black_box(&xiangqi), PLIES, 7))
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_perft,
    bench_movegen,
    bench_xiangqi,
    bench_arbiter
);
criterion_main!(benches);
