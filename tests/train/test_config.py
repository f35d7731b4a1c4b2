"""Configs: every setting documented, the shipped TOML files valid, clear errors."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path

import pytest

import training.run as train
from envs.variants import VARIANTS as REGISTERED
from training.config import (
    SECTIONS,
    Config,
    ConfigError,
    field_docs,
    load_config,
    parse_override,
    settings,
    to_dict,
    to_toml,
)

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
VARIANTS = list(REGISTERED)  # every registered variant ships a config
# documented extra configs, by the variant they train
EXTRA_CONFIGS = {"toy_stud_mmd": "toy_stud", "toy_stud_equilibrium": "toy_stud"}


def test_every_setting_has_a_docstring_and_appears_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    for cls in SECTIONS.values():
        docs = field_docs(cls)
        for f in dataclasses.fields(cls):
            assert len(docs.get(f.name, "")) > 15, f"{cls.__name__}.{f.name} needs a docstring"
    with pytest.raises(SystemExit):
        train.parse_args(["--help"])
    text = capsys.readouterr().out
    for key, _, _, doc in settings():
        assert key in text and doc.split()[0] in text, key
    for flag in ("--config", "--set", "--resume", "--print-config"):
        assert flag in text


def test_default_toml_lists_every_setting_with_its_default_value() -> None:
    text = (CONFIGS / "default.toml").read_text()
    assert tomllib.loads(text) == to_dict(Config())
    assert load_config(CONFIGS / "default.toml") == Config()
    for key, _, _, doc in settings():  # each setting sits under its documentation
        name = key.split(".")[1]
        assert re.search(rf"# {re.escape(doc)}\n{name} = ", text), key
    assert tomllib.loads(to_toml(Config())) == to_dict(Config())


@pytest.mark.parametrize(("name", "variant"), [*((v, v) for v in VARIANTS), *EXTRA_CONFIGS.items()])
def test_each_variant_has_a_valid_documented_config(name: str, variant: str) -> None:
    path = CONFIGS / f"{name}.toml"
    config = load_config(path)
    assert config.env.variant == variant
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):  # every setting in the file is explained by a comment above it
        if re.match(r"^\w+ = ", line):
            above = [x for x in lines[:i] if x.strip()]
            assert above and (above[-1].startswith("#") or re.match(r"^\w+ = ", above[-1])), line
    assert sorted(p.stem for p in CONFIGS.glob("*.toml")) == sorted([*VARIANTS, "default", *EXTRA_CONFIGS])


def test_overrides_are_toml_values_or_bare_strings() -> None:
    assert parse_override("ppo.lr=3e-4") == ("ppo", "lr", 3e-4)
    assert parse_override("env.variant=razz") == ("env", "variant", "razz")
    assert parse_override("model.hidden=[64, 32]") == ("model", "hidden", [64, 32])
    assert parse_override("env.options={match_cap = 8}") == ("env", "options", {"match_cap": 8})
    config = load_config(CONFIGS / "razz.toml", ["ppo.lr=1", "train.seed=9", "ppo.anneal_lr=false"])
    assert (config.ppo.lr, config.train.seed, config.ppo.anneal_lr, config.env.variant) == (1.0, 9, False, "razz")


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (["ppo.lrr=1"], r"unknown setting ppo\.lrr; \[ppo\] has: lr, anneal_lr"),
        (["optim.lr=1"], r"unknown section 'optim'; known: train, env"),
        (["ppo.lr"], r"must look like section\.key=value"),
        (["ppo.lr=fast"], r"ppo\.lr must be float, got 'fast'"),
        (["train.updates=2.5"], r"train\.updates must be int, got 2\.5"),
        (["train.updates=true"], r"train\.updates must be int, got True"),
        (["ppo.norm_adv=1"], r"ppo\.norm_adv must be bool"),
        (['model.hidden=[64, "x"]'], r"model\.hidden\[1\] must be int"),
        (["eval.opponents=random"], r"eval\.opponents must be a list of str"),
        (["env.options=8"], r"env\.options must be a table"),
        (["ppo.lr=-1"], r"ppo\.lr = -1\.0 is out of range: it must be > 0"),
        (["rollout.many_learners=1.5"], r"rollout\.many_learners = 1\.5 is out of range"),
        (["rollout.self_play=0.5"], r"rollout\.self_play was replaced by rollout\.mix"),
        (["eval.greedy=true"], r"eval\.greedy was replaced by eval\.modes"),
        (["rollout.mix={heuristic=-1}"], r"rollout\.mix = \{heuristic = -1\.0\} is out of range"),
        (['rollout.mix={heuristic="a"}'], r"rollout\.mix\.heuristic must be float"),
        (['eval.modes=["best"]'], r"eval\.modes = \[\"best\"\] is out of range"),
        (["ppo.value_loss=l1"], r"ppo\.value_loss = \"l1\" is out of range: it must be one of mse, huber"),
        (["model.shared=true"], r"model\.privileged_critic = true is out of range"),
        (["pool.rule=best"], r"pool\.rule = \"best\" is out of range: it must be one of latest, uniform, weighted"),
        (["eval.deals=1"], r"eval\.deals = 1 is out of range"),
        (["train.minutes=-1"], r"train\.minutes = -1\.0 is out of range: it must be >= 0 \(0: no time limit\)"),
        (["ppo.magnet_coef=-0.1"], r"ppo\.magnet_coef = -0\.1 is out of range: it must be >= 0 \(0: off\)"),
        (["ppo.magnet_coef=inf"], r"ppo\.magnet_coef = inf is out of range"),
        (["ppo.magnet_every=0"], r"ppo\.magnet_every = 0 is out of range: it must be >= 1"),
        (["ppo.magnet_step=0"], r"ppo\.magnet_step = 0\.0 is out of range: it must be in \(0, 1\]"),
        (["ppo.magnet_step=1.5"], r"ppo\.magnet_step = 1\.5 is out of range"),
    ],
)
def test_bad_settings_are_clear_errors(overrides: list[str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(None, overrides)


def test_bad_files_are_clear_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[ppo]\nlr = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad)
    bad.write_text("[ppo]\nlearning_rate = 0.1\n")
    with pytest.raises(ConfigError, match=r"bad\.toml: unknown setting ppo\.learning_rate"):
        load_config(bad)
    bad.write_text('ppo = "fast"\n')
    with pytest.raises(ConfigError, match=r"\[ppo\] must be a table"):
        load_config(bad)
    bad.write_text("[env]\nvariant = \"__import__('os').system('true')\"\n")  # data, never evaluated
    assert load_config(bad).env.variant.startswith("__import__")
    with pytest.raises(ConfigError, match="no config file"):
        load_config(tmp_path / "missing.toml")


def test_env_settings_are_checked_by_the_variant_before_a_run_starts(tmp_path: Path) -> None:
    for overrides, message in (
        (["env.variant=poker"], "unknown environment 'poker'"),
        (["env.variant=cowboy", "env.num_players=2"], "players"),
        (["env.options={raise_cap = 0}"], "raise_cap"),
    ):
        config = load_config(None, [*overrides, f"train.runs_dir={tmp_path}", 'eval.opponents=["random"]'])
        with pytest.raises(ConfigError, match=message):
            train.main(config)
    assert not any(tmp_path.iterdir())


def _not_utf8(tmp_path: Path) -> list[str]:
    path = tmp_path / "latin1.toml"
    path.write_bytes('[train]\nname = "café"\n'.encode("latin-1"))
    return ["--config", str(path)]


def _runs_dir_is_a_file(tmp_path: Path) -> list[str]:
    (tmp_path / "runs").write_text("not a folder")
    return ["--set", f"train.runs_dir={tmp_path / 'runs'}", "--set", 'eval.opponents=["random"]']


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (lambda tmp: ["--config", str(tmp)], r"--config '.*' is a folder; give a TOML file"),
        (_not_utf8, r"latin1\.toml' is not a UTF-8 text file \(byte 0xe9 at offset 19\); a config is TOML"),
        (["--set", "train.seed=-1"], r"train\.seed = -1 is out of range: it must be between 0 and 2\*\*63-1 \(numpy"),
        (["--set", "eval.seed=-3"], r"eval\.seed = -3 is out of range: it must be between 0 and 2\*\*63-1"),
        (["--set", "rollout.tables=100000"], r"tables = 100000 is out of range: it must be between 1 and 4096 \("),
        (["--set", "rollout.tables=0"], r"rollout\.tables = 0 is out of range"),
        (["--set", "rollout.decisions=1000000000"], r"rollout\.decisions = 1000000000 is out of range: .* 1048576"),
        (["--set", "model.hidden=[256, 100000]"], r"model\.hidden = \[256, 100000\] .* widths from 1 to 8192"),
        (["--set", "model.hidden=[8192, 8192, 8192]"], r"model\.hidden = .* at most 67,108,864 weights between"),
        (["--set", f"model.hidden=[{', '.join(['0'] * 3000)}]"], r"model\.hidden = \[0, 0, 0, .*\.\.\. is out of"),
        (_runs_dir_is_a_file, r"cannot create train\.runs_dir '.*runs'"),
    ],
    ids=[
        "config-folder",
        "config-not-utf8",
        "negative-seed",
        "negative-eval-seed",
        "too-many-tables",
        "no-tables",
        "too-many-decisions",
        "too-wide",
        "too-many-weights",
        "long-value-truncated",
        "runs-dir-is-a-file",
    ],
)
def test_cli_input_errors_exit_2_with_a_message_and_no_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: object, message: str
) -> None:
    args = argv(tmp_path) if callable(argv) else argv
    assert train.cli([f"--set=train.runs_dir={tmp_path / 'runs'}", *args]) == 2  # were it accepted: no repo runs/
    err = capsys.readouterr().err
    assert err.startswith("train.py: error: ") and err.count("\n") == 1, err
    assert re.search(message, err), err
    assert len(err) < 600  # values the user gave are cut short


def test_largest_allowed_sizes_and_seeds_are_accepted() -> None:
    config = load_config(
        None,
        ["train.seed=9223372036854775807", "eval.seed=0", "rollout.tables=4096", "model.hidden=[8192, 8192]"],
    )
    assert (config.train.seed, config.rollout.tables, config.model.hidden) == (2**63 - 1, 4096, [8192, 8192])
    assert load_config(None, ["model.hidden=[4096, 4096, 4096, 4096, 16]"]).model.hidden[-1] == 16
