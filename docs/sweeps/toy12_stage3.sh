#!/bin/bash
# Stage 3 (2026-12-02): the shipped toy_stud_equilibrium config (picked on the 9-card toy)
# on the default 12-card toy, a fresh seed (21), to 10M decisions by the sweep's budget.
# The sweep counts updates from rollout.decisions (4,096), but 512 batched tables that
# each finish their hand collect about 5,950 per update: 2,442 updates took 14.5M.
# The 70-minute limit stopped it at update 2,099; it was resumed with
#   python train.py --resume <run> --set train.minutes=0
# and measured with training.sweep.measure_run (the row in toy12_stage3.jsonl).
cd /work/main
exec nice -n 10 .venv/bin/dealers-choice sweep --config configs/toy_stud_equilibrium.toml \
  --set 'env.options={}' --set train.threads=1 --set train.minutes=70 \
  --configs 1 --seeds 21 --decisions 10000000 --checkpoints 10 \
  --out /work/sweeps/toy12_stage3 --no-progress
# The 1M point on another fresh seed (22):
#   python train.py --config configs/toy_stud_equilibrium.toml --set 'env.options={}' \
#     --set train.seed=22 --set train.updates=168 --set eval.every=0
