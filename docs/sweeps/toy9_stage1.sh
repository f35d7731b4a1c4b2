#!/bin/bash
cd /work/main
exec nice -n 10 .venv/bin/dealers-choice sweep --config toy_stud \
  --set 'env.options={ranks="QKA", suits="cdh"}' --set 'rollout.mix={self=0.8, pool=0.2}' \
  --set rollout.engine=batched --set train.threads=1 --set rollout.tables=512 --set eval.deals=100 --set "eval.opponents=['random']" --set "eval.modes=['greedy']" \
  --space ppo.ent_coef=0.05:0.2:log --space ppo.clip_coef=0.025:0.1:log --space ppo.lr=6e-5:2e-3:log \
  --space ppo.anneal_lr=true,false --space ppo.magnet_coef=0,0.025,0.05,0.1,0.2 \
  --space ppo.magnet_step=0.1,0.5,1.0 --space ppo.magnet_every=1,5,10 \
  --space 'model.hidden=[64,64],[128,128]' --space rollout.decisions=4096,8192,16384 --space ppo.epochs=2,4,8 \
  --configs 10 --seeds 1,2 --decisions 250000 --checkpoints 8 --sweep-seed 2026 --out /work/sweeps/toy9_stage1 --no-progress --shard "$1"
