//! Criterion benchmarks: perft and move generation for Xiongqi and Xiangqi.
//!
//! `cargo bench -p chuhe --bench perft`

use chuhe::xiangqi;
use chuhe::xiongqi::{perft, MoveList, Position};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

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

criterion_group!(benches, bench_perft, bench_movegen, bench_xiangqi);
criterion_main!(benches);
