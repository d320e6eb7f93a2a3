//! Xiangqi endgame knowledge: how much of a material lead can become a win.
//!
//! The evaluation counts material linearly, but many small endings are draws whatever the
//! count says: a chariot cannot break an advisor-and-elephant fortress (单车难胜士象全), a lone
//! horse or cannon cannot beat two defenders, a soldier more in a single-piece ending rarely
//! wins against two defenders. [`scale`] returns how much of the stronger side's lead to keep,
//! in sixteenths, from the material alone, so the search trades into the endings that win and
//! away from those that only look won.
//!
//! ```
//! use chuhe::xiangqi::{Position, RuleSet};
//! use chuhe::Side;
//! use chuhe_engine::eval::xiangqi_endgame::{scale, FULL};
//!
//! // A chariot against an advisor and elephant fortress: drawish.
//! let fortress = Position::from_fen("2baka3/9/4b4/9/9/9/9/9/9/3K1R3 w - - 0 1", RuleSet::Standard).unwrap();
//! assert!(scale(&fortress, Side::First) < FULL / 4);
//! // Take one elephant away and the chariot wins.
//! let won = Position::from_fen("3aka3/9/4b4/9/9/9/9/9/9/3K1R3 w - - 0 1", RuleSet::Standard).unwrap();
//! assert_eq!(scale(&won, Side::First), FULL);
//! ```

use chuhe::xiangqi::{Position, Role};
use chuhe::Side;

/// The whole lead kept (the scale of an ending without special knowledge).
pub const FULL: i32 = 16;

/// One side's material in the terms the endgame rules use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Force {
    chariots: i32,
    horses: i32,
    cannons: i32,
    soldiers: i32,
    /// Advisors and elephants together.
    defenders: i32,
    advisors: i32,
}

impl Force {
    fn of(pos: &Position, side: Side) -> Force {
        let own = pos.side_bb(side);
        let n = |role| (pos.role_bb(role) & own).count_ones() as i32;
        let advisors = n(Role::Advisor);
        Force {
            chariots: n(Role::Chariot),
            horses: n(Role::Horse),
            cannons: n(Role::Cannon),
            soldiers: n(Role::Soldier),
            defenders: advisors + n(Role::Elephant),
            advisors,
        }
    }

    /// Chariots, horses and cannons.
    fn majors(&self) -> i32 {
        self.chariots + self.horses + self.cannons
    }

    /// Pieces that can attack the enemy general (everything but advisors and elephants).
    fn attackers(&self) -> i32 {
        self.majors() + self.soldiers
    }

    /// The same chariots, horses and cannons as `other`.
    fn same_majors(&self, other: &Force) -> bool {
        (self.chariots, self.horses, self.cannons) == (other.chariots, other.horses, other.cannons)
    }
}

/// How much of `strong`'s lead the material lets it turn into a win, in sixteenths
/// ([`FULL`]: all of it). Only endings where `strong` has at most one chariot, horse or
/// cannon get less than [`FULL`]; every larger force keeps its whole lead.
pub fn scale(pos: &Position, strong: Side) -> i32 {
    let s = Force::of(pos, strong);
    let w = Force::of(pos, strong.opponent());
    if s.attackers() == 0 {
        // Advisors and elephants alone never mate.
        return 0;
    }
    if s.majors() > 1 || s.soldiers > 2 || (s.majors() == 1 && s.soldiers > 1) {
        return FULL;
    }
    let bare = w.attackers() == 0;
    if s.majors() == 0 {
        return match s.soldiers {
            // A soldier mates a bare general; two defenders hold it.
            1 if bare && w.defenders == 0 => FULL,
            1 if bare && w.defenders == 1 => FULL / 4,
            1 => FULL / 16,
            // Two soldiers beat a thin defence, not a full one nor a piece.
            _ if bare && w.defenders <= 2 => FULL,
            _ => FULL / 4,
        };
    }
    if s.soldiers == 1 {
        // One piece and a soldier against the same piece and two defenders (车兵对车士象全).
        return if s.same_majors(&w) && w.soldiers == 0 && w.defenders >= 2 {
            FULL * 3 / 8
        } else {
            FULL
        };
    }
    // A single chariot, horse or cannon, nothing else that attacks.
    if s.same_majors(&w) {
        // The same piece each: the lead is advisors, elephants or soldiers the other lacks.
        return FULL / 8;
    }
    if s.chariots == 1 {
        return match (w.majors(), w.soldiers) {
            // Advisors and elephants only: the full set holds (单车难胜士象全).
            (0, _) if w.defenders >= 4 => FULL / 8,
            (0, _) => FULL,
            // A horse or cannon with two defenders holds (车对马双士, 车对炮双士).
            (1, 0) if w.chariots == 0 && w.defenders >= 2 => FULL / 4,
            _ => FULL,
        };
    }
    if s.horses == 1 {
        // A horse beats a general with at most one defender.
        return if bare && w.defenders <= 1 {
            FULL
        } else {
            FULL / 8
        };
    }
    // A lone cannon needs a screen of its own to mate a bare general.
    if bare && w.defenders == 0 && s.advisors > 0 {
        FULL
    } else {
        FULL / 8
    }
}

/// `v` (Red's point of view) with the lead scaled by [`scale`] for the side it favours.
#[inline]
pub fn scaled(pos: &Position, v: i32, phase: i32) -> i32 {
    // Endings with something to scale have at most a chariot (4) and one more piece (2) each
    // side: 12 of the phase. Anything larger keeps its value without counting.
    if phase > 12 || v == 0 {
        return v;
    }
    let strong = if v > 0 { Side::First } else { Side::Second };
    let k = scale(pos, strong);
    if k == FULL {
        v
    } else {
        v * k / FULL
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhe::xiangqi::RuleSet;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, RuleSet::Standard).unwrap()
    }

    /// Red's scale in a position given by its placement, Red to move.
    fn red(placement: &str) -> i32 {
        scale(&pos(&format!("{placement} w - - 0 1")), Side::First)
    }

    #[test]
    fn defenders_alone_never_win() {
        assert_eq!(red("4k4/9/9/9/9/9/9/4B4/4A4/3AK1B2"), 0);
    }

    #[test]
    fn a_chariot_beats_an_incomplete_defence_but_not_the_full_one() {
        assert_eq!(red("3akab2/9/9/9/9/9/9/9/9/3K1R3"), FULL);
        assert_eq!(red("2ba1a3/4k4/4b4/9/9/9/9/9/9/3K1R3"), FULL / 8);
        assert_eq!(red("2b1k1b2/9/9/9/9/9/9/9/9/3K1R3"), FULL);
        // Against a cannon and two advisors, drawish; against a cannon alone, won.
        assert_eq!(red("3aka3/9/4c4/9/9/9/9/9/9/3K1R3"), FULL / 4);
        assert_eq!(red("4k4/9/4c4/9/9/9/9/9/9/3K1R3"), FULL);
        // Chariot against chariot: whatever else Red has, drawish.
        assert_eq!(red("4k4/9/4r4/9/9/9/9/4B4/4A4/3AK1R2"), FULL / 8);
    }

    #[test]
    fn a_lone_horse_or_cannon_needs_a_thin_defence() {
        assert_eq!(red("4k4/4a4/9/9/9/9/9/9/4N4/4K4"), FULL);
        assert_eq!(red("3k1a3/4a4/9/9/9/9/9/9/4N4/4K4"), FULL / 8);
        // A cannon with an advisor of its own mates a bare general; without one it cannot.
        assert_eq!(red("4k4/9/9/9/9/9/9/9/4A4/3CK4"), FULL);
        assert_eq!(red("3k5/9/9/9/9/9/9/9/9/4KC3"), FULL / 8);
    }

    #[test]
    fn soldiers_need_more_than_the_defenders() {
        assert_eq!(red("4k4/9/9/9/4P4/9/9/9/9/4K4"), FULL);
        assert_eq!(red("3aka3/9/9/9/4P4/9/9/9/9/4K4"), FULL / 16);
        assert_eq!(red("3aka3/9/9/9/3PP4/9/9/9/9/4K4"), FULL);
        assert_eq!(red("2baka3/9/4b4/9/3PP4/9/9/9/9/4K4"), FULL / 4);
        assert_eq!(red("2baka3/9/4b4/9/2PPP4/9/9/9/9/4K4"), FULL);
    }

    #[test]
    fn a_piece_and_a_soldier_against_the_same_piece_and_two_defenders_is_drawish() {
        assert_eq!(red("3aka3/9/4c4/9/4P4/9/9/9/9/3CK4"), FULL * 3 / 8);
        assert_eq!(red("4k4/9/4c4/9/4P4/9/9/9/9/3CK4"), FULL);
        assert_eq!(red("4k4/9/4n4/9/4P4/9/9/9/9/3CK4"), FULL);
    }

    #[test]
    fn larger_forces_keep_their_whole_lead() {
        assert_eq!(scale(&Position::start(), Side::First), FULL);
        assert_eq!(red("3aka3/9/4b4/9/9/9/9/9/9/3K1RN2"), FULL);
    }

    #[test]
    fn scaling_follows_the_side_the_value_favours() {
        let p = pos("2baka3/9/4b4/9/9/9/9/9/9/3K1R3 w - - 0 1");
        assert_eq!(scaled(&p, 800, 4), 100);
        // Black leading here would be its own business: Black has no attacker at all.
        assert_eq!(scaled(&p, -800, 4), 0);
        // Above the phase limit nothing is scaled.
        assert_eq!(scaled(&p, 800, 20), 800);
    }
}
