#!/usr/bin/env python3
"""Fits the win/draw/loss model of chuhe_engine::wdl to self-play data (numpy only).

The data comes from `examples/wdl_data.rs`: lines `game ply material score result`, the
score in centipawns and the result (1, 0.5, 0) from the side to move's view. The model, as
Stockfish's:

    P(win)  = 1 / (1 + exp((a(m) - s) / b(m)))
    P(loss) = 1 / (1 + exp((a(m) + s) / b(m)))
    P(draw) = 1 - P(win) - P(loss)

with a and b polynomials of degree --degree in x = m / --norm. The parameters maximise the
likelihood of the results (Newton's method with a numerical Hessian of the exact gradient,
backtracking). With --no-draws, a is fixed at 0 (no draws): only the win/loss curve is
fitted and a drawn game counts half a win and half a loss.

Prints the parameters, the log-likelihood against a constant model (the overall rates),
the same on held-out games (every --holdout-th game left out of a second fit), a
calibration table by score bucket, and the `WdlModel` constant for crates/chuhe-engine/src/
wdl.rs.

    python3 scripts/fit_wdl.py target/wdl/xiangqi.tsv --norm 30 --name XIANGQI
"""

import argparse
import sys

import numpy as np


def load(path):
    """The columns game, material, score and result of a data file; exits with a message
    naming the first bad line."""
    rows = []
    try:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                fields = line.split()
                try:
                    if len(fields) != 5:
                        raise ValueError(f"{len(fields)} fields, not 5")
                    game, _, material, score, result = (float(v) for v in fields)
                    if result not in (0.0, 0.5, 1.0):
                        raise ValueError(f"result {fields[4]} is not 1, 0.5 or 0")
                    if material < 0 or not np.isfinite(score):
                        raise ValueError("bad material or score")
                except ValueError as e:
                    sys.exit(f"{path}:{number}: {e}: {line[:80]!r}")
                rows.append((game, material, score, result))
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    if not rows:
        sys.exit(f"{path}: no data")
    game, material, score, result = np.array(rows).T
    return game.astype(np.int64), material, score, result


def fit(material, score, result, norm, degree=2, no_draws=False):
    """The maximum-likelihood coefficients of a and b (a all 0 under no_draws) and the
    log-likelihood."""
    model = Model(material / norm, score, result, degree, no_draws)
    theta, f = newton(model, start_theta(degree, no_draws))
    ca, cb = model.split(theta)
    return ca, cb, -f


def powers(x, degree):
    return np.stack([x**k for k in range(degree + 1)], axis=1)


class Model:
    """Negative log-likelihood and its gradient for one data set."""

    def __init__(self, x, s, r, degree, no_draws):
        self.X = powers(x, degree)
        self.s = s
        self.win = r > 0.75
        self.loss = r < 0.25
        self.draw = ~(self.win | self.loss)
        self.k = degree + 1
        self.no_draws = no_draws

    def split(self, theta):
        if self.no_draws:
            return np.zeros(self.k), theta
        return theta[: self.k], theta[self.k :]

    def probabilities(self, theta, X=None, s=None):
        X = self.X if X is None else X
        s = self.s if s is None else s
        ca, cb = self.split(theta)
        a, b = X @ ca, X @ cb
        pw = 1.0 / (1.0 + np.exp(np.clip((a - s) / b, -500, 500)))
        pl = 1.0 / (1.0 + np.exp(np.clip((a + s) / b, -500, 500)))
        return a, b, pw, pl

    def nll(self, theta):
        a, b, pw, pl = self.probabilities(theta)
        if np.any(b <= 0):
            return np.inf
        pw = np.maximum(pw, 1e-300)
        pl = np.maximum(pl, 1e-300)
        if self.no_draws:
            ll = (
                np.log(pw[self.win]).sum()
                + np.log(pl[self.loss]).sum()
                + 0.5 * (np.log(pw[self.draw]) + np.log(pl[self.draw])).sum()
            )
            return -ll
        pd = 1.0 - pw - pl
        if np.any(pd[self.draw] <= 0) or np.any(a <= 0):
            return np.inf
        ll = (
            np.log(pw[self.win]).sum()
            + np.log(pd[self.draw]).sum()
            + np.log(pl[self.loss]).sum()
        )
        return -ll

    def grad(self, theta):
        a, b, pw, pl = self.probabilities(theta)
        uw, ul = (self.s - a) / b, (-self.s - a) / b
        gw, gl = pw * (1 - pw), pl * (1 - pl)
        # Derivatives of pw and pl with respect to a and b.
        dpw_da, dpw_db = -gw / b, -gw * uw / b
        dpl_da, dpl_db = -gl / b, -gl * ul / b
        pw_ = np.maximum(pw, 1e-300)
        pl_ = np.maximum(pl, 1e-300)
        dlda = np.zeros_like(self.s)
        dldb = np.zeros_like(self.s)
        w, l, d = self.win, self.loss, self.draw
        dlda[w], dldb[w] = dpw_da[w] / pw_[w], dpw_db[w] / pw_[w]
        dlda[l], dldb[l] = dpl_da[l] / pl_[l], dpl_db[l] / pl_[l]
        if self.no_draws:
            dlda[d] = 0.5 * (dpw_da[d] / pw_[d] + dpl_da[d] / pl_[d])
            dldb[d] = 0.5 * (dpw_db[d] / pw_[d] + dpl_db[d] / pl_[d])
            return -(self.X.T @ dldb)
        pd = np.maximum(1 - pw - pl, 1e-300)
        dlda[d] = -(dpw_da[d] + dpl_da[d]) / pd[d]
        dldb[d] = -(dpw_db[d] + dpl_db[d]) / pd[d]
        return -np.concatenate([self.X.T @ dlda, self.X.T @ dldb])


def newton(model, theta, iterations=200):
    f = model.nll(theta)
    for _ in range(iterations):
        g = model.grad(theta)
        n = len(theta)
        H = np.zeros((n, n))
        for i in range(n):
            h = 1e-4 * max(1.0, abs(theta[i]))
            e = np.zeros(n)
            e[i] = h
            H[:, i] = (model.grad(theta + e) - model.grad(theta - e)) / (2 * h)
        H = 0.5 * (H + H.T)
        try:
            step = -np.linalg.solve(H + 1e-9 * np.eye(n), g)
            if step @ g >= 0:
                step = -g
        except np.linalg.LinAlgError:
            step = -g
        t = 1.0
        while t > 1e-12:
            candidate = theta + t * step
            fc = model.nll(candidate)
            if fc < f:
                break
            t *= 0.5
        else:
            break
        improvement = f - fc
        theta, f = candidate, fc
        if improvement < 1e-9 * max(1.0, abs(f)):
            break
    return theta, f


def start_theta(degree, no_draws):
    a = np.zeros(degree + 1)
    b = np.zeros(degree + 1)
    a[0], b[0] = 150.0, 150.0
    return b if no_draws else np.concatenate([a, b])


def constant_ll(r_train, r_eval):
    """Log-likelihood of r_eval under the overall rates of r_train (draws halved under
    --no-draws is not used here: this is the three-outcome constant model)."""
    rates = np.array(
        [np.mean(r_train > 0.75), np.mean((r_train >= 0.25) & (r_train <= 0.75)), np.mean(r_train < 0.25)]
    )
    rates = np.maximum(rates, 1e-12)
    counts = np.array(
        [np.sum(r_eval > 0.75), np.sum((r_eval >= 0.25) & (r_eval <= 0.75)), np.sum(r_eval < 0.25)]
    )
    return float(counts @ np.log(rates))


def fmt_poly(c):
    return "[" + ", ".join(f"{v:.4}" for v in c) + "]"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("data")
    p.add_argument("--norm", type=float, required=True, help="material divisor (30 Xiangqi, 34 Xiongqi)")
    p.add_argument("--degree", type=int, default=2)
    p.add_argument("--no-draws", action="store_true", help="fix a = 0: fit the win/loss curve only")
    p.add_argument("--holdout", type=int, default=5, help="every N-th game held out for the check fit")
    p.add_argument("--name", default="MODEL", help="the Rust constant's name")
    args = p.parse_args()

    game, material, score, result = load(args.data)
    x = material / args.norm
    n = len(score)
    games = len(np.unique(game))
    w, d, l = np.mean(result > 0.75), np.mean((result >= 0.25) & (result <= 0.75)), np.mean(result < 0.25)
    print(f"{args.data}: {n} positions from {games} games; results (side to move) W {w:.3f} D {d:.3f} L {l:.3f}")
    print(f"material {material.min():.0f}..{material.max():.0f}, score {score.min():.0f}..{score.max():.0f} cp")

    model = Model(x, score, result, args.degree, args.no_draws)
    theta, f = newton(model, start_theta(args.degree, args.no_draws))
    ca, cb = model.split(theta)
    ll = -f
    const = constant_ll(result, result)
    print(f"\nfit (degree {args.degree}{', no draws: a = 0' if args.no_draws else ''}):")
    print(f"  a(x) = {fmt_poly(ca)},  b(x) = {fmt_poly(cb)}, coefficients of (1, x, …),  x = material / {args.norm:g}")
    print(f"  log-likelihood {ll:.1f} ({ll / n:.4f} per position); constant model {const:.1f} ({const / n:.4f})")
    if args.no_draws:
        print("  (the fitted model gives draws probability 0; the constant model counts them)")

    # Well-behaved at every material of the game.
    grid = np.arange(0, int(args.norm) + 1)
    gx = powers(grid / args.norm, args.degree)
    ga, gb = gx @ ca, gx @ cb
    print("\n  m    a(m)    b(m)   P(draw | s=0)")
    for m, av, bv in zip(grid, ga, gb):
        pw = 1 / (1 + np.exp(av / bv))
        print(f"  {m:2d} {av:7.1f} {bv:7.1f}   {max(0.0, 1 - 2 * pw):.3f}")
    ok = bool(np.all(gb > 0) and (args.no_draws or np.all(ga >= 0)))
    print(f"  b > 0{' and a >= 0' if not args.no_draws else ''} at every material 0..{int(args.norm)}: {'yes' if ok else 'NO'}")

    # Held-out check: fit without every holdout-th game, score those games.
    if args.holdout > 1:
        held = game % args.holdout == 0
        train = Model(x[~held], score[~held], result[~held], args.degree, args.no_draws)
        t2, _ = newton(train, start_theta(args.degree, args.no_draws))
        test = Model(x[held], score[held], result[held], args.degree, args.no_draws)
        ll_test = -test.nll(t2)
        const_test = constant_ll(result[~held], result[held])
        nt = int(held.sum())
        print(
            f"\nheld-out games (every {args.holdout}th, {nt} positions): model {ll_test / nt:.4f} per position, "
            f"constant {const_test / nt:.4f}"
        )

    # Calibration by score bucket.
    edges = [-np.inf, -600, -300, -150, -75, -25, 25, 75, 150, 300, 600, np.inf]
    _, _, pw, pl = model.probabilities(theta)
    pd = np.maximum(1 - pw - pl, 0)
    print("\ncalibration (side to move's score; predicted vs observed rates):")
    print("  score bucket        n     W pred/obs     D pred/obs     L pred/obs")
    for lo, hi in zip(edges[:-1], edges[1:]):
        sel = (score >= lo) & (score < hi)
        k = int(sel.sum())
        if k == 0:
            continue
        r = result[sel]
        ow, ol = np.mean(r > 0.75), np.mean(r < 0.25)
        od = 1 - ow - ol
        label = f"[{lo:.0f}, {hi:.0f})"
        print(
            f"  {label:16} {k:7d}   {pw[sel].mean():.3f}/{ow:.3f}    {pd[sel].mean():.3f}/{od:.3f}    {pl[sel].mean():.3f}/{ol:.3f}"
        )
    print("\ncalibration at |score| < 50 cp by material:")
    print("  material        n     D pred/obs")
    for lo, hi in [(0, 8), (8, 14), (14, 20), (20, 26), (26, 31), (31, 35)]:
        sel = (np.abs(score) < 50) & (material >= lo) & (material < hi)
        k = int(sel.sum())
        if k == 0:
            continue
        r = result[sel]
        od = np.mean((r >= 0.25) & (r <= 0.75))
        print(f"  [{lo:2d}, {hi:2d})   {k:7d}   {pd[sel].mean():.3f}/{od:.3f}")

    lo, hi = int(material.min()), int(material.max())
    a_out = [0.0] * (args.degree + 1) if args.no_draws else list(ca)
    pad = lambda c: list(c) + [0.0] * (3 - len(c))
    print("\nfor crates/chuhe-engine/src/wdl.rs:")
    print(f"pub const {args.name}: WdlModel = WdlModel {{")
    print(f"    norm: {args.norm:.1f},")
    print(f"    material_range: ({lo}, {hi}),")
    print(f"    a: [{', '.join(f'{v:.3f}' for v in pad(a_out))}],")
    print(f"    b: [{', '.join(f'{v:.3f}' for v in pad(cb))}],")
    print("};")


if __name__ == "__main__":
    main()
