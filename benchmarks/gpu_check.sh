#!/usr/bin/env bash
# The one prepared GPU check of the batched engine and of training on it
# (docs/batched.md, docs/batched_training.md): run it from the repository root on a
# machine with a CUDA device. It writes its logs under $OUT (default ./gpu_check_out):
# the differential tests on the CUDA device first (the batched engine on cuda against
# the scalar env and cuda against cpu integer state; the batched collector, evaluation
# and training on cuda), then the benchmarks (engine, heuristic, training), the tables
# last. About 9 minutes at most (550 s of timeouts) (every step has its own timeout).
set -u
OUT="${OUT:-./gpu_check_out}"
mkdir -p "$OUT"
PY="${PYTHON:-python}"
export PYTHONPATH="${PYTHONPATH:-.}"
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1 || true
"$PY" -c "import torch; print(torch.__version__, torch.cuda.is_available(), torch.cuda.get_device_name(0))" \
  > "$OUT/device.txt" 2>&1
timeout 200 "$PY" -m pytest -q -p no:cacheprovider tests/batched/test_cuda.py \
  > "$OUT/differential_cuda.log" 2>&1
echo "differential test exit code: $?" >> "$OUT/differential_cuda.log"
timeout 120 "$PY" benchmarks/bench_batched.py --device cuda --seconds 1 \
  --sizes 1024 16384 65536 262144 --only "stud heads-up" "stud 6-max" "cowpie heads-up" \
  > "$OUT/bench_cuda.md" 2>&1
echo "benchmark exit code: $?" >> "$OUT/bench_cuda.md"
timeout 100 "$PY" -m pytest -q -p no:cacheprovider tests/training/test_batched_cuda.py \
  > "$OUT/training_cuda.log" 2>&1
echo "training differential exit code: $?" >> "$OUT/training_cuda.log"
timeout 40 "$PY" benchmarks/bench_batched_heuristic.py --device cuda --seconds 1 --sizes 4096 65536 \
  --only "stud heads-up" > "$OUT/bench_heuristic_cuda.md" 2>&1
timeout 90 "$PY" benchmarks/bench_train.py --only-engines --device cuda --repeats 2 --batched-tables 4096 16384 \
  --decisions 131072 > "$OUT/bench_train_cuda.md" 2>&1
echo "training benchmark exit code: $?" >> "$OUT/bench_train_cuda.md"
tail -n 3 "$OUT/differential_cuda.log" "$OUT/training_cuda.log"
cat "$OUT/bench_cuda.md" "$OUT/bench_heuristic_cuda.md" "$OUT/bench_train_cuda.md"
