"""Engine games with policy targets, for supervised pre-training: chuhe's engine plays
itself, and at every position its ``--multipv`` best moves (scored at ``--nodes`` nodes)
give a visit-style distribution, ``p(move) ∝ exp(score / --temperature)`` over those moves
(scores in centipawns; a forced win counts as 100,000 less the moves to it). The first
``--random-plies`` moves of a game are uniformly random legal moves (the games differ from
the start), the next ones up to ``--sample-plies`` are drawn from the distribution, the rest
are the engine's best; every position gets the engine's distribution as its target.

One game per line of JSON (xz-compressed when the name ends in ``.xz``): the game, its
start, its moves in coordinate form, for each move the distribution as ``[action,
probability]`` pairs (actions in the environments' encoding, from the mover's view), and
the winner (``first``, ``second`` or ``null``). :class:`chuhe.data.EngineGames` reads it.

    python examples/alphazero/engine_games.py --game xiongqi --games 200 out.jsonl.xz
"""

from __future__ import annotations

import argparse
import json
import lzma
import math

import numpy as np

import chuhe


def distribution(lines: list[chuhe.Line], game: chuhe.Game, temperature: float):
    """``[(action, probability)]`` over the engine's lines."""
    values = []
    for line in lines:
        if line.mate is not None:
            values.append(math.copysign(100_000 - abs(line.mate), line.mate))
        else:
            values.append(float(line.score))
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [(game.encode_move(line.move), w / total) for line, w in zip(lines, weights)]


def play(game_name: str, engine: chuhe.Engine, nodes: int, multipv: int, temperature: float,
         random_plies: int, sample_plies: int, max_plies: int,
         rng: np.random.Generator) -> dict:
    game = chuhe.Game(game_name)
    start = game.feen
    moves, policies = [], []
    while not game.is_over() and len(moves) < max_plies:
        lines = engine.lines(game, multipv, nodes=nodes)
        policy = distribution(lines, game, temperature)
        policies.append([[int(a), round(float(p), 6)] for a, p in policy])
        if len(moves) < random_plies:
            move = game.decode_action(int(rng.choice(game.legal_actions())))
        elif len(moves) < sample_plies:
            move = lines[rng.choice(len(policy), p=[p for _, p in policy])].move
        else:
            move = lines[0].move
        moves.append(move.uci)
        game.push(move)
    return {"game": game_name, "start": start, "moves": moves, "policies": policies,
            "winner": game.winner, "status": game.status, "nodes": nodes, "multipv": multipv}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", help="the file to write (.jsonl or .jsonl.xz)")
    p.add_argument("--game", default="xiongqi", choices=chuhe.GAMES)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--nodes", type=int, default=256)
    p.add_argument("--multipv", type=int, default=8)
    p.add_argument("--temperature", type=float, default=100.0, help="centipawns")
    p.add_argument("--random-plies", type=int, default=8)
    p.add_argument("--sample-plies", type=int, default=30)
    p.add_argument("--max-plies", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    rng = np.random.default_rng(args.seed)
    engine = chuhe.Engine(hash_mb=16, level=20)
    opener = lzma.open if args.out.endswith(".xz") else open
    with opener(args.out, "wt", encoding="utf-8") as f:
        for i in range(args.games):
            record = play(args.game, engine, args.nodes, args.multipv, args.temperature,
                          args.random_plies, args.sample_plies, args.max_plies, rng)
            f.write(json.dumps(record) + "\n")
            print(f"game {i + 1}: {len(record['moves'])} plies, {record['status']}, "
                  f"winner {record['winner']}", flush=True)


if __name__ == "__main__":
    main()
