#!/bin/bash
# does the perfect-recall observation help PPO? the equilibrium config on the 9-card toy,
# seed 31 (not a seed any sweep or report used), 2M learner decisions, with and without up_by_street
source /work/main/.venv/bin/activate
cd /work/main
for flag in true false; do
  python train.py --config configs/toy_stud_equilibrium.toml \
    --set "env.options={ranks = \"QKA\", suits = \"cdh\", up_by_street = $flag}" \
    --set train.seed=31 --set train.decisions=2000000 --set train.updates=100000 --set train.threads=1 \
    --set train.name=by_street_$flag --set train.runs_dir=runs/by_street --set eval.every=60 \
    --set eval.deals=300 --set train.progress=false > runs/by_street/ppo_$flag.log 2>&1
done
