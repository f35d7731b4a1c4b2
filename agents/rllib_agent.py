"""An RLlib checkpoint as a bot: ``agents.load("path/to/rllib_checkpoint")``.

A checkpoint saved by ``Algorithm.save`` after training on ``envs.rllib.RLlibEnv``
(``examples/rllib_ppo.py``) is a directory; ``agents.load`` (and so ``evaluate.py``)
takes the directory, or one module's directory inside it
(``<checkpoint>/learner_group/learner/rl_module/player_0``) when each seat trained its
own module. The module is wrapped as a network and played by
:class:`~agents.neural.NeuralAgent`, so it behaves like our own checkpoints: it
samples from the masked policy with its own seeded generator (the arena reseeds it
every hand, so matches are reproducible for any number of workers), or takes the most
likely legal action (``greedy=True``), and it refuses a table other than the one it was
trained on (variant, players, options: read from the checkpoint's ``env_config``).

Ray is imported only when a checkpoint is loaded; without it the error says how to
install it. RLlib's checkpoints are pickles (the module's class and constructor
arguments, the algorithm's config): load only checkpoints you trust. Our own ``.pt``
checkpoints are read with ``weights_only=True`` and carry no code.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import torch

from agents.neural import Layout, LayoutError, NeuralAgent
from envs.rllib import EnvConfig

MODULES = Path("learner_group", "learner", "rl_module")
MARKER = "rllib_checkpoint.json"  # written by RLlib in every checkpoint directory it saves
INSTALL_HINT = 'loading an RLlib checkpoint needs Ray: pip install -e ".[ray]"'


class RLlibModuleNet:
    """An RLlib RLModule seen as a :class:`~agents.nets.PolicyNet`: ``logits(obs)``.

    The module gets an all-ones mask (its own masking is then a no-op) and
    :class:`NeuralAgent` applies the real mask, exactly as for our networks.
    """

    def __init__(self, module: Any) -> None:
        space = module.observation_space
        try:
            self.obs_size = int(space["observations"].shape[0])
            self.num_actions = int(module.action_space.n)
        except (KeyError, TypeError, AttributeError):
            raise ValueError(
                f"this RLlib module observes {space}; expected the Dict of 'observations' and 'action_mask' "
                "that envs.rllib.RLlibEnv gives RLlib's action-masking module"
            ) from None
        self.module = module
        # NeuralAgent asks every network whether it scores candidate decisions
        # (agents.candidates); an RLlib module gives one logit per action index
        self.candidates: tuple[int, int] | None = None

    def eval(self) -> RLlibModuleNet:
        self.module.eval()
        return self

    def logits(self, obs: torch.Tensor) -> torch.Tensor:
        """Unmasked action logits for a batch of observation vectors."""
        batch = {"obs": {"observations": obs, "action_mask": torch.ones(obs.shape[0], self.num_actions)}}
        with torch.inference_mode():
            return self.module.forward_inference(batch)["action_dist_inputs"]


def find_checkpoint(path: Path) -> tuple[Path, Path | None]:
    """``(checkpoint root, module directory or None)`` for a checkpoint or module directory,
    as absolute paths (RLlib reads checkpoints through pyarrow, which refuses relative ones)."""
    path = path.resolve()
    if (path / MARKER).is_file() and (path / MODULES).is_dir():
        return path, None
    depth = len(MODULES.parts)  # a module directory sits this deep below the checkpoint root
    root = path.parents[depth] if len(path.parents) > depth else None
    if root is not None and path.parent == root / MODULES and (root / MARKER).is_file():
        return root, path
    raise ValueError(
        f"directory {str(path)!r} is not an RLlib algorithm checkpoint: expected {MARKER} and {MODULES}/ "
        "in it (what Algorithm.save writes), or one module's directory inside that"
    )


def choose_module(root: Path, module_dir: Path | None) -> Path:
    """The module to play: the one named, else the checkpoint's only module."""
    if module_dir is not None:
        return module_dir
    modules = sorted(p for p in (root / MODULES).iterdir() if p.is_dir())
    if len(modules) != 1:
        names = ", ".join(p.name for p in modules) or "none"
        raise ValueError(
            f"RLlib checkpoint {str(root)!r} has modules {names}: name one as a bot, e.g. "
            f"{str(root / MODULES / (modules[0].name if modules else 'shared'))!r}"
        )
    return modules[0]


def trained_env_config(root: Path) -> dict[str, Any]:
    """The ``env_config`` the algorithm was built with (from its pickled config)."""
    with open(root / "class_and_ctor_args.pkl", "rb") as f:
        data = pickle.load(f)
    args, kwargs = data["ctor_args_and_kwargs"]
    config = kwargs.get("config", args[0] if args else None)
    env_config = config.get("env_config") if isinstance(config, dict) else getattr(config, "env_config", None)
    return dict(env_config or {})


def load_rllib_agent(
    path: str | Path,
    seed: int | None = None,
    *,
    greedy: bool = False,
    strict_options: bool = True,
    name: str | None = None,
) -> NeuralAgent:
    """A bot from an RLlib checkpoint directory (or a module directory inside one).

    Args:
        path: the directory ``Algorithm.save`` wrote, or ``<it>/learner_group/learner/rl_module/<module>``.
        seed: seeds the bot's sampling (the arena reseeds it every hand).
        greedy: play the most likely legal action instead of sampling.
        strict_options: refuse tables whose options differ from the training table's.
        name: label in match tables (default ``rllib@<checkpoint>/<module>``).
    """
    root, module_dir = find_checkpoint(Path(path))
    module_path = choose_module(root, module_dir)
    try:
        from ray.rllib.core.rl_module.rl_module import RLModule
    except ImportError as err:
        raise ValueError(f"{INSTALL_HINT} ({err})") from None
    try:
        env = EnvConfig.of(trained_env_config(root))
    except (OSError, KeyError, ValueError, pickle.UnpicklingError) as err:
        raise ValueError(
            f"RLlib checkpoint {str(root)!r}: cannot read the table it was trained for ({err}); only checkpoints "
            "trained on envs.rllib.RLlibEnv can play here"
        ) from None
    assert env.num_players is not None
    layout = Layout.build(env.variant, env.num_players, dict(env.options))
    net = RLlibModuleNet(RLModule.from_checkpoint(str(module_path)))
    label = name or f"rllib@{root.name}/{module_path.name}"
    try:
        return NeuralAgent(net, layout, greedy=greedy, seed=seed, strict_options=strict_options, name=label)  # type: ignore[arg-type]
    except LayoutError as err:
        raise ValueError(f"RLlib checkpoint {str(root)!r}: {err}") from None
