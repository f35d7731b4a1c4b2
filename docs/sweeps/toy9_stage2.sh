#!/bin/bash
cd /work/main
exec nice -n 5 .venv/bin/dealers-choice sweep --config toy_stud \
  --set 'env.options={ranks="QKA", suits="cdh"}' --set 'rollout.mix={self=0.8, pool=0.2}' \
  --set rollout.engine=batched --set train.threads=1 --set rollout.tables=512 --set eval.deals=100 --set "eval.opponents=['random']" --set "eval.modes=['greedy']" \
  --set train.minutes=22 \
  --from /work/sweeps/toy9_stage1 --top 2 --seeds 11 --decisions 10000000 --checkpoints 20 \
  --out /work/sweeps/toy9_stage2 --no-progress --shard "$1"
