//! Ends of the game that read the history, written once for every game: the n-fold
//! repetition with perpetual check (and a chase rule given by the game), and the move limit
//! as Fairy-Stockfish counts it. Xiangqi's S3, S4 and S6 and the games read from rule files
//! use them.

use chuhe_notation::{Side, Status};

use crate::game::History;
use crate::variant::GamePosition;
use crate::{Outcome, RepetitionRule};

/// Who chased perpetually in a repetition cycle: `(the side that made the last move, the other)`.
pub(crate) type ChaseVerdict = (bool, bool);

/// The outcome when the current position occurs for the `fold`-th time, judged over the
/// moves since the first of those occurrences as pyffish judges them: with `perpetual_check`,
/// the side that gave check with every one of its moves, while the other did not, loses
/// (both: a draw); then, when `chase` is given, it is asked (with the index of the cycle's
/// first position and of the last) who chased perpetually: only one side → it loses; both →
/// a draw; otherwise a plain draw.
pub(crate) fn fold_repetition<P: GamePosition>(
    history: &History<P>,
    fold: usize,
    perpetual_check: bool,
    chase: Option<&dyn Fn(usize, usize) -> ChaseVerdict>,
) -> Option<Outcome> {
    let pos = history.current();
    let fold = fold.max(2);
    // The occurrences come latest first: the `fold`-th is the first of the cycle.
    let first = history.occurrences(pos).nth(fold - 1)?;
    let positions = history.positions();
    let last = positions.len() - 1;
    if perpetual_check {
        // all_checks[side]: did every move of `side` since `first` give check?
        let mut all_checks = [true, true];
        for j in first + 1..=last {
            let mover = positions[j - 1].turn();
            if !positions[j].is_check() {
                all_checks[mover.index()] = false;
            }
        }
        let check = RepetitionRule::PerpetualCheck;
        match all_checks {
            [true, false] => return Some(Outcome::win(Status::Repetition, Side::Second).by(check)),
            [false, true] => return Some(Outcome::win(Status::Repetition, Side::First).by(check)),
            [true, true] => return Some(Outcome::draw(Status::Repetition).by(check)),
            [false, false] => {}
        }
    }
    let Some(chase) = chase else {
        return Some(Outcome::draw(Status::Repetition));
    };
    let last_mover = positions[last - 1].turn();
    let rule = RepetitionRule::PerpetualChase;
    Some(match chase(first, last) {
        (true, false) => Outcome::win(Status::Repetition, !last_mover).by(rule),
        (false, true) => Outcome::win(Status::Repetition, last_mover).by(rule),
        (true, true) => Outcome::draw(Status::Repetition).by(rule),
        (false, false) => Outcome::draw(Status::Repetition).by(RepetitionRule::Plain),
    })
}

/// The move limit as Fairy-Stockfish applies it: the plies-since-reset counter reaches
/// `plies`, unless the side to move is checkmated. With `check_allowance` (Xiangqi's, once
/// 20 plies have been played), checks count: with `C` the larger number of checks given by
/// one side in the last `min(counter, plies played)` plies (rounded up to even), the draw
/// needs `counter - 2 * max(0, C - 10) >= plies`.
pub(crate) fn move_limit_reached<P: GamePosition>(
    history: &History<P>,
    plies: u32,
    check_allowance: bool,
    checkmated: bool,
) -> bool {
    let pos = history.current();
    let counter = i64::from(pos.halfmove());
    if counter < i64::from(plies) || checkmated {
        return false;
    }
    let k = history.moves().len();
    let mut allowance = 0;
    if check_allowance && k >= 20 {
        let positions = history.positions();
        let end = (counter as usize).min(k);
        let mut window = vec![k, k - 1];
        for i in (2..end).step_by(2) {
            window.extend([k - i, k - i - 1]);
        }
        let mut checks = [0i64; 2];
        for p in window {
            if positions[p].is_check() {
                checks[(k - p) % 2] += 1;
            }
        }
        allowance = 2 * (checks[0].max(checks[1]) - 10).max(0);
    }
    counter - allowance >= i64::from(plies)
}
