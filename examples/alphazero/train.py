"""AlphaZero on a chuhe game with chuhe's batched MCTS (Rust) and a small PyTorch network.

Self-play: ``--games`` games in lockstep, every move of every game searched together by
:class:`chuhe.mcts.MCTS` (Gumbel MuZero's search by default: it learns with few
simulations), one network call per round of leaves. Each position is kept with its search's
policy target and, once its game ends, the result from its side to move's view; the network
trains on the latest ``--buffer`` positions (cross-entropy to the target, squared error to
the result). Every ``--eval-every`` minutes (and at the start) the network, searching with
the same simulations and no noise, plays the random player and chuhe's engine at fixed node
counts (``--engine-nodes``): pairs of games from openings of 4 random moves (the same ones
at every evaluation), the network with each colour once; the score (wins + draws / 2) goes
to the log, a JSON line per evaluation, with the minutes of training so far (wall time,
and the CPU time of this process in them: on a shared machine they differ), its games and
positions.

    python examples/alphazero/train.py --game xiongqi --minutes 60 --log az-xiongqi.jsonl
    python examples/alphazero/train.py --game xiangqi-capture --minutes 60

The network: a few residual blocks of 3x3 convolutions; a policy head of 1x1 convolutions
that gives every start square one logit per target square and promotion choice (the actions'
order, ``(from * SQUARES + to) * CHOICES + choice``), illegal actions masked to the lowest
logit; a value head. ``--device cuda`` trains and infers on a GPU where torch has one.

``--pretrain FILE`` first trains the network on engine games with policy targets
(``engine_games.py``, read by :class:`chuhe.data.EngineGames`; the source tree has 2,000
games of each of ``data/xiongqi-engine-games.jsonl.xz`` and
``data/xiangqi-capture-engine-games.jsonl.xz``) for ``--pretrain-epochs``.

Self-play runs in :class:`SelfPlay`, whose state is its games, its search and a copy of the
network: the learner sends it weights (``set_weights``) and asks for moves (``play``). With
``--actors N`` (Ray installed) N of them run as Ray actors, each with ``--actor-cpus`` cores
for its search and network, on this machine or on a Ray cluster's (``--address auto``: the
same Python environment, chuhe included, on every machine); the learner and the
evaluations stay in this process::

    python examples/alphazero/train.py --game xiongqi --actors 8 --actor-cpus 2 --address auto
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from collections import deque

import numpy as np
import torch
from torch import nn

import chuhe
from chuhe.mcts import MCTS


def spec(game: str) -> tuple[int, int, int, int, int]:
    """(files, ranks, planes, choices, actions) of ``game``."""
    return chuhe._chuhe.env_spec(game)


class Block(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.c1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.b1 = nn.BatchNorm2d(channels)
        self.c2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.b2 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.b1(self.c1(x)))
        return torch.relu(x + self.b2(self.c2(y)))


class Network(nn.Module):
    """Residual tower; policy logits in the actions' order; value in −1..1 for the side to
    move."""

    def __init__(self, game: str, channels: int = 48, blocks: int = 3) -> None:
        super().__init__()
        files, ranks, planes, choices, _actions = spec(game)
        self.squares, self.choices = files * ranks, choices
        self.stem = nn.Sequential(
            nn.Conv2d(planes, channels, 3, padding=1, bias=False),
            nn.BatchNorm2d(channels), nn.ReLU(),
        )
        self.tower = nn.Sequential(*[Block(channels) for _ in range(blocks)])
        # One channel per (target square, choice) at each start square.
        self.policy = nn.Sequential(
            nn.Conv2d(channels, channels, 1), nn.ReLU(),
            nn.Conv2d(channels, self.squares * choices, 1),
        )
        self.value = nn.Sequential(
            nn.Conv2d(channels, 2, 1), nn.ReLU(), nn.Flatten(),
            nn.Linear(2 * self.squares, 64), nn.ReLU(), nn.Linear(64, 1), nn.Tanh(),
        )

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = self.tower(self.stem(obs))
        # [B, to * choices, ranks, files] -> [B, from, to * choices] -> actions' order.
        logits = self.policy(x).flatten(2).transpose(1, 2).reshape(len(obs), -1)
        logits = logits.masked_fill(mask == 0, -1e9)
        return logits, self.value(x).squeeze(1)


def as_search_network(model: Network, device: str):
    """``network(obs, mask)`` for chuhe.mcts: the model in inference mode."""

    def network(obs: np.ndarray, mask: np.ndarray):
        with torch.inference_mode():
            o = torch.from_numpy(obs).to(device)
            m = torch.from_numpy(mask).to(device)
            logits, value = model(o, m)
            return logits.float().cpu().numpy(), value.float().cpu().numpy()

    return network


class SelfPlay:
    """Games played against themselves in lockstep, each move searched by chuhe.mcts; the
    positions of finished games come back as training samples."""

    def __init__(self, game: str, games: int, simulations: int, algorithm: str,
                 max_plies: int, seed: int, channels: int, blocks: int,
                 device: str = "cpu", threads: int | None = None) -> None:
        self.game, self.max_plies, self.device = game, max_plies, device
        if threads is not None:
            torch.set_num_threads(threads)
        self.model = Network(game, channels, blocks).to(device).eval()
        self.mcts = MCTS(game, algorithm=algorithm, simulations=simulations, seed=seed,
                         threads=threads)
        self.games = [chuhe.Game(game) for _ in range(games)]
        self.trajectories: list[list[tuple[np.ndarray, np.ndarray, np.ndarray, str]]] = [
            [] for _ in range(games)]
        self.finished = 0

    def set_weights(self, weights: dict) -> None:
        self.model.load_state_dict(weights)
        self.model.eval()

    def play(self, moves: int) -> tuple[list[tuple[np.ndarray, np.ndarray, np.ndarray, float]], int]:
        """Plays ``moves`` moves in every game; returns the samples of the games that ended
        and how many ended. A sample is the observation, the legal actions, the policy
        target at them (not the whole action space: Xiongqi has 28,672 actions), and the
        result for the side to move."""
        samples = []
        network = as_search_network(self.model, self.device)
        ended = 0
        for _ in range(moves):
            obs, mask = chuhe.observe(self.games)
            result = self.mcts.search(self.games, network, explore=True, temperature=1.0)
            for i, g in enumerate(self.games):
                legal = np.flatnonzero(mask[i]).astype(np.int32)
                self.trajectories[i].append(
                    (obs[i].copy(), legal, result.policy[i][legal], g.turn))
                g.play_action(int(result.actions[i]))
                if g.is_over() or len(g.move_stack) >= self.max_plies:
                    for o, m, p, turn in self.trajectories[i]:
                        z = 0.0 if g.winner is None else (1.0 if g.winner == turn else -1.0)
                        samples.append((o, m, p, z))
                    self.trajectories[i] = []
                    self.games[i] = chuhe.Game(self.game)
                    ended += 1
        self.finished += ended
        return samples, ended


def openings(game: str, pairs: int, plies: int, seed: int) -> list[chuhe.Game]:
    """``pairs`` games opened by ``plies`` random moves each (seeded: every evaluation
    plays the same openings), each twice in a row: once for each colour of the model."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(pairs):
        g = chuhe.Game(game)
        while len(g.move_stack) < plies:
            g.play_action(int(rng.choice(g.legal_actions())))
            if g.is_over():  # too short an opening: start it again
                g = chuhe.Game(game)
        out += [g, g.copy()]
    return out


def evaluate(model: Network, game: str, simulations: int, algorithm: str, opponent: str,
             games: int, nodes: int, device: str, max_plies: int, seed: int,
             opening_plies: int = 4) -> float:
    """The model's score (wins + draws / 2) over ``games`` games against ``opponent``
    (``"random"`` or ``"engine"`` at ``nodes`` nodes): pairs of games from the same opening
    of ``opening_plies`` random moves, the model with each colour once; the model searches
    with ``simulations`` and no noise. (The openings make the games differ: the model and
    the engine at fixed nodes would otherwise replay one game per colour.)"""
    rng = np.random.default_rng(seed)
    engine = chuhe.Engine(hash_mb=1, level=20) if opponent == "engine" else None
    boards = openings(game, (games + 1) // 2, opening_plies, seed)[:games]
    first_mover = [b.turn for b in boards]
    other = {"first": "second", "second": "first"}
    model_side = [t if i % 2 == 0 else other[t] for i, t in enumerate(first_mover)]
    mcts = MCTS(game, algorithm=algorithm, simulations=simulations, seed=seed)
    network = as_search_network(model, device)
    live = list(range(games))
    while live:
        ours = [i for i in live if boards[i].turn == model_side[i]]
        if ours:
            result = mcts.search([boards[i] for i in ours], network, explore=False)
            for i, a in zip(ours, result.actions):
                boards[i].play_action(int(a))
        for i in live:
            b = boards[i]
            if b.is_over() or len(b.move_stack) >= max_plies or b.turn == model_side[i]:
                continue
            if engine is None:
                b.play_action(int(rng.choice(b.legal_actions())))
            else:
                b.push(engine.play(b, nodes=nodes))
        live = [i for i in live
                if not (boards[i].is_over() or len(boards[i].move_stack) >= max_plies)]
    score = 0.0
    for b, side in zip(boards, model_side):
        score += 0.5 if b.winner is None else float(b.winner == side)
    return score / games


def dense_batch(buffer, idx, actions: int) -> list[np.ndarray]:
    """Observations, masks, policies (over every action) and values of samples ``idx``."""
    obs = np.stack([buffer[j][0] for j in idx])
    mask = np.zeros((len(idx), actions), np.int8)
    policy = np.zeros((len(idx), actions), np.float32)
    for row, j in enumerate(idx):
        _, legal, probs, _ = buffer[j]
        mask[row, legal] = 1
        policy[row, legal] = probs
    values = np.array([buffer[j][3] for j in idx], np.float32)
    return [obs, mask, policy, values]


def train_step(model: Network, optimiser, batch, device: str) -> tuple[float, float]:
    obs, mask, policy, value = (torch.from_numpy(x).to(device) for x in batch)
    logits, v = model(obs, mask)
    policy_loss = -(policy * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
    value_loss = ((v - value) ** 2).mean()
    optimiser.zero_grad()
    (policy_loss + value_loss).backward()
    optimiser.step()
    return float(policy_loss), float(value_loss)


def pretrain(model: Network, optimiser, args: argparse.Namespace) -> None:
    """Supervised training on engine games (policy and value targets)."""
    from chuhe.data import EngineGames

    games = EngineGames.read(args.pretrain)
    if games.game != args.game:
        raise SystemExit(f"--pretrain: {args.pretrain} holds {games.game} games, not {args.game}")
    batches = max(1, int(args.pretrain_epochs * len(games) / args.batch))
    model.train()
    done, epoch = 0, 0
    losses = (math.nan, math.nan)
    while done < batches:
        for batch in games.batches(args.batch, seed=args.seed + epoch):
            losses = train_step(model, optimiser, batch, args.device)
            done += 1
            if done >= batches:
                break
        epoch += 1
    print(f"pretrained on {len(games)} positions of {args.pretrain}: {done} batches, "
          f"policy loss {losses[0]:.3f}, value loss {losses[1]:.3f}", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="xiongqi", choices=chuhe.GAMES)
    p.add_argument("--minutes", type=float, default=60.0, help="training time")
    p.add_argument("--games", type=int, default=64, help="self-play games in lockstep")
    p.add_argument("--simulations", type=int, default=32)
    p.add_argument("--algorithm", default="gumbel", choices=("gumbel", "puct"))
    p.add_argument("--max-plies", type=int, default=200, help="a game reaching it is a draw")
    p.add_argument("--channels", type=int, default=48)
    p.add_argument("--blocks", type=int, default=3)
    p.add_argument("--buffer", type=int, default=60_000, help="positions kept for training")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--moves-per-round", type=int, default=8,
                   help="self-play moves (of every game) between training rounds")
    p.add_argument("--updates-per-round", type=int, default=16)
    p.add_argument("--eval-every", type=float, default=15.0, help="minutes")
    p.add_argument("--eval-games", type=int, default=40)
    p.add_argument("--engine-nodes", type=int, nargs="*", default=[16, 128])
    p.add_argument("--threads", type=int, default=None, help="torch's threads")
    p.add_argument("--device", default="cpu")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--log", default=None, help="JSON lines of the evaluations")
    p.add_argument("--checkpoints", default=None,
                   help="a folder for the network's weights at each evaluation")
    p.add_argument("--actors", type=int, default=0,
                   help="self-play in this many Ray actors (0: in this process)")
    p.add_argument("--actor-cpus", type=int, default=1, help="cores of each Ray actor")
    p.add_argument("--address", default=None, help="a Ray cluster's (auto: the running one)")
    p.add_argument("--pretrain", default=None, help="engine games to train on first")
    p.add_argument("--pretrain-epochs", type=float, default=1.0)
    args = p.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads or os.cpu_count() or 1)
    model = Network(args.game, args.channels, args.blocks).to(args.device)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    if args.pretrain:
        pretrain(model, optimiser, args)
    players = SelfPlayers(args, model)
    buffer: deque = deque(maxlen=args.buffer)
    log = open(args.log, "a") if args.log else None
    start = time.perf_counter()
    trained = 0.0  # seconds of training (evaluations excluded)
    trained_cpu = 0.0  # this process's CPU seconds in them (Ray actors' not counted)
    next_eval = 0.0
    losses = (math.nan, math.nan)
    positions = updates = 0
    rng = np.random.default_rng(args.seed)
    actions = spec(args.game)[4]
    print(f"AlphaZero on {args.game}: {args.games} games x {args.simulations} simulations "
          f"({args.algorithm}), network {args.channels}x{args.blocks}, {args.minutes:g} minutes",
          flush=True)
    while True:
        if trained / 60 >= next_eval:
            model.eval()
            line = {"minutes": round(trained / 60, 2),
                    "cpu_minutes": round(trained_cpu / 60, 2), "games": players.finished,
                    "positions": positions, "updates": updates,
                    "policy_loss": losses[0], "value_loss": losses[1]}
            line["random"] = evaluate(model, args.game, args.simulations, args.algorithm,
                                      "random", args.eval_games, 0, args.device,
                                      args.max_plies, args.seed + 1)
            for n in args.engine_nodes:
                line[f"engine_{n}"] = evaluate(model, args.game, args.simulations,
                                               args.algorithm, "engine", args.eval_games, n,
                                               args.device, args.max_plies, args.seed + 2)
            print(json.dumps(line), flush=True)
            if log:
                log.write(json.dumps(line) + "\n")
                log.flush()
            if args.checkpoints:
                os.makedirs(args.checkpoints, exist_ok=True)
                torch.save(model.state_dict(), os.path.join(
                    args.checkpoints, f"{args.game}-{line['minutes']:.0f}min.pt"))
            next_eval += args.eval_every
            if trained / 60 >= args.minutes:
                break
        t0, c0 = time.perf_counter(), time.process_time()
        samples = players.play(args.moves_per_round)
        buffer.extend(samples)
        positions += len(samples)
        if len(buffer) >= args.batch:
            model.train()
            for _ in range(args.updates_per_round):
                idx = rng.integers(len(buffer), size=args.batch)
                losses = train_step(model, optimiser, dense_batch(buffer, idx, actions),
                                    args.device)
                updates += 1
            players.set_weights(model)
        trained += time.perf_counter() - t0
        trained_cpu += time.process_time() - c0
        next_eval = min(next_eval, args.minutes)
    if log:
        log.close()
    players.close()


class SelfPlayers:
    """The self-play workers: one :class:`SelfPlay` here, or ``--actors`` Ray actors."""

    def __init__(self, args: argparse.Namespace, model: Network) -> None:
        self.ray = None
        self.finished = 0
        settings = dict(game=args.game, games=args.games, simulations=args.simulations,
                        algorithm=args.algorithm, max_plies=args.max_plies,
                        channels=args.channels, blocks=args.blocks)
        if args.actors <= 0:
            self.workers = [SelfPlay(seed=args.seed, device=args.device, threads=args.threads,
                                     **settings)]
        else:
            import ray

            if not ray.is_initialized():
                ray.init(address=args.address, include_dashboard=False, log_to_driver=False)
            self.ray = ray
            actor = ray.remote(num_cpus=args.actor_cpus)(SelfPlay)
            self.workers = [
                actor.remote(seed=args.seed + 1000 * (i + 1), threads=args.actor_cpus,
                             **settings)
                for i in range(args.actors)
            ]
        self.set_weights(model)

    def set_weights(self, model: Network) -> None:
        weights = {k: v.detach().cpu() for k, v in model.state_dict().items()}
        if self.ray is None:
            self.workers[0].set_weights(weights)
        else:
            ref = self.ray.put(weights)
            self.ray.get([w.set_weights.remote(ref) for w in self.workers])

    def play(self, moves: int) -> list:
        """Every worker plays ``moves`` moves of its games; the samples of the games that
        ended."""
        if self.ray is None:
            results = [self.workers[0].play(moves)]
        else:
            results = self.ray.get([w.play.remote(moves) for w in self.workers])
        samples = []
        for got, ended in results:
            samples.extend(got)
            self.finished += ended
        return samples

    def close(self) -> None:
        if self.ray is not None:
            self.ray.shutdown()


if __name__ == "__main__":
    main()
