"""OpenSpiel's AlphaZero (``open_spiel.python.algorithms.alpha_zero``), unchanged, on one of
chuhe's games, with tiny settings: run by test_openspiel.py as a program, since AlphaZero
spawns its actor, evaluator and learner processes, and each of them imports this file (so
``chuhe.openspiel`` registers the games there too).

    python openspiel_alpha_zero.py "chuhe_xiongqi(max_plies=20)" OUT_DIR [STEPS]
"""

import sys

import chuhe.openspiel  # noqa: F401  (registers the games)
from open_spiel.python.algorithms.alpha_zero import alpha_zero
from open_spiel.python.utils import spawn


def main() -> None:
    game, path = sys.argv[1], sys.argv[2]
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    config = alpha_zero.Config(
        game=game,
        path=path,
        learning_rate=1e-3,
        weight_decay=1e-4,
        decouple_weight_decay=False,
        train_batch_size=16,
        replay_buffer_size=64,
        replay_buffer_reuse=2,
        max_steps=steps,
        checkpoint_freq=1,
        actors=1,
        evaluators=1,
        evaluation_window=4,
        eval_levels=2,  # OpenSpiel divides by eval_levels - 1
        uct_c=1.4,
        max_simulations=4,
        policy_alpha=1.0,
        policy_epsilon=0.25,
        temperature=1.0,
        temperature_drop=4,
        nn_model="mlp",
        nn_width=16,
        nn_depth=1,
        observation_shape=None,
        output_size=None,
        verbose=False,
        quiet=True,
        nn_api_version="nnx",
    )
    alpha_zero.alpha_zero(config)


if __name__ == "__main__":
    with spawn.main_handler():
        main()
