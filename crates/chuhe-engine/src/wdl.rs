//! Win/draw/loss figures for a score: what `UCI_ShowWDL` prints after the score.
//!
//! The model is the one Stockfish uses, fitted to chuhe's own self-play games: for a score
//! `s` (centipawns, side to move's view) and the material `m` on the board ([`material`]),
//!
//! ```text
//! P(win)  = 1 / (1 + exp((a(m) - s) / b(m)))
//! P(loss) = 1 / (1 + exp((a(m) + s) / b(m)))
//! P(draw) = 1 - P(win) - P(loss)
//! ```
//!
//! with `a` and `b` quadratic in `x = m / norm` (`a` the score at which a win is as likely as
//! not, `b` how fast the odds change). The constants below come from
//! `examples/wdl_data.rs` (self-play data) and `scripts/fit_wdl.py` (the maximum-likelihood
//! fit); `docs/TUNING.md`, "Win/draw/loss model", records the runs and how to refit: run
//! both again and paste the script's `WdlModel` lines here.
//!
//! ```
//! use chuhe::GameKind;
//! use chuhe_engine::{wdl, Score};
//! let model = wdl::WdlModel::of(GameKind::Xiangqi);
//! let (w, d, l) = model.wdl(Score::Cp(150), 20);
//! assert_eq!(w + d + l, 1000);
//! assert!(w > l);
//! assert_eq!(model.wdl(Score::Mate(3), 20), (1000, 0, 0));
//! ```

use chuhe::{GameKind, GamePosition, Side};

use crate::score::Score;

/// The fitted parameters of one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// The material is divided by this before the polynomials are applied.
    pub norm: f64,
    /// The material range of the data: a material outside it is read as its nearest end.
    pub material_range: (u32, u32),
    /// `a(x) = a[0] + a[1]·x + a[2]·x²`, centipawns.
    pub a: [f64; 3],
    /// `b(x) = b[0] + b[1]·x + b[2]·x²`, centipawns (positive over the whole range).
    pub b: [f64; 3],
}

/// Xiangqi (standard rules; the teaching rules use it too, having no data of their own):
/// 600 self-play games at 3000 nodes a move, 87,900 positions (seed 7; `docs/TUNING.md`).
pub const XIANGQI: WdlModel = WdlModel {
    norm: 30.0,
    material_range: (1, 30),
    a: [829.426, -1296.136, 697.893],
    b: [152.353, 50.116, 102.689],
};

/// Xiongqi: 400 self-play games at 3000 nodes a move, 33,298 positions (seed 7). Draws are
/// rare (4 games of 400) and come from bare endings, which is where the model puts them.
pub const XIONGQI: WdlModel = WdlModel {
    norm: 34.0,
    material_range: (1, 34),
    a: [147.965, -383.252, 252.794],
    b: [26.306, 688.466, -427.771],
};

impl WdlModel {
    /// The model of a game.
    pub fn of(kind: GameKind) -> &'static WdlModel {
        match kind {
            GameKind::Xiongqi => &XIONGQI,
            // Games read from rule files: the Xiangqi model, a fit for none of them.
            GameKind::Xiangqi | GameKind::XiangqiCapture | GameKind::Rules(_) => &XIANGQI,
        }
    }

    /// `a` and `b` at a material.
    pub fn parameters(&self, material: u32) -> (f64, f64) {
        let (lo, hi) = self.material_range;
        let x = f64::from(material.clamp(lo, hi)) / self.norm;
        let poly = |c: &[f64; 3]| c[0] + x * (c[1] + x * c[2]);
        (poly(&self.a), poly(&self.b))
    }

    /// The probabilities of a win, a draw and a loss for the side to move at a score.
    pub fn probabilities(&self, score: Score, material: u32) -> (f64, f64, f64) {
        match score {
            Score::Mate(n) if n > 0 => (1.0, 0.0, 0.0),
            Score::Mate(_) => (0.0, 0.0, 1.0),
            Score::Cp(cp) => {
                let (a, b) = self.parameters(material);
                let s = f64::from(cp);
                let win = 1.0 / (1.0 + ((a - s) / b).exp());
                let loss = 1.0 / (1.0 + ((a + s) / b).exp());
                (win, (1.0 - win - loss).max(0.0), loss)
            }
        }
    }

    /// Win, draw and loss in permille for the side to move, summing to exactly 1000; a
    /// forced win is `(1000, 0, 0)`, a forced loss `(0, 0, 1000)`.
    pub fn wdl(&self, score: Score, material: u32) -> (u32, u32, u32) {
        let (win, _, loss) = self.probabilities(score, material);
        let permille = |p: f64| (p * 1000.0).round().clamp(0.0, 1000.0) as u32;
        let w = permille(win);
        let l = permille(loss).min(1000 - w);
        (w, 1000 - w - l, l)
    }
}

/// [`WdlModel::wdl`] with the model of `kind`.
pub fn wdl(kind: GameKind, score: Score, material: u32) -> (u32, u32, u32) {
    WdlModel::of(kind).wdl(score, material)
}

/// The material the model reads: the number of pieces on the board other than the two
/// terminal pieces (generals; Xiongqi's dragons).
pub fn material<P: GamePosition>(pos: &P) -> u32 {
    let terminals = [
        pos.terminal_square(Side::First),
        pos.terminal_square(Side::Second),
    ];
    let mut count = 0;
    pos.for_each_piece(|square, _, _| {
        if !terminals.contains(&Some(square)) {
            count += 1;
        }
    });
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhe::{xiangqi, xiongqi};

    #[test]
    fn material_counts_every_piece_but_the_terminal_ones() {
        let x = <xiangqi::Position as GamePosition>::start(xiangqi::RuleSet::Standard);
        assert_eq!(material(&x), 30);
        let y = <xiongqi::Position as GamePosition>::start(());
        assert_eq!(material(&y), 34);
        let bare = xiongqi::Position::from_text("3g^4/8/8/8/8/8/8/3RG^3 / X/x", ()).unwrap();
        assert_eq!(material(&bare), 1);
    }

    const MODELS: [(&str, &WdlModel); 2] = [("xiangqi", &XIANGQI), ("xiongqi", &XIONGQI)];

    #[test]
    fn the_models_are_well_behaved_at_every_material() {
        for (name, model) in MODELS {
            for m in 0..=model.norm as u32 {
                let (a, b) = model.parameters(m);
                assert!(b > 1.0, "{name} m={m}: b = {b}");
                assert!(a >= 0.0, "{name} m={m}: a = {a}");
            }
        }
    }

    #[test]
    fn permille_sum_to_1000_and_follow_the_score() {
        for (name, model) in MODELS {
            for m in (0..=model.norm as u32).step_by(3) {
                let mut last = model.wdl(Score::Cp(-5000), m);
                assert_eq!(last, (0, 0, 1000), "{name} m={m}");
                for cp in (-5000..=5000).step_by(25) {
                    let (w, d, l) = model.wdl(Score::Cp(cp), m);
                    assert_eq!(w + d + l, 1000, "{name} m={m} cp={cp}");
                    assert!(w >= last.0 && l <= last.2, "{name} m={m} cp={cp}");
                    // The side to move's loss is the other side's win.
                    let (w2, d2, l2) = model.wdl(Score::Cp(-cp), m);
                    assert_eq!((w, d, l), (l2, d2, w2), "{name} m={m} cp={cp}");
                    last = (w, d, l);
                }
                assert_eq!(last, (1000, 0, 0), "{name} m={m}");
                assert!(model.wdl(Score::Cp(200), m).0 > model.wdl(Score::Cp(100), m).0);
            }
        }
    }

    #[test]
    fn the_draw_share_at_an_equal_score_follows_the_data() {
        // Observed draw rates at |score| < 50 cp (`scripts/fit_wdl.py`'s calibration of the
        // data the constants come from): Xiangqi 0.41 with 26–30 pieces, 0.66 with 14–19,
        // 0.95 with under 8; Xiongqi 0.001–0.01 with 20 or more pieces.
        let draw = |model: &WdlModel, m| f64::from(model.wdl(Score::Cp(0), m).1) / 1000.0;
        assert!((draw(&XIANGQI, 30) - 0.41).abs() < 0.08);
        assert!((draw(&XIANGQI, 16) - 0.66).abs() < 0.08);
        assert!((draw(&XIANGQI, 4) - 0.95).abs() < 0.05);
        assert!(draw(&XIONGQI, 24) < 0.03);
        // Fewer pieces, more draws (Xiangqi), from the opening to the bare ending.
        for m in 1..30 {
            assert!(draw(&XIANGQI, m) >= draw(&XIANGQI, m + 1), "m={m}");
        }
    }

    #[test]
    fn forced_ends_are_certain() {
        for kind in [
            GameKind::Xiangqi,
            GameKind::XiangqiCapture,
            GameKind::Xiongqi,
        ] {
            for m in [0, 15, 30] {
                assert_eq!(wdl(kind, Score::Mate(1), m), (1000, 0, 0));
                assert_eq!(wdl(kind, Score::Mate(12), m), (1000, 0, 0));
                assert_eq!(wdl(kind, Score::Mate(-3), m), (0, 0, 1000));
                assert_eq!(wdl(kind, Score::Mate(0), m), (0, 0, 1000));
            }
        }
    }
}
